// computePodActions: cases ported from kuberuntime_manager_test.go's TestComputePodActions, its init-container variant and TestComputePodActionsWithRestartableInitContainers.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { computePodActions, type ProbeLookup } from '../../../operators/kubelet/compute-pod-actions.ts';
import { containerHash } from '../../../operators/kubelet/container-hash.ts';
import type {
  RuntimeContainerStatus,
  RuntimePodStatus,
} from '../../../operators/kubelet/runtime-pod-status.ts';
import { pod, rc, runtime } from './builders.ts';

type Policy = 'Always' | 'OnFailure' | 'Never';
const threePod = (policy: Policy = 'Always', deleted = false) =>
  pod(['foo1', 'foo2', 'foo3'], { restartPolicy: policy, deleted });
const hashOf = (p: Pod, i: number) => containerHash(p.spec.containers[i] as never);
const allRunning = (p: Pod) =>
  runtime(['foo1', 'foo2', 'foo3'].map((n, i) => rc(n, 'running', { hash: hashOf(p, i) })));

interface Case {
  name: string;
  pod: Pod;
  status: (p: Pod) => RuntimePodStatus | undefined;
  probes?: (s: RuntimePodStatus | undefined) => ProbeLookup;
  expected: {
    killPod: boolean;
    createSandbox: boolean;
    attempt?: number;
    start: number[];
    kill: string[];
    /** spec.initContainers indexes to start, in order. */
    initStart?: number[];
  };
}

