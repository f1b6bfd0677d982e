// computePodActions: cases ported from kuberuntime_manager_test.go's TestComputePodActions and its init-container variant.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { computePodActions, type ProbeLookup } from '../../../operators/kubelet/compute-pod-actions.ts';
import { containerHash } from '../../../operators/kubelet/container-hash.ts';
import type { RuntimePodStatus } from '../../../operators/kubelet/runtime-pod-status.ts';
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
    nextInit?: number;
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
    expected: { killPod: true, createSandbox: true, attempt: 0, start: [], kill: [], nextInit: 0 },
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
    expected: { killPod: false, createSandbox: false, start: [], kill: [], nextInit: 1 },
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
    expected: { killPod: false, createSandbox: false, start: [], kill: [], nextInit: 0 },
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
    expected: { killPod: false, createSandbox: false, start: [], kill: ['i1'], nextInit: 0 },
  },
  {
    name: 'init: an app container runs → init is done',
    pod: initPod('Always'),
    status: (p) =>
      runtime([rc('foo1', 'running', { hash: hashOf(p, 0) }), rc('foo2', 'running', { hash: hashOf(p, 1) })]),
    expected: { killPod: false, createSandbox: false, start: [], kill: [] },
  },
];

describe('computePodActions', () => {
  it.each([...cases, ...initCases])('$name', ({ pod: p, status, probes, expected }) => {
    const s = status(p);
    const actions = computePodActions(p, s, probes?.(s));
    expect({
      killPod: actions.killPod,
      createSandbox: actions.createSandbox,
      start: actions.containersToStart,
      kill: [...actions.containersToKill.keys()],
      ...(expected.attempt !== undefined ? { attempt: actions.attempt } : {}),
      ...(expected.nextInit !== undefined || actions.nextInitContainerToStart !== undefined
        ? { nextInit: actions.nextInitContainerToStart }
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
