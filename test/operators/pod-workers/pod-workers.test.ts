// Pod workers: cases ported from the kubelet's pod_workers_test.go, in virtual time with a recording syncer.
import { describe, expect, it } from 'vitest';
import { effectiveGracePeriod } from '../../../operators/pod-workers/effective-grace-period.ts';
import { PodWorkers } from '../../../operators/pod-workers/pod-workers.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { fakeSyncer, testPod } from './fake-syncer.ts';

function setup(random = () => 0) {
  const clock = new VirtualClock();
  const syncer = fakeSyncer();
  const workers = new PodWorkers(syncer, { scheduler: clock.scheduler, random });
  return { clock, syncer, workers };
}

describe('PodWorkers', () => {
  it('syncs a new pod once with its update type and requeues it after the resync interval', () => {
    const { syncer, workers } = setup(() => 0.5);
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a') });
    expect(syncer.calls.map((c) => [c.kind, c.updateType])).toEqual([['sync', 'create']]);
    syncer.at(0).resolve(false);
    expect(workers.queuedAt('1')).toBe(60_000 + 0.5 * 0.5 * 60_000);
    expect(workers.stateOf('1')).toBe('SyncPod');
  });

  it('coalesces updates to a busy pod: only the latest pending update is synced next', () => {
    const { syncer, workers } = setup();
    const pod = (v: string) => ({ ...testPod('1', 'a'), spec: { containers: [{ name: v }] } });
    workers.updatePod({ updateType: 'create', pod: pod('a') });
    workers.updatePod({ updateType: 'update', pod: pod('b') });
    workers.updatePod({ updateType: 'update', pod: pod('c') });
    workers.updatePod({ updateType: 'update', pod: pod('d') });
    expect(syncer.calls).toHaveLength(1);
    syncer.at(0).resolve(false);
    expect(syncer.calls.map((c) => c.pod?.spec.containers[0]?.name)).toEqual(['a', 'd']);
    syncer.at(1).resolve(false);
    expect(syncer.calls).toHaveLength(2);
  });

  it('runs a pod with a deletion timestamp through terminating and terminated, then ignores it', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a', 'ns', { grace: 30 }) });
    syncer.at(0).resolve(false);
    workers.updatePod({
      updateType: 'update',
      pod: testPod('1', 'a', 'ns', { grace: 30, deleted: true, deletionGrace: 20 }),
    });
    expect(syncer.at(1)).toMatchObject({ kind: 'terminating', gracePeriod: 20 });
    expect(workers.isPodTerminationRequested('1')).toBe(true);
    expect(workers.shouldPodContainersBeTerminating('1')).toBe(true);
    expect(workers.isPodKnownTerminated('1')).toBe(false);
    syncer.at(1).resolve();
    expect(syncer.at(2)).toMatchObject({ kind: 'terminated' });
    expect(workers.isPodKnownTerminated('1')).toBe(true);
    expect(workers.couldHaveRunningContainers('1')).toBe(false);
    expect(workers.shouldPodBeFinished('1')).toBe(false);
    syncer.at(2).resolve();
    expect(workers.shouldPodBeFinished('1')).toBe(true);
    expect(workers.shouldPodContentBeRemoved('1')).toBe(true);
    workers.updatePod({ updateType: 'update', pod: testPod('1', 'a') });
    expect(syncer.calls).toHaveLength(3);
  });

  it('moves a pod whose sync reports it terminal to terminating with the spec grace period', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a', 'ns', { grace: 7 }) });
    syncer.at(0).resolve(true);
    expect(syncer.at(1)).toMatchObject({ kind: 'terminating', gracePeriod: 7 });
    expect(workers.queuedAt('1')).toBe(0);
    expect(workers.shouldPodContentBeRemoved('1')).toBe(false);
  });

  it.each([
    { name: 'only shrinks across kills', overrides: [30, 10, 20], expected: [30, 10, 10] },
    { name: 'starts from the first kill', overrides: [5, 8], expected: [5, 5] },
    { name: 'never goes below 1', overrides: [0, 3], expected: [1, 1] },
  ])('grace period $name', ({ overrides, expected }) => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a', 'ns', { grace: 60 }) });
    syncer.at(0).resolve(false);
    const seen: number[] = [];
    for (const override of overrides) {
      workers.updatePod({
        updateType: 'kill',
        pod: testPod('1', 'a', 'ns', { grace: 60 }),
        killPodOptions: { podTerminationGracePeriodSecondsOverride: override },
      });
      seen.push(workers.gracePeriodOf('1'));
    }
    expect(seen).toEqual(expected);
  });

  it('aborts a running terminating sync when the grace period shrinks, then reruns it with the shorter one', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a', 'ns', { grace: 60 }) });
    syncer.at(0).resolve(false);
    workers.updatePod({
      updateType: 'kill',
      pod: testPod('1', 'a'),
      killPodOptions: { podTerminationGracePeriodSecondsOverride: 30 },
    });
    const first = syncer.at(1);
    expect(first.gracePeriod).toBe(30);
    workers.updatePod({
      updateType: 'kill',
      pod: testPod('1', 'a'),
      killPodOptions: { podTerminationGracePeriodSecondsOverride: 2 },
    });
    expect(first.signal.aborted).toBe(true);
    first.resolve();
    expect(syncer.at(2)).toMatchObject({ kind: 'terminating', gracePeriod: 2 });
  });

  it('aborts a running sync when termination is requested', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a') });
    workers.updatePod({ updateType: 'kill', pod: testPod('1', 'a') });
    expect(syncer.at(0).signal.aborted).toBe(true);
    syncer.at(0).reject(new Error('context canceled'));
    expect(syncer.at(1).kind).toBe('terminating');
    expect(syncer.maxConcurrentPerPod).toBe(1);
  });

  it('ignores a runtime-only pod unless the update is a kill', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'sync', runningPod: { uid: 'r', name: 'x', namespace: 'ns' } });
    expect(workers.size).toBe(0);
    workers.updatePod({ updateType: 'kill', runningPod: { uid: 'r', name: 'x', namespace: 'ns' } });
    expect(syncer.at(0).kind).toBe('terminatingRuntime');
    syncer.at(0).resolve();
    expect(workers.size).toBe(0);
  });

  it('ignores a runtime-only kill for a pod that is already terminated', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'kill', pod: testPod('1', 'a') });
    syncer.at(0).resolve();
    expect(workers.isPodKnownTerminated('1')).toBe(true);
    workers.updatePod({ updateType: 'kill', runningPod: { uid: '1', name: 'a', namespace: 'ns' } });
    expect(syncer.calls.filter((c) => c.kind === 'terminatingRuntime')).toHaveLength(0);
  });

  it('uses the config pod when a runtime-only kill arrives for a pod it knows', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a', 'ns', { grace: 4 }) });
    syncer.at(0).resolve(false);
    workers.updatePod({ updateType: 'kill', runningPod: { uid: '1', name: 'a', namespace: 'ns' } });
    expect(syncer.at(1)).toMatchObject({ kind: 'terminating', gracePeriod: 4 });
  });

  it('retries a failed sync after jitter(10 s, 0.5) and a network-not-ready one after jitter(1 s, 0.5)', () => {
    const { clock, syncer, workers } = setup(() => 1);
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a') });
    syncer.at(0).reject(new Error('boom'));
    expect(workers.queuedAt('1')).toBe(15_000);
    expect(workers.dueWork()).toEqual([]);
    clock.advance(15_000);
    expect(workers.dueWork()).toEqual(['1']);
    expect(workers.dueWork()).toEqual([]);
    workers.updatePod({ updateType: 'sync', pod: testPod('1', 'a') });
    syncer.at(1).reject(new Error('network is not ready: cni'));
    expect(workers.queuedAt('1')).toBe(15_000 + 1_500);
  });

  it('turns a create for a terminating pod into a restart request; syncKnownPods then forgets the finished worker', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'kill', pod: testPod('1', 'a') });
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a') });
    syncer.at(0).resolve();
    syncer.at(1).resolve();
    expect(workers.shouldPodBeFinished('1')).toBe(true);
    const known = workers.syncKnownPods([testPod('1', 'a')]);
    expect(known.has('1')).toBe(false);
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a') });
    expect(syncer.calls.at(-1)).toMatchObject({ kind: 'sync', updateType: 'create' });
  });

  it('syncKnownPods: terminates running orphans, drops unstarted ones, keeps desired pods', () => {
    const { syncer, workers } = setup();
    expect(workers.couldHaveRunningContainers('x')).toBe(true);
    expect(workers.shouldPodBeFinished('x')).toBe(false);
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a', 'ns', { grace: 9 }) });
    workers.updatePod({ updateType: 'create', pod: testPod('2', 'b') });
    syncer.at(0).resolve(false);
    syncer.at(1).resolve(false);
    const result = workers.syncKnownPods([testPod('2', 'b')]);
    expect(result.get('1')).toEqual({
      state: 'TerminatingPod',
      orphan: true,
      hasConfig: true,
      static: false,
    });
    expect(result.get('2')).toEqual({ state: 'SyncPod', orphan: false, hasConfig: true, static: false });
    expect(syncer.at(2)).toMatchObject({ kind: 'terminating', uid: '1', gracePeriod: 9 });
    expect(workers.couldHaveRunningContainers('x')).toBe(false);
    expect(workers.shouldPodBeFinished('x')).toBe(true);
    expect(workers.shouldPodContentBeRemoved('x')).toBe(true);
    syncer.at(2).resolve();
    syncer.at(3).resolve();
    expect(workers.syncKnownPods([testPod('2', 'b')]).has('1')).toBe(false);
    expect(workers.size).toBe(1);
  });

  it('never runs two static pods of one full name at once; the next one starts when the first finishes', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'web', 'ns', { static: true }) });
    workers.updatePod({ updateType: 'create', pod: testPod('2', 'web', 'ns', { static: true }) });
    expect(syncer.calls.map((c) => c.uid)).toEqual(['1']);
    syncer.at(0).resolve(false);
    expect(workers.queuedAt('2')).toBeGreaterThanOrEqual(10_000);
    workers.updatePod({ updateType: 'update', pod: testPod('2', 'web', 'ns', { static: true }) });
    expect(syncer.calls.map((c) => c.uid)).toEqual(['1']);
    workers.updatePod({ updateType: 'kill', pod: testPod('1', 'web', 'ns', { static: true }) });
    syncer.at(1).resolve();
    expect(workers.isPodForMirrorPodTerminatingByFullName('web_ns')).toBe(false);
    syncer.at(2).resolve();
    expect(syncer.calls.map((c) => [c.kind, c.uid])).toEqual([
      ['sync', '1'],
      ['terminating', '1'],
      ['terminated', '1'],
      ['sync', '2'],
    ]);
  });

  it('reports the started static pod of a full name as terminating while it terminates', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'web', 'ns', { static: true }) });
    syncer.at(0).resolve(false);
    workers.updatePod({ updateType: 'kill', pod: testPod('1', 'web', 'ns', { static: true }) });
    expect(workers.isPodForMirrorPodTerminatingByFullName('web_ns')).toBe(true);
    expect(workers.isPodForMirrorPodTerminatingByFullName('other_ns')).toBe(false);
  });

  it('a static pod killed before it could start never starts and finishes without any sync', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'web', 'ns', { static: true }) });
    workers.updatePod({ updateType: 'create', pod: testPod('2', 'web', 'ns', { static: true }) });
    workers.updatePod({ updateType: 'kill', pod: testPod('2', 'web', 'ns', { static: true }) });
    expect(syncer.calls.map((c) => c.uid)).toEqual(['1']);
    expect(workers.shouldPodBeFinished('2')).toBe(true);
  });

  it('a pod first seen in a terminal phase only runs syncTerminatedPod', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a', 'ns', { phase: 'Succeeded' }) });
    expect(syncer.calls.map((c) => c.kind)).toEqual(['terminated']);
  });

  it('calls a kill completion after termination, and at once for a pod that is already terminated', () => {
    const { syncer, workers } = setup();
    const done: string[] = [];
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a') });
    syncer.at(0).resolve(false);
    workers.updatePod({
      updateType: 'kill',
      pod: testPod('1', 'a'),
      killPodOptions: { evict: true, completed: () => done.push('first') },
    });
    expect(done).toEqual([]);
    syncer.at(1).resolve();
    expect(done).toEqual(['first']);
    workers.updatePod({
      updateType: 'kill',
      pod: testPod('1', 'a'),
      killPodOptions: { completed: () => done.push('second') },
    });
    expect(done).toEqual(['first', 'second']);
    syncer.at(2).resolve();
    expect(workers.shouldPodContentBeRemoved('1')).toBe(true);
  });

  it('close aborts running syncs and ignores later updates', () => {
    const { syncer, workers } = setup();
    workers.updatePod({ updateType: 'create', pod: testPod('1', 'a') });
    workers.close();
    expect(syncer.at(0).signal.aborted).toBe(true);
    workers.updatePod({ updateType: 'update', pod: testPod('1', 'a') });
    expect(syncer.calls).toHaveLength(1);
  });
});