const cases: Case[] = [
  {
    name: 'everything runs: nothing to do',
    pod: threePod(),
    status: allRunning,
    expected: { killPod: false, createSandbox: false, start: [], kill: [] },
  },
  {
    name: 'no sandbox: create it and start every container',
    pod: threePod(),
    status: () => undefined,
    expected: { killPod: true, createSandbox: true, attempt: 0, start: [0, 1, 2], kill: [] },
  },
  {
    name: 'sandbox not ready: kill and recreate with the next attempt',
    pod: threePod(),
    status: (p) => ({
      ...allRunning(p),
      sandboxes: [{ id: 'sb1', ready: false, attempt: 0, createdAt: 0, ip: '' }],
    }),
    expected: { killPod: true, createSandbox: true, attempt: 1, start: [0, 1, 2], kill: [] },
  },
  {
    name: 'sandbox dead, Never, containers ran: no new sandbox',
    pod: threePod('Never'),
    status: (p) => ({
      ...allRunning(p),
      sandboxes: [{ id: 'sb1', ready: false, attempt: 0, createdAt: 0, ip: '' }],
    }),
    expected: { killPod: true, createSandbox: false, attempt: 1, start: [], kill: [] },
  },
  {
    name: 'sandbox dead, OnFailure: restart only the ones that did not succeed',
    pod: threePod('OnFailure'),
    status: () => ({
      ...runtime([
        rc('foo1', 'exited', { exitCode: 0 }),
        rc('foo2', 'exited', { exitCode: 1 }),
        rc('foo3', 'exited', { exitCode: 0 }),
      ]),
      sandboxes: [{ id: 'sb1', ready: false, attempt: 0, createdAt: 0, ip: '' }],
    }),
    expected: { killPod: true, createSandbox: true, attempt: 1, start: [1], kill: [] },
  },
  {
    name: 'sandbox dead, OnFailure, all succeeded: nothing to create',
    pod: threePod('OnFailure'),
    status: () => ({
      ...runtime(['foo1', 'foo2', 'foo3'].map((n) => rc(n, 'exited', { exitCode: 0 }))),
      sandboxes: [{ id: 'sb1', ready: false, attempt: 0, createdAt: 0, ip: '' }],
    }),
    expected: { killPod: true, createSandbox: false, attempt: 1, start: [], kill: [] },
  },
  {
    name: 'Always: restart exited containers',
    pod: threePod('Always'),
    status: (p) =>
      runtime([
        rc('foo1', 'running', { hash: hashOf(p, 0) }),
        rc('foo2', 'exited', { exitCode: 0 }),
        rc('foo3', 'exited', { exitCode: 1 }),
      ]),
    expected: { killPod: false, createSandbox: false, start: [1, 2], kill: [] },
  },
  {
    name: 'OnFailure: restart only the failed container',
    pod: threePod('OnFailure'),
    status: (p) =>
      runtime([
        rc('foo1', 'running', { hash: hashOf(p, 0) }),
        rc('foo2', 'exited', { exitCode: 0 }),
        rc('foo3', 'exited', { exitCode: 1 }),
      ]),
    expected: { killPod: false, createSandbox: false, start: [2], kill: [] },
  },
  {
    name: 'Never: restart nothing',
    pod: threePod('Never'),
    status: (p) =>
      runtime([
        rc('foo1', 'running', { hash: hashOf(p, 0) }),
        rc('foo2', 'exited', { exitCode: 0 }),
        rc('foo3', 'exited', { exitCode: 1 }),
      ]),
    expected: { killPod: false, createSandbox: false, start: [], kill: [] },
  },
  {
    name: 'Never, all exited: kill the pod',
    pod: threePod('Never'),
    status: () => runtime(['foo1', 'foo2', 'foo3'].map((n) => rc(n, 'exited', { exitCode: 0 }))),
    expected: { killPod: true, createSandbox: false, start: [], kill: [] },
  },
  {
    name: 'a changed definition is killed and restarted',
    pod: threePod('Never'),
    status: (p) =>
      runtime([
        rc('foo1', 'running', { hash: 'stale', id: 'c1' }),
        rc('foo2', 'running', { hash: hashOf(p, 1) }),
        rc('foo3', 'running', { hash: hashOf(p, 2) }),
      ]),
    expected: { killPod: false, createSandbox: false, start: [0], kill: ['c1'] },
  },
  {
    name: 'a failed liveness probe kills and restarts (Always)',
    pod: threePod('Always'),
    status: (p) =>
      runtime([
        rc('foo1', 'running', { hash: hashOf(p, 0), id: 'c1' }),
        rc('foo2', 'running', { hash: hashOf(p, 1) }),
        rc('foo3', 'running', { hash: hashOf(p, 2) }),
      ]),
    probes: () => ({ liveness: (id) => (id === 'c1' ? 'Failure' : 'Success') }),
    expected: { killPod: false, createSandbox: false, start: [0], kill: ['c1'] },
  },
  {
    name: 'a failed liveness probe kills without restart (Never)',
    pod: threePod('Never'),
    status: (p) =>
      runtime([
        rc('foo1', 'running', { hash: hashOf(p, 0), id: 'c1' }),
        rc('foo2', 'running', { hash: hashOf(p, 1) }),
        rc('foo3', 'running', { hash: hashOf(p, 2) }),
      ]),
    probes: () => ({ liveness: (id) => (id === 'c1' ? 'Failure' : undefined) }),
    expected: { killPod: false, createSandbox: false, start: [], kill: ['c1'] },
  },
  {
    name: 'a failed startup probe kills and restarts',
    pod: threePod('Always'),
    status: (p) =>
      runtime([
        rc('foo1', 'running', { hash: hashOf(p, 0), id: 'c1' }),
        rc('foo2', 'running', { hash: hashOf(p, 1) }),
        rc('foo3', 'running', { hash: hashOf(p, 2) }),
      ]),
    probes: () => ({ startup: (id) => (id === 'c1' ? 'Failure' : undefined) }),
    expected: { killPod: false, createSandbox: false, start: [0], kill: ['c1'] },
  },
  {
    name: 'an unknown container is killed before it restarts',
    pod: threePod('Always'),
    status: (p) =>
      runtime([
        rc('foo1', 'unknown', { id: 'c1' }),
        rc('foo2', 'running', { hash: hashOf(p, 1) }),
        rc('foo3', 'running', { hash: hashOf(p, 2) }),
      ]),
    expected: { killPod: false, createSandbox: false, start: [0], kill: ['c1'] },
  },
  {
    name: 'a pod being deleted restarts nothing and is killed',
    pod: threePod('Always', true),
    status: () => runtime(['foo1', 'foo2', 'foo3'].map((n) => rc(n, 'exited', { exitCode: 1 }))),
    expected: { killPod: true, createSandbox: false, start: [], kill: [] },
  },
];

