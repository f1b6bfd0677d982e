// Tests: planDeploymentSync's branches (upstream's deployment_controller_test, sync_test, recreate_test and rolling scenarios), in our words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  collisionStatus,
  planDeploymentSync,
  replicaSetCreateFailed,
} from '../../../../operators/controller/deployment/deployment-sync.ts';
import type { Deployment } from '../../../../operators/controller/deployment/deployment-types.ts';
import { oldPodsRunning } from '../../../../operators/controller/deployment/old-pods-running.ts';
import { podTemplateHash } from '../../../../operators/controller/deployment/pod-template-hash.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { newDeployment, rs } from './fixtures.ts';

const NOW = Date.UTC(2026, 0, 1);
/** A set of `d` (its template, hash label, controller reference) with `replicas`, `available` of them available. */
const ownedSet = (
  d: Deployment,
  name: string,
  replicas: number,
  available: number,
  revision: string,
  template = d.spec.template,
) => {
  const out = rs(
    name,
    replicas,
    revision === '1' ? 1 : 2,
    { replicas, readyReplicas: available, availableReplicas: available },
    structuredClone(template),
  );
  out.metadata.ownerReferences = [
    { apiVersion: 'apps/v1', kind: 'Deployment', name: 'foo', uid: 'uid-foo', controller: true },
  ];
  out.metadata.annotations = {
    'deployment.kubernetes.io/revision': revision,
    'deployment.kubernetes.io/desired-replicas': String(d.spec.replicas),
  };
  return out;
};
const otherTemplate = {
  metadata: { labels: { foo: 'bar' } },
  spec: { containers: [{ name: 'c', image: 'nginx:old' }] },
};
const sizes = (writes: ReturnType<typeof planDeploymentSync>['writes']) =>
  writes.map(
    (w) =>
      `${w.type} ${w.replicaSet.metadata.name}${w.type === 'delete' ? '' : ` ${w.replicaSet.spec.replicas}`}`,
  );

