// Tests of the prober manager and its workers in virtual time with a fake probe function (prober_manager_test.go, worker_test.go).
import { afterEach, describe, expect, it } from 'vitest';
import type { Container, ContainerStatus, Pod, PodStatus, Probe } from '../../../../operators/api/core-v1.ts';
import type { ProbeResult, ProbeType } from '../../../../operators/kubelet/probe-worker-state.ts';
import {
  type ProberManager,
  type ProbeUpdate,
  proberManager,
} from '../../../../src/kubelet/prober/prober-manager.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';

const managers: ProberManager[] = [];
afterEach(() => {
  for (const m of managers.splice(0)) m.stop();
});

function probedPod(containers: Container[], uid = 'pod-uid'): Pod {
  return { metadata: { uid, name: 'p', namespace: 'ns' }, spec: { containers, restartPolicy: 'Always' } };
}

function runningStatus(clock: VirtualClock, names: string[], started = true, ids?: string[]): PodStatus {
  return {
    phase: 'Running',
    containerStatuses: names.map(
      (name, i): ContainerStatus => ({
        name,
        ready: false,
        restartCount: 0,
        image: '',
        imageID: '',
        containerID: ids?.[i] ?? `test://${name}`,
        started,
        state: { running: { startedAt: new Date(clock.now()).toISOString() } },
      }),
    ),
  };
}

function setup() {
  const clock = new VirtualClock();
  clock.advance(1_700_000_000_000);
  const statuses = new Map<string, PodStatus>();
  /** Scripted answers per container and probe type; the last answer repeats. */
  const script = new Map<string, ProbeResult[]>();
  const probed: string[] = [];
  const manager = proberManager({
    getPodStatus: (uid) => statuses.get(uid),
    prober: async (type, _pod, _status, container) => {
      probed.push(`${container.name}/${type}@${clock.now() % 1_000_000}`);
      const answers = script.get(`${container.name}/${type}`) ?? ['Success'];
      return answers.length > 1 ? answers.shift()! : answers[0]!;
    },
    scheduler: clock.scheduler,
  });
  managers.push(manager);
  const updates: ProbeUpdate[] = [];
  manager.results$.subscribe((u) => updates.push(u));
  /** Advances time in steps, letting the fake prober's promises settle in between. */
  const advance = async (ms: number, step = 1000) => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(Math.min(step, ms - t));
      await Promise.resolve();
      await Promise.resolve();
    }
  };
  return { clock, statuses, script, probed, manager, updates, advance };
}

const compact = (updates: ProbeUpdate[]) =>
  updates.map((u) => `${u.containerName}/${u.probeType}:${u.result}`);