const initPod = (policy: Policy) =>
  pod(['foo1', 'foo2'], { inits: ['init1', 'init2'], restartPolicy: policy });
const initCases: Case[] = [
  {
    name: 'init: no sandbox → the first init container',
    pod: initPod('Always'),
    status: () => undefined,
    expected: { killPod: true, createSandbox: true, attempt: 0, start: [], kill: [], initStart: [0] },
  },
  {
    name: 'init: first running → wait',
    pod: initPod('Always'),
    status: () => runtime([rc('init1', 'running')]),
    expected: { killPod: false, createSandbox: false, start: [], kill: [] },
  },
  {
    name: 'init: first done → the second',
    pod: initPod('Always'),
    status: () => runtime([rc('init1', 'exited', { exitCode: 0 })]),
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [1] },
  },
  {
    name: 'init: all done → app containers',
    pod: initPod('Always'),
    status: () => runtime([rc('init2', 'exited', { exitCode: 0 }), rc('init1', 'exited', { exitCode: 0 })]),
    expected: { killPod: false, createSandbox: false, start: [0, 1], kill: [] },
  },
  {
    name: 'init: failed, Always → retry it',
    pod: initPod('Always'),
    status: () => runtime([rc('init1', 'exited', { exitCode: 1 })]),
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [0] },
  },
  {
    name: 'init: failed, Never → kill the pod',
    pod: initPod('Never'),
    status: () => runtime([rc('init1', 'exited', { exitCode: 1 })]),
    expected: { killPod: true, createSandbox: false, start: [], kill: [] },
  },
  {
    name: 'init: unknown → kill it and retry',
    pod: initPod('Always'),
    status: () => runtime([rc('init1', 'unknown', { id: 'i1' })]),
    expected: { killPod: false, createSandbox: false, start: [], kill: ['i1'], initStart: [0] },
  },
  {
    name: 'init: an app container runs → init is done',
    pod: initPod('Always'),
    status: (p) =>
      runtime([rc('foo1', 'running', { hash: hashOf(p, 0) }), rc('foo2', 'running', { hash: hashOf(p, 1) })]),
    expected: { killPod: false, createSandbox: false, start: [], kill: [] },
  },
];

// three sidecars (restartPolicy Always); the second and third have liveness and startup probes that succeeded
const sidecarPod = (policy: Policy) =>
  pod(['foo1', 'foo2', 'foo3'], {
    restartPolicy: policy,
    inits: [
      { name: 'sidecar-1', image: 'bar', restartPolicy: 'Always' },
      { name: 'sidecar-2', image: 'bar', restartPolicy: 'Always', livenessProbe: {}, startupProbe: {} },
      { name: 'sidecar-3', image: 'bar', restartPolicy: 'Always', livenessProbe: {}, startupProbe: {} },
    ],
  });
const sidecarHash = (p: Pod, i: number) => containerHash((p.spec.initContainers ?? [])[i] as never);
type SidecarState = [RuntimeContainerStatus['state'], number?] | undefined;
/** Runtime status: each sidecar's state (undefined: no record), then the app containers'. */
const sidecarStatus =
  (
    sidecars: SidecarState[],
    apps: ('running' | 'succeeded')[] = [],
    sandbox: 'ready' | 'notready' = 'ready',
  ) =>
  (p: Pod) =>
    runtime(
      [
        ...sidecars.flatMap((st, i) =>
          st
            ? [rc(`sidecar-${i + 1}`, st[0], { id: `s${i + 1}`, hash: sidecarHash(p, i), exitCode: st[1] })]
            : [],
        ),
        ...apps.map((a, i) =>
          rc(`foo${i + 1}`, a === 'running' ? 'running' : 'exited', {
            hash: hashOf(p, i),
            ...(a === 'succeeded' ? { exitCode: 0 } : {}),
          }),
        ),
      ],
      sandbox,
    );