describe('planDeploymentSync', () => {
  it('creates the first ReplicaSet at full size with the hash label, controller reference and annotations', () => {
    const d = newDeployment(3, { maxSurge: 1, progressDeadlineSeconds: 600 });
    const plan = planDeploymentSync({ deployment: d, replicaSets: [], now: NOW });
    const hash = podTemplateHash(d.spec.template, undefined);
    expect(plan.path).toBe('rolling');
    expect(plan.writes).toHaveLength(1);
    const [w] = plan.writes;
    expect(w).toMatchObject({
      type: 'create',
      event: {
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        message: `Scaled up replica set foo-${hash} from 0 to 3`,
      },
    });
    expect(w!.replicaSet).toMatchObject({
      metadata: {
        name: `foo-${hash}`,
        labels: { foo: 'bar', 'pod-template-hash': hash },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'foo',
            uid: 'uid-foo',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        annotations: {
          'deployment.kubernetes.io/revision': '1',
          'deployment.kubernetes.io/desired-replicas': '3',
          'deployment.kubernetes.io/max-replicas': '4',
        },
      },
      spec: {
        replicas: 3,
        selector: { matchLabels: { foo: 'bar', 'pod-template-hash': hash } },
        template: { metadata: { labels: { foo: 'bar', 'pod-template-hash': hash } } },
      },
    });
    expect(plan.revision).toBe('1');
    expect(plan.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "foo-${hash}"`],
      ['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
    ]);
  });

  it('notes an existing new set with FoundNewReplicaSet when there is no Progressing condition yet', () => {
    const d = newDeployment(2, { progressDeadlineSeconds: 600 });
    const cur = ownedSet(d, 'foo-cur', 2, 0, '1');
    cur.metadata.annotations!['deployment.kubernetes.io/max-replicas'] = '2';
    // counts already recorded: nothing progressed since
    d.status = {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 0,
      availableReplicas: 0,
    };
    const plan = planDeploymentSync({ deployment: d, replicaSets: [cur], now: NOW });
    expect(plan.writes).toEqual([]);
    expect(plan.revision).toBe('1');
    expect(plan.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'FoundNewReplicaSet',
      message: 'Found new replica set "foo-cur"',
    });
  });

  it('hashes with the collision count into another name', () => {
    const d = newDeployment(1);
    d.status = collisionStatus(d);
    expect(d.status.collisionCount).toBe(1);
    const plan = planDeploymentSync({ deployment: d, replicaSets: [], now: NOW });
    expect(plan.writes[0]!.replicaSet.metadata.name).toBe(`foo-${podTemplateHash(d.spec.template, 1)}`);
  });

  it('on a template change grows the new set within maxSurge, then shrinks the old within maxUnavailable', () => {
    const d = newDeployment(4, { maxSurge: 1, maxUnavailable: 1 });
    const old = ownedSet(d, 'foo-old', 4, 4, '1', otherTemplate);
    const first = planDeploymentSync({ deployment: d, replicaSets: [old], now: NOW });
    // create the new set with 1 (surge), then in the same sync scale the old one down by 1 (unavailable)
    expect(sizes(first.writes)).toEqual([
      `create foo-${podTemplateHash(d.spec.template, undefined)} 1`,
      'update foo-old 3',
    ]);
    expect(first.revision).toBe('2');
    expect(first.writes[1]).toMatchObject({
      event: { message: 'Scaled down replica set foo-old from 4 to 3' },
    });
  });

  it('does not shrink old sets while the new set unavailable pods use the budget', () => {
    const d = newDeployment(10, { maxUnavailable: 2 });
    const old = ownedSet(d, 'foo-old', 8, 8, '1', otherTemplate);
    const cur = ownedSet(d, 'foo-new', 2, 0, '2');
    expect(planDeploymentSync({ deployment: d, replicaSets: [old, cur], now: NOW }).writes).toEqual([]);
  });

  it.each([
    ['unavailable 0 (fencepost 1): old 10 → 9', 0, 10, 9],
    ['unavailable 2: old 10 → 8', 2, 10, 8],
    ['unavailable 2, 8 of 10 available: the unhealthy two go', 2, 8, 8],
    ['unavailable 2, 9 of 10 available: one unhealthy, one healthy', 2, 9, 8],
  ])('reconcileOldReplicaSets: %s', (_name, mu, available, want) => {
    const d = newDeployment(10, { maxUnavailable: mu });
    const old = ownedSet(d, 'foo-old', 10, available, '1', otherTemplate);
    const cur = ownedSet(d, 'foo-new', 0, 0, '2');
    const plan = planDeploymentSync({ deployment: d, replicaSets: [old, cur], now: NOW });
    const last = plan.writes.filter((w) => w.replicaSet.metadata.name === 'foo-old').at(-1);
    expect(last?.replicaSet.spec.replicas).toBe(want);
  });

  it('a template change back to an old set reuses it as new at the next revision', () => {
    const d = newDeployment(3, { maxSurge: 1 });
    const back = ownedSet(d, 'foo-first', 0, 0, '1');
    const current = ownedSet(d, 'foo-second', 3, 3, '2', otherTemplate);
    const plan = planDeploymentSync({ deployment: d, replicaSets: [back, current], now: NOW });
    // first the annotations (revision 3, history 1); the next sync sets the Deployment revision and scales
    expect(plan.writes.map((w) => w.type)).toContain('update');
    expect(plan.writes[0]!.replicaSet.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/revision-history': '1',
    });
    expect(plan.writes.some((w) => w.type === 'create')).toBe(false);
  });

  it('a paused Deployment only scales: no new set for a changed template, a DeploymentPaused condition', () => {
    const d = newDeployment(5, { progressDeadlineSeconds: 600 });
    d.spec.paused = true;
    const old = ownedSet(d, 'foo-old', 3, 3, '1', otherTemplate);
    old.metadata.annotations!['deployment.kubernetes.io/desired-replicas'] = '3';
    const plan = planDeploymentSync({ deployment: d, replicaSets: [old], now: NOW });
    expect(plan.path).toBe('sync');
    expect(sizes(plan.writes)).toEqual(['update foo-old 5']);
    expect(plan.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
    });
  });

  it('a scaling event scales proportionally instead of rolling', () => {
    const d = newDeployment(10);
    const old = ownedSet(d, 'foo-old', 3, 3, '1', otherTemplate);
    const cur = ownedSet(d, 'foo-new', 2, 2, '2');
    for (const s of [old, cur]) {
      s.metadata.annotations!['deployment.kubernetes.io/desired-replicas'] = '5';
      s.metadata.annotations!['deployment.kubernetes.io/max-replicas'] = '5';
    }
    const plan = planDeploymentSync({ deployment: d, replicaSets: [old, cur], now: NOW });
    expect(plan.path).toBe('sync');
    expect(sizes(plan.writes)).toEqual(['update foo-old 6', 'update foo-new 4']);
  });

  it('an empty selector: a SelectingAll Warning and the generation observed, nothing else', () => {
    const d = newDeployment(3);
    d.spec.selector = {};
    d.metadata.generation = 4;
    const plan = planDeploymentSync({ deployment: d, replicaSets: [], now: NOW });
    expect(plan).toMatchObject({
      path: 'selectingAll',
      writes: [],
      events: [
        {
          type: 'Warning',
          reason: 'SelectingAll',
          message: 'This deployment is selecting all pods. A non-empty selector is required.',
        },
      ],
      status: { observedGeneration: 4 },
    });
  });

  it('a Deployment being deleted only gets its status', () => {
    const d = newDeployment(3);
    d.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    const cur = ownedSet(d, 'foo-new', 3, 3, '1');
    const plan = planDeploymentSync({ deployment: d, replicaSets: [cur], now: NOW });
    expect(plan.path).toBe('statusOnly');
    expect(plan.writes).toEqual([]);
    expect(plan.status).toMatchObject({ replicas: 3, availableReplicas: 3 });
  });

  it('cleans up history once the rollout is complete', () => {
    const d = newDeployment(2, { revisionHistoryLimit: 1 });
    d.status = { replicas: 2, updatedReplicas: 2, availableReplicas: 2, observedGeneration: 1 };
    const a = ownedSet(d, 'foo-a', 0, 0, '1', otherTemplate);
    const b = ownedSet(d, 'foo-b', 0, 0, '2', {
      ...otherTemplate,
      metadata: { labels: { foo: 'bar', x: 'y' } },
    });
    const cur = ownedSet(d, 'foo-new', 2, 2, '3');
    const plan = planDeploymentSync({ deployment: d, replicaSets: [a, b, cur], now: NOW });
    expect(sizes(plan.writes)).toEqual(['delete foo-a']);
  });

  it('asks to look again when the progress deadline will be reached', () => {
    const d = newDeployment(3, { progressDeadlineSeconds: 60 });
    const cur = ownedSet(d, 'foo-new', 3, 1, '1');
    d.metadata.annotations = { 'deployment.kubernetes.io/revision': '1' };
    d.status = {
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 1,
      availableReplicas: 1,
      unavailableReplicas: 2,
    };
    const first = planDeploymentSync({ deployment: d, replicaSets: [cur], now: NOW });
    d.status = first.status!;
    const again = planDeploymentSync({ deployment: d, replicaSets: [cur], now: NOW + 20_000 });
    expect(again.status).toBeUndefined();
    expect(again.requeueAfter).toBe(41_000);
  });

  it('an unknown strategy is the sync error', () => {
    const d = newDeployment(1);
    d.spec.strategy = { type: 'Blue' };
    expect(planDeploymentSync({ deployment: d, replicaSets: [], now: NOW }).error).toBe(
      'unexpected deployment strategy type: Blue',
    );
  });

  it('a failed create: Progressing False ReplicaSetCreateError (with a deadline) and a Warning', () => {
    const d = newDeployment(1, { progressDeadlineSeconds: 600 });
    const r = replicaSetCreateFailed(d, 'foo-abc', 'quota exceeded', NOW);
    expect(r.event).toEqual({
      type: 'Warning',
      reason: 'ReplicaSetCreateError',
      message: 'Failed to create new replica set "foo-abc": quota exceeded',
    });
    expect(r.status?.conditions?.[0]).toMatchObject({
      type: 'Progressing',
      status: 'False',
      reason: 'ReplicaSetCreateError',
    });
    expect(replicaSetCreateFailed(newDeployment(1), 'x', 'e', NOW).status).toBeUndefined();
  });
});

describe('Recreate', () => {
  const pod = (owner: string, phase: string): Pod =>
    ({
      metadata: {
        name: `${owner}-p`,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: `uid-${owner}`, controller: true },
        ],
      },
      spec: { containers: [] },
      status: { phase },
    }) as Pod;

  it('scales the old sets to 0 first and creates nothing yet', () => {
    const d = newDeployment(3, { strategy: 'Recreate' });
    const old = ownedSet(d, 'foo-old', 3, 3, '1', otherTemplate);
    const plan = planDeploymentSync({
      deployment: d,
      replicaSets: [old],
      pods: [pod('foo-old', 'Running')],
      now: NOW,
    });
    expect(plan.path).toBe('recreate');
    expect(sizes(plan.writes)).toEqual(['update foo-old 0']);
  });

  it('waits while an old pod still runs', () => {
    const d = newDeployment(3, { strategy: 'Recreate' });
    const old = ownedSet(d, 'foo-old', 0, 0, '1', otherTemplate);
    old.status = { replicas: 0 };
    const plan = planDeploymentSync({
      deployment: d,
      replicaSets: [old],
      pods: [pod('foo-old', 'Running')],
      now: NOW,
    });
    expect(plan.writes).toEqual([]);
  });

  it('creates the new set at full size once the old pods are gone', () => {
    const d = newDeployment(3, { strategy: 'Recreate' });
    const old = ownedSet(d, 'foo-old', 0, 0, '1', otherTemplate);
    old.status = { replicas: 0 };
    const plan = planDeploymentSync({
      deployment: d,
      replicaSets: [old],
      pods: [pod('foo-old', 'Succeeded')],
      now: NOW,
    });
    expect(plan.writes.map((w) => [w.type, w.replicaSet.spec.replicas])).toEqual([['create', 3]]);
  });

  it.each([
    ['no pods', undefined, [], [], false],
    ['an old set still counts replicas', 'new', [['old', 1]], [], true],
    ['a running old pod', 'new', [['old', 0]], [['old', 'Running']], true],
    ['a pending old pod', 'new', [['old', 0]], [['old', 'Pending']], true],
    ['an Unknown old pod counts as running', 'new', [['old', 0]], [['old', 'Unknown']], true],
    [
      'old pods finished',
      'new',
      [['old', 0]],
      [
        ['old', 'Failed'],
        ['old', 'Succeeded'],
      ],
      false,
    ],
    ['only the new set pods run', 'new', [['old', 0]], [['new', 'Running']], false],
  ] as const)('oldPodsRunning: %s → %s', (_name, newName, olds, pods, want) => {
    const newRS: ReplicaSet | undefined = newName ? rs(newName, 1) : undefined;
    const oldRSs = olds.map(([n, r]) => rs(n, 0, 0, { replicas: r }));
    expect(
      oldPodsRunning(
        newRS,
        oldRSs,
        pods.map(([o, p]) => pod(o, p)),
      ),
    ).toBe(want);
  });
});