describe('proberManager', () => {
  it('starts one worker per declared probe, and none twice (TestAddRemovePods)', () => {
    const { manager } = setup();
    const probe: Probe = { periodSeconds: 1 };
    const pod = probedPod([
      { name: 'none' },
      { name: 'r', readinessProbe: probe },
      { name: 'all', readinessProbe: probe, livenessProbe: probe, startupProbe: probe },
    ]);
    manager.addPod(pod);
    expect(manager.workerCount).toBe(4);
    manager.addPod(pod);
    expect(manager.workerCount).toBe(4);
    manager.removePod(pod);
    expect(manager.workerCount).toBe(0);
  });

  it('probes sidecars (restartable init containers) but not ordinary init containers', () => {
    const { manager } = setup();
    const probe: Probe = {};
    const pod = probedPod([{ name: 'app' }]);
    pod.spec.initContainers = [
      { name: 'sidecar', restartPolicy: 'Always', readinessProbe: probe },
      { name: 'init', readinessProbe: probe },
    ];
    manager.addPod(pod);
    expect(manager.workerCount).toBe(1);
  });

  it('cleanupPods stops the workers of pods not desired (TestCleanupPods)', () => {
    const { manager } = setup();
    const probe: Probe = {};
    manager.addPod(probedPod([{ name: 'c', readinessProbe: probe }], 'keep'));
    manager.addPod(probedPod([{ name: 'c', readinessProbe: probe, livenessProbe: probe }], 'drop'));
    expect(manager.workerCount).toBe(3);
    manager.cleanupPods(['keep']);
    expect(manager.workerCount).toBe(1);
  });

  it('readiness: Failure for a new container, then Success after successThreshold probes on the period', async () => {
    const { clock, statuses, manager, updates, advance, probed } = setup();
    const pod = probedPod([{ name: 'c', readinessProbe: { periodSeconds: 10, successThreshold: 2 } }]);
    statuses.set('pod-uid', runningStatus(clock, ['c']));
    manager.addPod(pod);
    await advance(0);
    expect(compact(updates)).toEqual(['c/readiness:Failure']);
    await advance(10_000);
    expect(compact(updates)).toEqual(['c/readiness:Failure', 'c/readiness:Success']);
    expect(probed.length).toBe(2);
    await advance(30_000);
    expect(probed.length).toBe(5);
    expect(updates.length).toBe(2); // results only on change
  });

  it('liveness: a failure counts after failureThreshold probes, then the worker holds until the container changes', async () => {
    const { clock, statuses, script, manager, updates, advance, probed } = setup();
    const pod = probedPod([{ name: 'c', livenessProbe: { periodSeconds: 1, failureThreshold: 3 } }]);
    statuses.set('pod-uid', runningStatus(clock, ['c']));
    script.set('c/liveness', ['Failure']);
    manager.addPod(pod);
    await advance(10_000);
    expect(compact(updates)).toEqual(['c/liveness:Success', 'c/liveness:Failure']);
    expect(probed.length).toBe(3); // on hold after the third
    // the kubelet restarts the container: a new id, probing resumes
    statuses.set('pod-uid', runningStatus(clock, ['c'], true, ['test://c-2']));
    script.set('c/liveness', ['Success']);
    await advance(2_000);
    expect(compact(updates).slice(2)).toEqual(['c/liveness:Success']);
    expect(updates.at(-1)?.containerId).toBe('test://c-2');
  });

  it('initialDelaySeconds holds the first probe back', async () => {
    const { clock, statuses, manager, advance, probed } = setup();
    statuses.set('pod-uid', runningStatus(clock, ['c']));
    manager.addPod(probedPod([{ name: 'c', readinessProbe: { periodSeconds: 1, initialDelaySeconds: 5 } }]));
    await advance(4_000);
    expect(probed).toEqual([]);
    await advance(2_000);
    expect(probed.length).toBeGreaterThan(0);
    expect(probed[0]).toMatch(/@5000$/);
  });

  it('startup gates liveness and readiness until the container has started', async () => {
    const { clock, statuses, script, manager, updates, advance } = setup();
    const probe: Probe = { periodSeconds: 1 };
    const pod = probedPod([
      {
        name: 'c',
        startupProbe: { ...probe, failureThreshold: 10 },
        livenessProbe: probe,
        readinessProbe: probe,
      },
    ]);
    statuses.set('pod-uid', runningStatus(clock, ['c'], false));
    script.set('c/startup', ['Failure', 'Failure', 'Success']);
    manager.addPod(pod);
    await advance(5_000);
    // only startup probes ran; liveness and readiness only set their initial values
    expect(compact(updates)).toEqual([
      'c/startup:Unknown',
      'c/readiness:Failure',
      'c/liveness:Success',
      'c/startup:Success',
    ]);
    // the kubelet marks the container started (from the startup result); readiness now probes
    const status = manager.updatePodStatus(pod, runningStatus(clock, ['c'], false));
    expect(status.containerStatuses?.[0]?.started).toBe(true);
    statuses.set('pod-uid', status);
    await advance(2_000);
    expect(compact(updates).at(-1)).toBe('c/readiness:Success');
  });

  it('a terminal pod ends its workers and drops their results', async () => {
    const { clock, statuses, manager, advance } = setup();
    statuses.set('pod-uid', runningStatus(clock, ['c']));
    manager.addPod(probedPod([{ name: 'c', readinessProbe: { periodSeconds: 1 } }]));
    await advance(1_000);
    expect(manager.workerCount).toBe(1);
    statuses.set('pod-uid', { phase: 'Succeeded' });
    await advance(2_000);
    expect(manager.workerCount).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('stop() cancels every timer and completes results$', async () => {
    const { clock, statuses, manager } = setup();
    statuses.set('pod-uid', runningStatus(clock, ['c']));
    manager.addPod(probedPod([{ name: 'c', readinessProbe: {}, livenessProbe: {} }]));
    let completed = false;
    manager.results$.subscribe({ complete: () => (completed = true) });
    manager.stop();
    expect(completed).toBe(true);
    expect(clock.pending).toBe(0);
  });

  it('a probe error throws the result away and keeps probing', async () => {
    const clock = new VirtualClock();
    const statuses = new Map<string, PodStatus>([['pod-uid', runningStatus(clock, ['c'])]]);
    let calls = 0;
    const manager = proberManager({
      getPodStatus: (uid) => statuses.get(uid),
      prober: async (): Promise<ProbeResult> => {
        calls += 1;
        if (calls === 1) throw new Error('cannot run');
        return 'Success';
      },
      scheduler: clock.scheduler,
    });
    managers.push(manager);
    const updates: ProbeUpdate[] = [];
    manager.results$.subscribe((u) => updates.push(u));
    manager.addPod(probedPod([{ name: 'c', readinessProbe: { periodSeconds: 1 } }]));
    await Promise.resolve();
    expect(compact(updates)).toEqual(['c/readiness:Failure']);
    clock.advance(1_000);
    await Promise.resolve();
    await Promise.resolve();
    expect(compact(updates)).toEqual(['c/readiness:Failure', 'c/readiness:Success']);
  });
});

describe('proberManager.updatePodStatus (TestUpdatePodStatus)', () => {
  it('sets started and ready from the results and the probes declared', async () => {
    const { clock, statuses, manager, advance } = setup();
    const probe: Probe = { periodSeconds: 1 };
    const pod = probedPod([
      { name: 'noProbe' },
      { name: 'readyProbe', readinessProbe: probe },
      { name: 'notYet', readinessProbe: { ...probe, initialDelaySeconds: 100 } },
      { name: 'waiting', readinessProbe: probe },
      { name: 'startupPending', startupProbe: { ...probe, initialDelaySeconds: 100 } },
    ]);
    const status = runningStatus(clock, ['noProbe', 'readyProbe', 'notYet', 'waiting', 'startupPending']);
    status.containerStatuses![3]!.state = { waiting: {} };
    statuses.set('pod-uid', status);
    manager.addPod(pod);
    await advance(2_000);
    const out = manager.updatePodStatus(pod, structuredClone(status));
    const byName = Object.fromEntries(out.containerStatuses!.map((c) => [c.name, [c.started, c.ready]]));
    expect(byName).toEqual({
      noProbe: [true, true],
      readyProbe: [true, true],
      notYet: [true, false],
      waiting: [false, false],
      startupPending: [false, false],
    });
  });

  it('a completed init container is ready; a failed one is not', () => {
    const { manager } = setup();
    const pod = probedPod([{ name: 'c' }]);
    pod.spec.initContainers = [{ name: 'ok' }, { name: 'bad' }];
    const init = (name: string, exitCode: number): ContainerStatus => ({
      name,
      ready: false,
      restartCount: 0,
      image: '',
      imageID: '',
      state: { terminated: { exitCode } },
    });
    const out = manager.updatePodStatus(pod, { initContainerStatuses: [init('ok', 0), init('bad', 1)] });
    expect(out.initContainerStatuses?.map((c) => c.ready)).toEqual([true, false]);
  });

  it.each(['liveness', 'readiness', 'startup'] as ProbeType[])(
    '%s workers are keyed by pod, container and type',
    (type) => {
      const { manager } = setup();
      const field = `${type}Probe` as 'livenessProbe';
      manager.addPod(
        probedPod([
          { name: 'a', [field]: {} },
          { name: 'b', [field]: {} },
        ]),
      );
      manager.addPod(probedPod([{ name: 'a', [field]: {} }], 'other'));
      expect(manager.workerCount).toBe(3);
    },
  );
});