const probesOk: Case['probes'] = () => ({
  liveness: (id) => (id === 's2' || id === 's3' ? 'Success' : undefined),
  startup: (id) => (id === 's2' || id === 's3' ? 'Success' : undefined),
});
const running3: SidecarState[] = [['running'], ['running'], ['running']];
const sidecarCases: Case[] = [
  {
    name: 'sidecars: initialization completed → start every app container',
    pod: sidecarPod('Always'),
    status: sidecarStatus(running3),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [0, 1, 2], kill: [] },
  },
  {
    name: 'sidecars: none started → the first',
    pod: sidecarPod('Always'),
    status: sidecarStatus([]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [0] },
  },
  {
    name: 'sidecars: one stuck in created → start it again',
    pod: sidecarPod('Always'),
    status: sidecarStatus([['running'], ['running'], ['created']]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [2] },
  },
  {
    name: 'sidecars: the first has started → the next',
    pod: sidecarPod('Always'),
    status: sidecarStatus([['running']]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [1] },
  },
  {
    name: 'sidecars: liveness not run yet does not hold back the next',
    pod: sidecarPod('Always'),
    status: sidecarStatus([['running'], ['running']]),
    probes: () => ({ startup: (id) => (id === 's2' ? 'Success' : undefined) }),
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [2] },
  },
  {
    name: 'sidecars: a failed liveness probe kills and restarts the sidecar, apps start',
    pod: sidecarPod('Always'),
    status: sidecarStatus(running3),
    probes: () => ({
      liveness: (id) => (id === 's3' ? 'Failure' : 'Success'),
      startup: (id) => (id === 's2' || id === 's3' ? 'Success' : undefined),
    }),
    expected: { killPod: false, createSandbox: false, start: [0, 1, 2], kill: ['s3'], initStart: [2] },
  },
  {
    name: 'sidecars: startup probe not run yet → wait',
    pod: sidecarPod('Always'),
    status: sidecarStatus([['running'], ['running']]),
    probes: () => ({}),
    expected: { killPod: false, createSandbox: false, start: [], kill: [] },
  },
  {
    name: 'sidecars: startup probe succeeded → the next',
    pod: sidecarPod('Always'),
    status: sidecarStatus([['running'], ['running']]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [2] },
  },
  {
    name: 'sidecars: a failed startup probe kills and restarts the sidecar',
    pod: sidecarPod('Always'),
    status: sidecarStatus(running3),
    probes: () => ({ startup: (id) => (id === 's3' ? 'Failure' : 'Success') }),
    expected: { killPod: false, createSandbox: false, start: [], kill: ['s3'], initStart: [2] },
  },
  {
    name: 'sidecars: a changed definition kills and restarts the sidecar, apps start',
    pod: sidecarPod('Always'),
    status: (p) => {
      const s = sidecarStatus(running3)(p);
      const third = s.containers.find((c) => c.name === 'sidecar-3');
      if (third) third.hash = 'stale';
      return s;
    },
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [0, 1, 2], kill: ['s3'], initStart: [2] },
  },
  {
    name: 'sidecars: exited sidecar and the next init container are both started',
    pod: sidecarPod('Always'),
    status: sidecarStatus([['exited', 0], ['running'], ['exited', 0]]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [0, 2] },
  },
  {
    name: 'sidecars: an exited sidecar restarts beside the app containers',
    pod: sidecarPod('Always'),
    status: sidecarStatus([['exited', 0], ['running'], ['running']]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [0, 1, 2], kill: [], initStart: [0] },
  },
  {
    name: 'sidecars: sandbox dead, a sidecar failed, Never → kill the pod only',
    pod: sidecarPod('Never'),
    status: sidecarStatus([['running'], ['running'], ['exited', 137]], [], 'notready'),
    probes: probesOk,
    expected: { killPod: true, createSandbox: false, attempt: 1, start: [], kill: [] },
  },
  {
    name: 'sidecars: sandbox dead, Never, nothing ran → a new sandbox from the first init container',
    pod: sidecarPod('Never'),
    status: sidecarStatus([], [], 'notready'),
    expected: { killPod: true, createSandbox: true, attempt: 1, start: [], kill: [], initStart: [0] },
  },
  ...(['OnFailure', 'Always'] as const).map(
    (policy): Case => ({
      name: `sidecars: sandbox dead, a sidecar failed, ${policy} → a new sandbox`,
      pod: sidecarPod(policy),
      status: sidecarStatus([['running'], ['running'], ['exited', 137]], [], 'notready'),
      probes: probesOk,
      expected: { killPod: true, createSandbox: true, attempt: 1, start: [], kill: [], initStart: [0] },
    }),
  ),
  {
    name: 'sidecars: a failed sidecar restarts even under Never',
    pod: sidecarPod('Never'),
    status: sidecarStatus([['running'], ['running'], ['exited', 137]]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [2] },
  },
  {
    name: 'sidecars: an unknown sidecar is killed and restarted even under Never',
    pod: sidecarPod('Never'),
    status: sidecarStatus([['running'], ['running'], ['unknown']]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: ['s3'], initStart: [2] },
  },
  {
    name: 'sidecars: a failed sidecar restarts while the apps run, Never',
    pod: sidecarPod('Never'),
    status: sidecarStatus([['running'], ['running'], ['exited', 137]], ['running', 'running', 'running']),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [], kill: [], initStart: [2] },
  },
  {
    name: 'sidecars: every app container succeeded, Never → kill the pod, restart no sidecar',
    pod: sidecarPod('Never'),
    status: sidecarStatus(running3, ['succeeded', 'succeeded', 'succeeded']),
    probes: probesOk,
    expected: { killPod: true, createSandbox: false, start: [], kill: [] },
  },
  {
    name: 'sidecars: earlier records gone, the last runs → restart the others and the apps',
    pod: sidecarPod('Always'),
    status: sidecarStatus([undefined, undefined, ['running']]),
    probes: probesOk,
    expected: { killPod: false, createSandbox: false, start: [0, 1, 2], kill: [], initStart: [0, 1] },
  },
];

