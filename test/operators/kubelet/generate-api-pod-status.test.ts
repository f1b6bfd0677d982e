// generateApiPodStatus: container states, CrashLoopBackOff waiting, phase, conditions and IPs from the runtime's view.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { generateApiPodStatus } from '../../../operators/kubelet/generate-api-pod-status.ts';
import { pod, rc, runtime } from './builders.ts';

const NOW = '2026-11-24T00:00:00.000Z';
const base = (p: Pod, r = runtime([]), extra = {}) =>
  generateApiPodStatus({
    pod: p,
    runtime: r,
    runtimeName: 'process',
    podIsTerminal: false,
    hostIP: '192.168.1.2',
    now: NOW,
    ...extra,
  });

describe('generateApiPodStatus', () => {
  it('a pod with no containers yet is Pending with ContainerCreating and PodScheduled added', () => {
    const status = base(pod(['a']), runtime([], false));
    expect(status.phase).toBe('Pending');
    expect(status.containerStatuses?.[0]?.state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(status.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['PodScheduled', 'True'],
      ['PodReadyToStartContainers', 'False'],
      ['Initialized', 'True'],
      ['Ready', 'False'],
      ['ContainersReady', 'False'],
    ]);
    expect(status.startTime).toBe(NOW);
    expect(status.hostIP).toBe('192.168.1.2');
  });

  it('app containers of a pod with init containers wait with PodInitializing', () => {
    const status = base(pod(['a'], { inits: ['i'] }), runtime([rc('i', 'running', { startedAt: 5 })]));
    expect(status.containerStatuses?.[0]?.state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(status.initContainerStatuses?.[0]?.state?.running).toBeDefined();
  });

  it('a running container is ready without a readiness probe and carries its id, image and restart count', () => {
    const status = base(pod(['a']), runtime([rc('a', 'running', { id: 'x1', attempt: 2, startedAt: 0 })]));
    expect(status.phase).toBe('Running');
    expect(status.containerStatuses?.[0]).toMatchObject({
      ready: true,
      started: true,
      restartCount: 2,
      containerID: 'process://x1',
      imageID: 'busybox',
    });
    expect(status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(status.podIP).toBe('10.0.0.1');
  });

  it('readiness follows the probe result', () => {
    const p = pod([{ name: 'a', image: 'busybox', readinessProbe: { exec: { command: ['true'] } } }]);
    const r = runtime([rc('a', 'running', { id: 'x1' })]);
    expect(base(p, r).containerStatuses?.[0]?.ready).toBe(false);
    expect(base(p, r, { readiness: () => true }).containerStatuses?.[0]?.ready).toBe(true);
  });

  it('an exit 3 under Never is Failed with exit code 3, reason Error', () => {
    const status = base(
      pod(['a'], { restartPolicy: 'Never' }),
      runtime([rc('a', 'exited', { id: 'x1', exitCode: 3, startedAt: 0, finishedAt: 1000 })]),
    );
    expect(status.phase).toBe('Failed');
    expect(status.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
      containerID: 'process://x1',
    });
  });

  it('an exit 0 under Never is Succeeded with reason Completed', () => {
    const status = base(
      pod(['a'], { restartPolicy: 'Never' }),
      runtime([rc('a', 'exited', { exitCode: 0 })]),
    );
    expect(status.phase).toBe('Succeeded');
    expect(status.containerStatuses?.[0]?.state?.terminated?.reason).toBe('Completed');
  });

  it('a crashing container in backoff waits with CrashLoopBackOff and keeps its last termination', () => {
    const reasons = new Map([
      [
        'a',
        {
          reason: 'CrashLoopBackOff',
          message: 'back-off 10s restarting failed container=a pod=foo_new(12345678)',
        },
      ],
    ]);
    const status = base(
      pod(['a']),
      runtime([rc('a', 'exited', { exitCode: 1, attempt: 1 }), rc('a', 'exited', { exitCode: 1 })]),
      { waitingReasons: reasons },
    );
    expect(status.containerStatuses?.[0]?.state).toEqual({ waiting: reasons.get('a') });
    expect(status.containerStatuses?.[0]?.lastState?.terminated?.exitCode).toBe(1);
    expect(status.containerStatuses?.[0]?.restartCount).toBe(1);
    expect(status.phase).toBe('Running');
  });

  it('never moves back from a terminal phase, and keeps its reason', () => {
    const p = pod(['a']);
    const status = base(p, runtime([rc('a', 'running')]), {
      oldStatus: { phase: 'Failed', reason: 'OutOfcpu', message: 'Pod was rejected: x' },
    });
    expect(status).toMatchObject({ phase: 'Failed', reason: 'OutOfcpu', message: 'Pod was rejected: x' });
  });

  it('keeps transition times of unchanged conditions and conditions it does not own', () => {
    const old = {
      conditions: [
        { type: 'PodScheduled', status: 'True' as const, lastTransitionTime: 'then' },
        { type: 'Initialized', status: 'True' as const, lastTransitionTime: 'before' },
        { type: 'Ready', status: 'True' as const, lastTransitionTime: 'before' },
      ],
    };
    const status = base(pod(['a']), runtime([]), { oldStatus: old });
    const byType = new Map(status.conditions?.map((c) => [c.type, c]));
    expect(byType.get('PodScheduled')?.lastTransitionTime).toBe('then');
    expect(byType.get('Initialized')?.lastTransitionTime).toBe('before');
    expect(byType.get('Ready')?.lastTransitionTime).toBe(NOW);
  });
});