describe('effectiveGracePeriod', () => {
  it.each([
    {
      name: 'spec value when nothing is chosen',
      current: 0,
      pod: testPod('1', 'a', 'ns', { grace: 30 }),
      override: undefined,
      expected: { gracePeriod: 30, shortened: false },
    },
    {
      name: 'deletion grace wins when smaller',
      current: 30,
      pod: testPod('1', 'a', 'ns', { grace: 30, deletionGrace: 10 }),
      override: undefined,
      expected: { gracePeriod: 10, shortened: true },
    },
    {
      name: 'a larger deletion grace is ignored',
      current: 5,
      pod: testPod('1', 'a', 'ns', { deletionGrace: 10 }),
      override: undefined,
      expected: { gracePeriod: 5, shortened: false },
    },
    {
      name: 'override wins when smaller',
      current: 30,
      pod: testPod('1', 'a'),
      override: 3,
      expected: { gracePeriod: 3, shortened: true },
    },
    {
      name: 'zero becomes one',
      current: 0,
      pod: testPod('1', 'a', 'ns', { deletionGrace: 0 }),
      override: undefined,
      expected: { gracePeriod: 1, shortened: false },
    },
    {
      name: 'no spec and nothing chosen gives one',
      current: 0,
      pod: testPod('1', 'a'),
      override: undefined,
      expected: { gracePeriod: 1, shortened: false },
    },
  ])('$name', ({ current, pod, override, expected }) => {
    expect(effectiveGracePeriod(current, pod, override)).toEqual(expected);
  });
});
