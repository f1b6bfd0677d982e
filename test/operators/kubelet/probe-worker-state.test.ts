// Tests of a probe worker's pure steps, cases ported from prober/worker_test.go (TestDoProbe, thresholds, on hold).
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, PodStatus, Probe } from '../../../operators/api/core-v1.ts';
import {
  INITIAL_PROBE_WORKER_STATE,
  type ProbeResult,
  type ProbeType,
  type ProbeWorkerState,
  probeWorkerDecide,
  probeWorkerRecord,
} from '../../../operators/kubelet/probe-worker-state.ts';

const NOW = Date.parse('2026-01-01T00:01:00Z');

function pod(extra: Partial<Pod['spec']> = {}, meta: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: { uid: 'u', name: 'p', namespace: 'ns', ...meta },
    spec: { containers: [{ name: 'c' }], ...extra },
  };
}

function cs(state: ContainerStatus['state'], extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return {
    name: 'c',
    ready: false,
    restartCount: 0,
    image: '',
    imageID: '',
    containerID: 'test://c1',
    state,
    ...extra,
  };
}

const runningFor = (seconds: number) => ({
  running: { startedAt: new Date(NOW - seconds * 1000).toISOString() },
});
const statusWith = (c: ContainerStatus | undefined, phase = 'Running'): PodStatus => ({
  phase,
  ...(c ? { containerStatuses: [c] } : {}),
});

function decide(
  type: ProbeType,
  status: PodStatus | undefined,
  probe: Probe = {},
  p = pod(),
  state = INITIAL_PROBE_WORKER_STATE,
) {
  return probeWorkerDecide(state, { type, pod: p, containerName: 'c', status, probe, now: NOW });
}

describe('probeWorkerDecide (worker_test.go TestDoProbe)', () => {
  const started = (type: ProbeType) => (type === 'startup' ? {} : { started: true });
  it.each(['liveness', 'readiness', 'startup'] as ProbeType[])('%s: the table of pod states', (type) => {
    // no status: keep going, nothing set
    expect(decide(type, undefined)).toMatchObject({ next: 'wait' });
    // a terminal pod ends the worker
    expect(decide(type, statusWith(undefined, 'Failed')).next).toBe('stop');
    expect(decide(type, statusWith(undefined, 'Succeeded')).next).toBe('stop');
    // no container status yet: wait
    expect(decide(type, statusWith(undefined)).next).toBe('wait');
    // container waiting: Failure set, keep going
    expect(decide(type, statusWith(cs({ waiting: {} })))).toMatchObject({
      next: 'wait',
      set: { containerId: 'test://c1', result: 'Failure' },
    });
    // container terminated, pod restarts it: Failure, keep going
    expect(decide(type, statusWith(cs({ terminated: { exitCode: 1 } })))).toMatchObject({
      next: 'wait',
      set: { result: 'Failure' },
    });
    // container terminated in a RestartNever pod: the worker ends
    expect(
      decide(type, statusWith(cs({ terminated: { exitCode: 1 } })), {}, pod({ restartPolicy: 'Never' })).next,
    ).toBe('stop');
    // running (and started where it matters): probe
    expect(decide(type, statusWith(cs(runningFor(100), started(type)))).next).toBe('probe');
  });

  it.each([
    ['liveness', 'stop', 'Success'],
    ['startup', 'stop', 'Success'],
    ['readiness', 'probe', 'Failure'],
  ] as const)('pod being deleted: %s → %s', (type, next, initial) => {
    const deleting = pod({}, { deletionTimestamp: '2026-01-01T00:00:00Z' });
    const d = decide(type, statusWith(cs(runningFor(100), { started: true })), {}, deleting);
    expect(d.next).toBe(next);
    if (next === 'stop') expect(d.set).toEqual({ containerId: 'test://c1', result: 'Success' });
    else expect(d.set).toEqual({ containerId: 'test://c1', result: initial });
  });

  it.each([
    ['liveness', 'Success'],
    ['readiness', 'Failure'],
    ['startup', 'Unknown'],
  ] as const)(
    'a new container resets the %s worker to its initial result %s (TestInitialDelay)',
    (type, initial) => {
      const d = decide(type, statusWith(cs(runningFor(5), { started: type !== 'startup' })), {
        initialDelaySeconds: 10,
      });
      expect(d).toMatchObject({ next: 'wait', set: { containerId: 'test://c1', result: initial } });
      // past the delay it probes
      const later = decide(
        type,
        statusWith(cs(runningFor(11), { started: type !== 'startup' })),
        { initialDelaySeconds: 10 },
        pod(),
        d.state,
      );
      expect(later.next).toBe('probe');
      expect(later.set).toBeUndefined();
    },
  );

  it('startup gating: liveness and readiness wait until started; startup stops probing once started', () => {
    const notStarted = statusWith(cs(runningFor(100), { started: false }));
    const isStarted = statusWith(cs(runningFor(100), { started: true }));
    expect(decide('liveness', notStarted).next).toBe('wait');
    expect(decide('readiness', notStarted).next).toBe('wait');
    expect(decide('startup', notStarted).next).toBe('probe');
    expect(decide('startup', isStarted).next).toBe('wait');
    expect(decide('liveness', isStarted).next).toBe('probe');
  });

  it('a container replaced while on hold resumes probing and forgets the old id', () => {
    const held: ProbeWorkerState = {
      containerId: 'test://old',
      onHold: true,
      lastResult: 'Failure',
      resultRun: 0,
    };
    const same = decide(
      'liveness',
      statusWith(cs(runningFor(100), { started: true, containerID: 'test://old' })),
      {},
      pod(),
      held,
    );
    expect(same.next).toBe('wait');
    const replaced = decide('liveness', statusWith(cs(runningFor(100), { started: true })), {}, pod(), held);
    expect(replaced).toMatchObject({
      next: 'probe',
      remove: 'test://old',
      set: { containerId: 'test://c1', result: 'Success' },
    });
    expect(replaced.state.onHold).toBe(false);
  });

  it('finds a sidecar in the init container statuses', () => {
    const status: PodStatus = {
      phase: 'Running',
      initContainerStatuses: [cs(runningFor(100), { started: true })],
    };
    expect(decide('readiness', status).next).toBe('probe');
  });
});

