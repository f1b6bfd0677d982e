// budgetStatus, cases after upstream's disruption_test.go: integer and percentage minAvailable, maxUnavailable, controllers' scale (RC, ReplicaSet, Deployment, StatefulSet), naked pods, disruptedPods expiry and failing safe.
import { describe, expect, it } from 'vitest';
import {
  budgetStatus,
  type ControllerLookup,
  DELETION_TIMEOUT_MS,
} from '../../../../operators/controller/disruption/budget-status.ts';
import type { KubeObject } from '../../../../operators/types.ts';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

type Owner = { kind: string; name: string; uid: string; apiVersion?: string };

const budget = (
  spec: Record<string, unknown>,
  status: Record<string, unknown> = {},
  generation = 1,
): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'pdb', namespace: 'default', generation },
  spec: { selector: { matchLabels: { app: 'a' } }, ...spec },
  status,
});

const pod = (
  name: string,
  opts: { ready?: boolean; owner?: Owner; deleting?: boolean } = {},
): KubeObject => ({
  metadata: {
    name,
    namespace: 'default',
    labels: { app: 'a' },
    ...(opts.deleting ? { deletionTimestamp: iso(NOW) } : {}),
    ...(opts.owner
      ? {
          ownerReferences: [
            {
              apiVersion: opts.owner.apiVersion ?? 'apps/v1',
              kind: opts.owner.kind,
              name: opts.owner.name,
              uid: opts.owner.uid,
              controller: true,
            },
          ],
        }
      : {}),
  },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
  },
});

const controller = (
  kind: string,
  name: string,
  uid: string,
  replicas: number,
  owner?: Owner,
): KubeObject => ({
  kind,
  metadata: {
    name,
    namespace: 'default',
    uid,
    ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', ...owner, controller: true }] } : {}),
  },
  spec: { replicas },
});

const lookupOf =
  (...objects: KubeObject[]): ControllerLookup =>
  (kind, _v, name) =>
    objects.find((o) => o.kind === kind && o.metadata?.name === name);

const none: ControllerLookup = () => undefined;
const rc3 = controller('ReplicationController', 'rc', 'rc-uid', 3);
const rcPod = (n: string, ready = true) =>
  pod(n, { ready, owner: { kind: 'ReplicationController', name: 'rc', uid: 'rc-uid', apiVersion: 'v1' } });
const ss3 = controller('StatefulSet', 'ss', 'ss-uid', 3);
const ssPod = (n: string, ready = true) =>
  pod(n, { ready, owner: { kind: 'StatefulSet', name: 'ss', uid: 'ss-uid' } });