describe('computePodActions', () => {
  it.each([...cases, ...initCases, ...sidecarCases])('$name', ({ pod: p, status, probes, expected }) => {
    const s = status(p);
    const actions = computePodActions(p, s, probes?.(s));
    expect({
      killPod: actions.killPod,
      createSandbox: actions.createSandbox,
      start: actions.containersToStart,
      kill: [...actions.containersToKill.keys()],
      ...(expected.attempt !== undefined ? { attempt: actions.attempt } : {}),
      ...(expected.initStart !== undefined || actions.initContainersToStart.length > 0
        ? { initStart: actions.initContainersToStart }
        : {}),
    }).toEqual(expected);
  });

  it('says why it kills: definition changed, will be restarted', () => {
    const p = threePod('Always');
    const s = runtime([
      rc('foo1', 'running', { hash: 'stale', id: 'c1' }),
      rc('foo2', 'running', { hash: hashOf(p, 1) }),
      rc('foo3', 'running', { hash: hashOf(p, 2) }),
    ]);
    expect(computePodActions(p, s).containersToKill.get('c1')?.message).toBe(
      'Container foo1 definition changed, will be restarted',
    );
  });
});

describe('computePodActions: what it says when it kills a sidecar', () => {
  it.each<[string, SidecarState[], Case['probes'], string]>([
    [
      'unknown state',
      [['running'], ['running'], ['unknown']],
      probesOk,
      'Init container is in "unknown" state, try killing it before restart',
    ],
    [
      'failed startup probe',
      running3,
      () => ({ startup: (id) => (id === 's3' ? 'Failure' : 'Success') }),
      'Init container sidecar-3 failed startup probe',
    ],
    [
      'failed liveness probe',
      running3,
      () => ({ liveness: (id) => (id === 's3' ? 'Failure' : 'Success'), startup: () => 'Success' }),
      'Init container sidecar-3 failed liveness probe',
    ],
  ])('%s', (_name, sidecars, probes, message) => {
    const p = sidecarPod('Always');
    const s = sidecarStatus(sidecars)(p);
    expect(computePodActions(p, s, probes?.(s)).containersToKill.get('s3')?.message).toBe(message);
  });

  it('an app container in unknown state says so in quotes', () => {
    const p = threePod('Always');
    const s = runtime([
      rc('foo1', 'unknown', { id: 'c1' }),
      rc('foo2', 'running', { hash: hashOf(p, 1) }),
      rc('foo3', 'running', { hash: hashOf(p, 2) }),
    ]);
    expect(computePodActions(p, s).containersToKill.get('c1')).toMatchObject({
      message: 'Container is in "unknown" state, try killing it before restart',
      reason: 'Unknown',
    });
  });
});