function runResults(type: ProbeType, probe: Probe, results: ProbeResult[]) {
  let state: ProbeWorkerState = { ...INITIAL_PROBE_WORKER_STATE, containerId: 'test://c1' };
  const sets: (ProbeResult | undefined)[] = [];
  for (const r of results) {
    const out = probeWorkerRecord(state, type, probe, r);
    state = out.state;
    sets.push(out.set?.result);
  }
  return { sets, state };
}

describe('probeWorkerRecord (thresholds)', () => {
  it('readiness: failureThreshold 3 sets Failure on the third failure in a row (TestFailureThreshold)', () => {
    const { sets } = runResults('readiness', { failureThreshold: 3 }, [
      'Success',
      'Failure',
      'Failure',
      'Failure',
      'Failure',
    ]);
    expect(sets).toEqual(['Success', undefined, undefined, 'Failure', 'Failure']);
  });

  it('readiness: successThreshold 3 sets Success on the third success in a row (TestSuccessThreshold)', () => {
    const { sets } = runResults('readiness', { successThreshold: 3, failureThreshold: 1 }, [
      'Failure',
      'Success',
      'Success',
      'Failure',
      'Success',
      'Success',
      'Success',
    ]);
    expect(sets).toEqual(['Failure', undefined, undefined, 'Failure', undefined, undefined, 'Success']);
  });

  it.each(['liveness', 'startup'] as ProbeType[])(
    '%s: a failure that counts puts the worker on hold and restarts the run (TestOnHoldOnLivenessOrStartupCheckFailure, TestResultRunOn*CheckFailure)',
    (type) => {
      const { sets, state } = runResults(type, { failureThreshold: 3 }, [
        'Success',
        'Failure',
        'Failure',
        'Failure',
      ]);
      expect(sets).toEqual(['Success', undefined, undefined, 'Failure']);
      expect(state).toMatchObject({ onHold: true, resultRun: 0 });
    },
  );

  it('readiness failures never put the worker on hold', () => {
    const { state } = runResults('readiness', { failureThreshold: 1 }, ['Failure', 'Failure']);
    expect(state.onHold).toBe(false);
  });

  it('defaults: failureThreshold 3, successThreshold 1', () => {
    expect(runResults('readiness', {}, ['Failure', 'Failure', 'Failure']).sets).toEqual([
      undefined,
      undefined,
      'Failure',
    ]);
    expect(runResults('readiness', {}, ['Success']).sets).toEqual(['Success']);
  });
});