const rs10 = controller('ReplicaSet', 'rs', 'rs-uid', 10);
const rsPod = (n: string, ready = true) =>
  pod(n, { ready, owner: { kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid' } });
const dep = controller('Deployment', 'dep', 'dep-uid', 11);
const depRs = controller('ReplicaSet', 'dep-rs', 'dep-rs-uid', 7, {
  kind: 'Deployment',
  name: 'dep',
  uid: 'dep-uid',
});
const depPod = (n: string) => pod(n, { owner: { kind: 'ReplicaSet', name: 'dep-rs', uid: 'dep-rs-uid' } });
const rc11 = controller('ReplicationController', 'rc11', 'rc11-uid', 11);
const rc11Pod = (n: string) =>
  pod(n, { owner: { kind: 'ReplicationController', name: 'rc11', uid: 'rc11-uid', apiVersion: 'v1' } });

describe('budgetStatus', () => {
  it.each([
    // name, spec, pods, lookup, [disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods]
    ['no pods: minAvailable 3 cannot be met', { minAvailable: 3 }, [], none, [0, 0, 3, 0]],
    ['integer minAvailable 1 with one ready pod', { minAvailable: 1 }, [pod('p0')], none, [0, 1, 1, 1]],
    [
      'integer minAvailable 1 with two ready pods',
      { minAvailable: 1 },
      [pod('p0'), pod('p1')],
      none,
      [1, 2, 1, 2],
    ],
    [
      'integer minAvailable counts only ready pods',
      { minAvailable: 1 },
      [pod('p0'), pod('p1', { ready: false })],
      none,
      [0, 1, 1, 2],
    ],
    [
      'a pod being deleted is not healthy',
      { minAvailable: 1 },
      [pod('p0'), pod('p1', { deleting: true })],
      none,
      [0, 1, 1, 2],
    ],
    [
      'naked pod with a percentage: no scale, nothing allowed',
      { minAvailable: '28%' },
      [pod('p0')],
      none,
      [0, 1, 0, 0],
    ],
    [
      'ReplicaSet of 10, minAvailable 20%, one ready pod',
      { minAvailable: '20%' },
      [rsPod('p0')],
      lookupOf(rs10),
      [0, 1, 2, 10],
    ],
    [
      'ReplicaSet of 10, minAvailable 20%, three ready pods',
      { minAvailable: '20%' },
      [rsPod('p0'), rsPod('p1'), rsPod('p2')],
      lookupOf(rs10),
      [1, 3, 2, 10],
    ],
    [
      'RC of 3, minAvailable 34%, one ready',
      { minAvailable: '34%' },
      [rcPod('p0')],
      lookupOf(rc3),
      [0, 1, 2, 3],
    ],
    [
      'RC of 3, minAvailable 34%, two ready',
      { minAvailable: '34%' },
      [rcPod('p0'), rcPod('p1')],
      lookupOf(rc3),
      [0, 2, 2, 3],
    ],
    [
      'RC of 3, minAvailable 34%, three ready',
      { minAvailable: '34%' },
      [rcPod('p0'), rcPod('p1'), rcPod('p2')],
      lookupOf(rc3),
      [1, 3, 2, 3],
    ],
    [
      'RC of 3, one pod unready',
      { minAvailable: '34%' },
      [rcPod('p0'), rcPod('p1', false), rcPod('p2')],
      lookupOf(rc3),
      [0, 2, 2, 3],
    ],
    [
      'StatefulSet of 3, minAvailable 34%, three ready',
      { minAvailable: '34%' },
      [ssPod('p0'), ssPod('p1'), ssPod('p2')],
      lookupOf(ss3),
      [1, 3, 2, 3],
    ],
    [
      'StatefulSet of 3, maxUnavailable 1, three ready',
      { maxUnavailable: 1 },
      [ssPod('p0'), ssPod('p1'), ssPod('p2')],
      lookupOf(ss3),
      [1, 3, 2, 3],
    ],
    [
      'StatefulSet of 3, maxUnavailable 1, two ready',
      { maxUnavailable: 1 },
      [ssPod('p0'), ssPod('p1')],
      lookupOf(ss3),
      [0, 2, 2, 3],
    ],
    [
      'ReplicaSet of 10, maxUnavailable 30% rounds up to 3',
      { maxUnavailable: '30%' },
      Array.from({ length: 10 }, (_, i) => rsPod(`p${i}`)),
      lookupOf(rs10),
      [3, 10, 7, 10],
    ],
    [
      'ReplicaSet of 10, maxUnavailable 25% rounds up to 3',
      { maxUnavailable: '25%' },
      Array.from({ length: 9 }, (_, i) => rsPod(`p${i}`)),
      lookupOf(rs10),
      [2, 9, 7, 10],
    ],
    [
      'maxUnavailable larger than the scale: desired never below 0',
      { maxUnavailable: 20 },
      [rsPod('p0')],
      lookupOf(rs10),
      [1, 1, 0, 10],
    ],
    [
      'Deployment scale through its ReplicaSet',
      { minAvailable: '50%' },
      [depPod('p0'), depPod('p1')],
      lookupOf(dep, depRs),
      [0, 2, 6, 11],
    ],
    [
      'two controllers: RC of 11 and a Deployment of 11, 28% of 22',
      { minAvailable: '28%' },
      [
        ...Array.from({ length: 4 }, (_, i) => rc11Pod(`r${i}`)),
        ...Array.from({ length: 4 }, (_, i) => depPod(`d${i}`)),
      ],
      lookupOf(rc11, dep, depRs),
      [1, 8, 7, 22],
    ],
    [
      'naked pods under maxUnavailable: nothing expected, nothing allowed',
      { maxUnavailable: 1 },
      [pod('p0'), pod('p1')],
      none,
      [0, 2, 0, 0],
    ],
    [
      'minAvailable 0 allows every healthy pod',
      { minAvailable: 0 },
      [pod('p0'), pod('p1', { ready: false })],
      none,
      [1, 1, 0, 2],
    ],
    [
      'maxUnavailable 0%: no disruption at full health',
      { maxUnavailable: '0%' },
      [ssPod('p0'), ssPod('p1'), ssPod('p2')],
      lookupOf(ss3),
      [0, 3, 3, 3],
    ],
    [
      'minAvailable 100% of a StatefulSet of 3',
      { minAvailable: '100%' },
      [ssPod('p0'), ssPod('p1'), ssPod('p2')],
      lookupOf(ss3),
      [0, 3, 3, 3],
    ],
    [
      'more ready pods than the scale during a surge',
      { maxUnavailable: 1 },
      [ssPod('p0'), ssPod('p1'), ssPod('p2'), ssPod('p3')],
      lookupOf(ss3),
      [2, 4, 2, 3],
    ],
    [
      'a ReplicaSet whose Deployment is gone counts its own scale',
      { minAvailable: '50%' },
      [depPod('p0')],
      lookupOf(depRs),
      [0, 1, 4, 7],
    ],
    [
      'a pod whose controller is not found fails safe',
      { minAvailable: '50%' },
      [depPod('p0')],
      none,
      'SyncFailed',
    ],
  ] as const)('%s', (_name, spec, pods, lookup, want) => {
    const { status } = budgetStatus(budget(spec), pods as readonly KubeObject[], lookup, NOW);
    if (typeof want === 'string') {
      expect(status).toMatchObject({
        disruptionsAllowed: 0,
        conditions: [expect.objectContaining({ reason: want })],
      });
      return;
    }
    const [allowed, current, desired, expected] = want;
    expect(status).toMatchObject({
      disruptionsAllowed: allowed,
      currentHealthy: current,
      desiredHealthy: desired,
      expectedPods: expected,
      observedGeneration: 1,
    });
  });

  it.each([
    [1, 'True', 'SufficientPods'],
    [0, 'False', 'InsufficientPods'],
  ] as const)(
    'with %i disruptions allowed the DisruptionAllowed condition is %s (%s)',
    (allowed, status, reason) => {
      const pods = [pod('p0'), ...(allowed ? [pod('p1')] : [])];
      const out = budgetStatus(budget({ minAvailable: 1 }), pods, none, NOW);
      expect(out.status.conditions).toEqual([
        {
          type: 'DisruptionAllowed',
          status,
          reason,
          message: '',
          observedGeneration: 1,
          lastTransitionTime: iso(NOW),
        },
      ]);
    },
  );

  it('keeps lastTransitionTime while the condition status stays and moves it when the status flips', () => {
    const first = budgetStatus(budget({ minAvailable: 1 }), [pod('p0'), pod('p1')], none, NOW).status;
    const later = NOW + 60_000;
    const same = budgetStatus(
      budget({ minAvailable: 1 }, first),
      [pod('p0'), pod('p1'), pod('p2')],
      none,
      later,
    ).status;
    expect((same.conditions as { lastTransitionTime: string }[])[0]!.lastTransitionTime).toBe(iso(NOW));
    const flipped = budgetStatus(budget({ minAvailable: 1 }, first), [pod('p0')], none, later).status;
    expect((flipped.conditions as { lastTransitionTime: string }[])[0]).toMatchObject({
      status: 'False',
      lastTransitionTime: iso(later),
    });
  });

  it('drops disruptedPods entries of gone pods and of pods past the 2-minute timeout, and rechecks at the earliest expiry (TestUpdateDisruptedPods)', () => {
    const recent = iso(NOW - 30_000);
    const old = iso(NOW - DELETION_TIMEOUT_MS - 1000);
    const pdb = budget({ minAvailable: 1 }, { disruptedPods: { p1: recent, p2: recent, p3: old } });
    const out = budgetStatus(pdb, [pod('p1'), pod('p3')], none, NOW);
    expect(out.status.disruptedPods).toEqual({ p1: recent });
    // p1 was evicted moments ago: not healthy; p3's eviction never happened: healthy again
    expect(out.status).toMatchObject({ currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0 });
    expect(out.recheckAtMs).toBe(Date.parse(recent) + DELETION_TIMEOUT_MS);
  });

  it('removes disruptedPods once every entry is settled', () => {
    const pdb = budget({ minAvailable: 1 }, { disruptedPods: { p1: iso(NOW - 5000) } });
    const out = budgetStatus(pdb, [pod('p0'), pod('p1', { deleting: true })], none, NOW);
    expect(out.status.disruptedPods).toBeUndefined();
    expect(out.recheckAtMs).toBeUndefined();
  });

  it('fails safe when a pod names a controller that does not exist: no disruptions, SyncFailed', () => {
    const out = budgetStatus(
      budget({ maxUnavailable: 1 }, { disruptionsAllowed: 4 }, 3),
      [rsPod('p0')],
      none,
      NOW,
    );
    expect(out.status).toMatchObject({ disruptionsAllowed: 0, observedGeneration: 3 });
    expect(out.status.conditions).toEqual([
      expect.objectContaining({
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'SyncFailed',
        message: 'found no controllers for pod "p0"',
      }),
    ]);
    expect(out.events).toEqual([
      {
        type: 'Warning',
        reason: 'CalculateExpectedPodCountFailed',
        message: 'Failed to calculate the number of expected pods: found no controllers for pod "p0"',
      },
    ]);
  });

  it('fails safe on a percentage that does not parse', () => {
    const out = budgetStatus(budget({ minAvailable: 'half' }), [rsPod('p0')], lookupOf(rs10), NOW);
    expect(out.status).toMatchObject({ disruptionsAllowed: 0 });
    expect((out.status.conditions as { reason: string }[])[0]!.reason).toBe('SyncFailed');
  });

  it("a controller whose uid differs from the reference is not the pod's controller", () => {
    const impostor = controller('ReplicaSet', 'rs', 'other-uid', 10);
    const out = budgetStatus(budget({ minAvailable: '20%' }), [rsPod('p0')], lookupOf(impostor), NOW);
    expect((out.status.conditions as { reason: string }[])[0]!.reason).toBe('SyncFailed');
  });

  it('warns of no pods and of unmanaged pods as upstream does', () => {
    expect(budgetStatus(budget({ minAvailable: 1 }), [], none, NOW).events).toEqual([
      { type: 'Normal', reason: 'NoPods', message: 'No matching pods found' },
    ]);
    const naked = budgetStatus(budget({ maxUnavailable: '10%' }), [pod('p0')], none, NOW).events;
    expect(naked.map((e) => e.reason)).toEqual(['UnmanagedPods']);
  });
});
