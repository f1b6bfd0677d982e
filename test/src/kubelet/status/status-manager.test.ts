// Tests of the status manager, cases ported from status_manager_test.go, in virtual time against an in-memory API.
import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, PodStatus } from '../../../../operators/api/core-v1.ts';
import {
  type StatusManagerConfig,
  type StatusSyncEvent,
  statusManager,
} from '../../../../src/kubelet/status/status-manager.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { FakePodApi } from './fake-pod-api.ts';

const subs: Subscription[] = [];
afterEach(() => {
  for (const s of subs.splice(0)) s.unsubscribe();
});

function testPod(uid = 'uid-1', name = 'foo', extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: { uid, name, namespace: 'new', ...extra },
    spec: { containers: [{ name: 'c1' }, { name: 'c2' }], restartPolicy: 'Always' },
    status: {},
  };
}

function running(name: string, id: string, ready = false): ContainerStatus {
  return {
    name,
    ready,
    restartCount: 0,
    image: 'img',
    imageID: '',
    containerID: id,
    state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
  };
}

function terminated(name: string, exitCode: number, id = `process://${name}`): ContainerStatus {
  return {
    name,
    ready: false,
    restartCount: 0,
    image: 'img',
    imageID: '',
    containerID: id,
    state: { terminated: { exitCode } },
  };
}

let counter = 0;
function randomStatus(): PodStatus {
  counter += 1;
  return { phase: 'Running', message: `msg-${counter}` };
}

function setup(extra: Partial<StatusManagerConfig> = {}) {
  const clock = new VirtualClock();
  clock.advance(1_700_000_000_000);
  const api = new FakePodApi();
  const manager = statusManager({ client: api.client, scheduler: clock.scheduler, ...extra });
  const events: StatusSyncEvent[] = [];
  const start = () => subs.push(manager.run().subscribe((e) => events.push(e)));
  return { clock, api, manager, events, start };
}

describe('statusManager (status_manager_test.go)', () => {
  it('writes a new status once (TestNewStatus)', () => {
    const { clock, api, manager, events, start } = setup();
    const pod = testPod();
    api.put(pod);
    start();
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(events.map((e) => e.outcome)).toEqual(['patched']);
    expect(api.count('patch')).toBe(1);
    expect(api.pods.get('new/foo')?.status?.phase).toBe('Running');
  });

  it('keeps the start time the pod already had (TestNewStatusPreservesPodStartTime)', () => {
    const { manager } = setup();
    const pod = testPod();
    pod.status = { startTime: '2020-01-01T00:00:00Z' };
    manager.setPodStatus(pod, { phase: 'Running' });
    expect(manager.getPodStatus('uid-1')?.startTime).toBe('2020-01-01T00:00:00Z');
  });

  it('sets a start time when there is none', () => {
    const { clock, manager } = setup();
    manager.setPodStatus(testPod(), { phase: 'Pending' });
    expect(manager.getPodStatus('uid-1')?.startTime).toBe(
      new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    );
  });

  it('stamps Ready transition times; a later change of status moves them, the same status does not (TestChangedStatusUpdatesLastTransitionTime)', () => {
    const { clock, manager } = setup();
    const pod = testPod();
    manager.setPodStatus(pod, { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] });
    const first = manager.getPodStatus('uid-1')?.conditions?.[0]?.lastTransitionTime;
    expect(first).toBeDefined();
    clock.advance(5_000);
    manager.setPodStatus(pod, {
      phase: 'Running',
      message: 'x',
      conditions: [{ type: 'Ready', status: 'False' }],
    });
    expect(manager.getPodStatus('uid-1')?.conditions?.[0]?.lastTransitionTime).toBe(first);
    clock.advance(5_000);
    manager.setPodStatus(pod, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
    const third = manager.getPodStatus('uid-1')?.conditions?.[0]?.lastTransitionTime;
    expect(third).not.toBe(first);
    expect(Date.parse(third!) - Date.parse(first!)).toBe(10_000);
  });

  it('writes each changed status (TestChangedStatus) and skips an unchanged one (TestUnchangedStatus)', () => {
    const { clock, api, manager, start } = setup();
    const pod = testPod();
    api.put(pod);
    start();
    const same = randomStatus();
    manager.setPodStatus(pod, same);
    clock.advance(0);
    manager.setPodStatus(pod, same);
    clock.advance(0);
    expect(api.count('patch')).toBe(1);
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(api.count('patch')).toBe(2);
  });

  it('batches statuses set in the same turn into one sync pass', () => {
    const { clock, api, manager, events, start } = setup();
    const a = testPod('a', 'a');
    const b = testPod('b', 'b');
    api.put(a);
    api.put(b);
    start();
    manager.setPodStatus(a, randomStatus());
    manager.setPodStatus(a, randomStatus());
    manager.setPodStatus(b, randomStatus());
    clock.advance(0);
    expect(events.map((e) => [e.name, e.outcome, e.version])).toEqual([
      ['a', 'patched', 2],
      ['b', 'patched', 1],
    ]);
  });

  it('ignores a pod the API server does not have (TestSyncPodIgnoresNotFound)', () => {
    const { clock, api, manager, events, start } = setup();
    start();
    manager.setPodStatus(testPod(), randomStatus());
    clock.advance(0);
    expect(events.map((e) => e.outcome)).toEqual(['notFound']);
    expect(api.count('patch')).toBe(0);
  });

  it('does not write over a recreated pod of the same name, and forgets the old status (TestSyncPodChecksMismatchedUID)', () => {
    const { clock, api, manager, events, start } = setup();
    api.put(testPod('other-uid'));
    start();
    manager.setPodStatus(testPod('uid-1'), randomStatus());
    clock.advance(0);
    expect(events.map((e) => e.outcome)).toEqual(['recreated']);
    expect(api.count('patch')).toBe(0);
    expect(manager.getPodStatus('uid-1')).toBeUndefined();
  });

  it('syncs only versions the API server has not seen; the periodic sync finds nothing stale (TestStaleUpdates)', () => {
    const { clock, api, manager, start } = setup();
    const pod = testPod();
    api.put(pod);
    start();
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(api.count('get')).toBe(1);
    clock.advance(10_000);
    expect(api.count('get')).toBe(1);
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(api.count('patch')).toBe(2);
  });

  it('retries a failed write on the next periodic sync', () => {
    const { clock, api, manager, events, start } = setup();
    const pod = testPod();
    api.put(pod);
    start();
    api.faults.get.push(new Error('connection reset'));
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(events.map((e) => e.outcome)).toEqual(['failed']);
    clock.advance(10_000);
    expect(events.map((e) => e.outcome)).toEqual(['failed', 'patched']);
  });

  it('re-reads and retries a write that meets a conflict', () => {
    const { clock, api, manager, events, start } = setup();
    const pod = testPod();
    api.put(pod);
    start();
    api.conflictOnNextPatch(2);
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(events.map((e) => e.outcome)).toEqual(['patched']);
    expect(api.count('get')).toBe(3);
    expect(api.count('patch')).toBe(3);
  });

  it('writes a static pod status to its mirror pod, and nothing without one (TestStaticPod)', () => {
    const { clock, api, manager, events, start } = setup();
    const staticPod = testPod('static-uid', 'kube-x', {
      annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': 'static-uid' },
    });
    start();
    manager.setPodStatus(staticPod, randomStatus());
    clock.advance(0);
    expect(events.map((e) => e.outcome)).toEqual(['notFound']);
    api.put(
      testPod('mirror-uid', 'kube-x', {
        annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.mirror': 'static-uid' },
      }),
    );
    clock.advance(10_000);
    expect(events.map((e) => e.outcome)).toEqual(['notFound', 'patched']);
    expect(api.pods.get('new/kube-x')?.status?.phase).toBe('Running');
    // a mirror of another static pod is left alone
    api.put(testPod('mirror2', 'kube-x', { annotations: { 'kubernetes.io/config.mirror': 'someone-else' } }));
    manager.setPodStatus(staticPod, randomStatus());
    clock.advance(0);
    expect(events.at(-1)?.outcome).toBe('noMirror');
  });

  it('marks unterminated containers ContainerStatusUnknown and the pod Failed on termination (TestTerminatePod)', () => {
    const { manager } = setup();
    const pod = testPod();
    pod.status = { phase: 'Running', containerStatuses: [running('c1', 'id1'), terminated('c2', 0)] };
    manager.terminatePod(pod);
    const s = manager.getPodStatus('uid-1')!;
    expect(s.phase).toBe('Failed');
    expect(s.containerStatuses?.find((c) => c.name === 'c1')?.state).toEqual({
      terminated: {
        exitCode: 137,
        reason: 'ContainerStatusUnknown',
        message: 'The container could not be located when the pod was terminated',
      },
    });
    expect(s.containerStatuses?.find((c) => c.name === 'c2')?.state).toEqual({ terminated: { exitCode: 0 } });
  });

  it('keeps a terminal phase on termination and leaves a static pod phase alone', () => {
    const { manager } = setup();
    const done = testPod('done');
    done.status = { phase: 'Succeeded', containerStatuses: [terminated('c1', 0), terminated('c2', 0)] };
    manager.terminatePod(done);
    expect(manager.getPodStatus('done')?.phase).toBe('Succeeded');
    const staticPod = testPod('s', 's', { annotations: { 'kubernetes.io/config.source': 'file' } });
    staticPod.status = { phase: 'Running' };
    manager.terminatePod(staticPod);
    expect(manager.getPodStatus('s')?.phase).toBe('Running');
  });

  it.each([
    [
      'no init containers ran: only the first init container is marked',
      ['waiting', 'waiting'],
      [true, false],
    ],
    ['the first ran: it and none after are marked', ['running', 'waiting'], [true, false]],
    ['the second ran: both are marked', ['waiting', 'running'], [true, true]],
  ])(
    'init containers on termination: %s (TestTerminatePod_DefaultUnknownStatus)',
    (_name, states, marked) => {
      const { manager } = setup();
      const pod = testPod();
      pod.spec.initContainers = [{ name: 'i1' }, { name: 'i2' }];
      const st = (name: string, s: string): ContainerStatus => ({
        name,
        ready: false,
        restartCount: 0,
        image: '',
        imageID: '',
        state: s === 'waiting' ? { waiting: {} } : { running: {} },
      });
      pod.status = {
        phase: 'Pending',
        initContainerStatuses: states.map((s, i) => st(`i${i + 1}`, s)),
        containerStatuses: [st('c1', 'waiting'), st('c2', 'waiting')],
      };
      manager.terminatePod(pod);
      const s = manager.getPodStatus('uid-1')!;
      expect(
        s.initContainerStatuses?.map((c) => c.state?.terminated?.reason === 'ContainerStatusUnknown'),
      ).toEqual(marked);
      // app containers never started and init containers remain: not initialized, left waiting
      expect(s.containerStatuses?.every((c) => c.state?.waiting)).toBe(true);
    },
  );

  it('never lets a terminal phase go back to a running one', () => {
    const { clock, api, manager, start } = setup();
    const pod = testPod();
    api.put(pod);
    start();
    manager.setPodStatus(pod, { phase: 'Succeeded' });
    clock.advance(0);
    manager.setPodStatus(pod, { phase: 'Running' });
    clock.advance(0);
    expect(manager.getPodStatus('uid-1')?.phase).toBe('Succeeded');
    expect(api.phaseHistory.get('new/foo')).toEqual(['Succeeded']);
  });

  it('never writes a non-terminal phase over one the API server has as terminal', () => {
    const { clock, api, manager, start } = setup();
    const pod = testPod();
    api.put({ ...pod, status: { phase: 'Failed' } });
    start();
    manager.setPodStatus({ ...pod, status: {} }, { phase: 'Running', message: 'late' });
    clock.advance(0);
    expect(api.pods.get('new/foo')?.status?.phase).toBe('Failed');
  });

  it('holds back a terminal phase while containers could still run', () => {
    let couldRun = true;
    const { clock, api, manager, start } = setup({ podCouldHaveRunningContainers: () => couldRun });
    const pod = testPod();
    api.put({ ...pod, status: { phase: 'Running' } });
    start();
    manager.setPodStatus(pod, { phase: 'Failed', reason: 'Evicted' });
    clock.advance(0);
    expect(api.pods.get('new/foo')?.status?.phase).toBe('Running');
    couldRun = false;
    manager.setPodStatus(pod, { phase: 'Failed', reason: 'Evicted', message: 'now' });
    clock.advance(0);
    expect(api.pods.get('new/foo')?.status).toMatchObject({ phase: 'Failed', reason: 'Evicted' });
  });

  it('refuses to move a terminated container of a RestartNever pod back to running', () => {
    const { manager } = setup();
    const pod = testPod();
    pod.spec.restartPolicy = 'Never';
    manager.setPodStatus(pod, { phase: 'Running', containerStatuses: [terminated('c1', 0)] });
    manager.setPodStatus(pod, { phase: 'Running', containerStatuses: [running('c1', 'x')] });
    expect(manager.getPodStatus('uid-1')?.containerStatuses?.[0]?.state?.terminated).toBeDefined();
  });

  it('lets an OnFailure container that failed run again', () => {
    const { manager } = setup();
    const pod = testPod();
    pod.spec.restartPolicy = 'OnFailure';
    manager.setPodStatus(pod, { phase: 'Running', containerStatuses: [terminated('c1', 1)] });
    manager.setPodStatus(pod, { phase: 'Running', containerStatuses: [running('c1', 'x')] });
    expect(manager.getPodStatus('uid-1')?.containerStatuses?.[0]?.state?.running).toBeDefined();
  });

  it('sets container readiness and the Ready and ContainersReady conditions (TestSetContainerReadiness)', () => {
    const { manager } = setup();
    const pod = testPod();
    manager.setContainerReadiness('uid-1', 'id1', true); // before the pod has a status: ignored
    expect(manager.getPodStatus('uid-1')).toBeUndefined();
    manager.setPodStatus(pod, {
      phase: 'Running',
      containerStatuses: [running('c1', 'id1'), running('c2', 'id2')],
      conditions: [
        { type: 'ContainersReady', status: 'False' },
        { type: 'Ready', status: 'False' },
      ],
    });
    manager.setContainerReadiness('uid-1', 'id1', true);
    let s = manager.getPodStatus('uid-1')!;
    expect(s.containerStatuses?.map((c) => c.ready)).toEqual([true, false]);
    expect(s.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [c2]',
    });
    manager.setContainerReadiness('uid-1', 'id2', true);
    s = manager.getPodStatus('uid-1')!;
    expect(s.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(s.conditions?.find((c) => c.type === 'ContainersReady')?.status).toBe('True');
    manager.setContainerReadiness('uid-1', 'unknown-id', false); // unknown container: ignored
    expect(manager.getPodStatus('uid-1')?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('sets container startup (TestSetContainerStartup)', () => {
    const { manager } = setup();
    manager.setPodStatus(testPod(), { phase: 'Running', containerStatuses: [running('c1', 'id1')] });
    manager.setContainerStartup('uid-1', 'id1', true);
    expect(manager.getPodStatus('uid-1')?.containerStatuses?.[0]?.started).toBe(true);
    manager.setContainerStartup('uid-1', 'id1', false);
    expect(manager.getPodStatus('uid-1')?.containerStatuses?.[0]?.started).toBe(false);
  });

  it('deletes a pod being deleted only once its termination is finished (TestDeletePodBeforeFinished, TestDeletePods)', () => {
    const { clock, api, manager, events, start } = setup();
    const pod = testPod('uid-1', 'foo', { deletionTimestamp: '2026-01-01T00:00:00Z' });
    api.put(pod);
    start();
    manager.setPodStatus(pod, { phase: 'Failed' });
    clock.advance(0);
    expect(api.count('delete')).toBe(0);
    manager.terminatePod(pod);
    clock.advance(0);
    expect(events.map((e) => e.outcome)).toEqual(['patched', 'deleted']);
    const del = api.calls.find((c) => c.verb === 'delete');
    expect(del?.options).toMatchObject({ gracePeriodSeconds: 0, preconditions: { uid: 'uid-1' } });
    expect(api.pods.has('new/foo')).toBe(false);
    expect(manager.getPodStatus('uid-1')).toBeUndefined();
  });

  it('does not delete a pod that is not being deleted, nor a mirror pod (TestDoNotDeleteMirrorPods)', () => {
    const { clock, api, manager, start } = setup();
    const pod = testPod();
    api.put(pod);
    const staticPod = testPod('s', 'mirror', {
      annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': 's' },
    });
    api.put(
      testPod('m', 'mirror', {
        deletionTimestamp: '2026-01-01T00:00:00Z',
        annotations: { 'kubernetes.io/config.mirror': 's' },
      }),
    );
    start();
    manager.terminatePod(pod);
    manager.terminatePod({ ...staticPod, status: { phase: 'Failed' } });
    clock.advance(0);
    clock.advance(10_000);
    expect(api.count('delete')).toBe(0);
  });

  it('retries a failed delete on the next periodic sync', () => {
    const { clock, api, manager, events, start } = setup();
    const pod = testPod('uid-1', 'foo', { deletionTimestamp: '2026-01-01T00:00:00Z' });
    api.put(pod);
    start();
    api.faults.delete.push(new Error('boom'));
    manager.terminatePod(pod);
    clock.advance(0);
    expect(events.at(-1)?.outcome).toBe('failed');
    clock.advance(10_000);
    expect(events.at(-1)?.outcome).toBe('deleted');
  });

  it('deletes a finished pod whose deletion was requested later, on the periodic sync (TestDeletePodWhileReclaiming)', () => {
    const kubeletPods = new Map<string, Pod>();
    const { clock, api, manager, events, start } = setup({ getPod: (uid) => kubeletPods.get(uid) });
    const pod = testPod();
    api.put(pod);
    kubeletPods.set('uid-1', pod);
    start();
    manager.terminatePod(pod);
    clock.advance(0);
    expect(api.count('delete')).toBe(0);
    const deleting = { ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    api.put({ ...api.pods.get('new/foo')!, metadata: deleting.metadata });
    kubeletPods.set('uid-1', deleting);
    clock.advance(10_000);
    expect(events.at(-1)?.outcome).toBe('deleted');
    expect(api.pods.has('new/foo')).toBe(false);
  });

  it('forgets the written versions of removed pods on the periodic sync (TestSyncBatchCleanupVersions)', () => {
    const { clock, api, manager, start } = setup();
    const pod = testPod();
    api.put(pod);
    start();
    for (let i = 0; i < 3; i++) {
      manager.setPodStatus(pod, randomStatus());
      clock.advance(0);
    }
    expect(api.count('patch')).toBe(3);
    manager.removeOrphanedStatuses([]);
    clock.advance(10_000);
    // the same uid starts again at version 1, and is written
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(api.count('patch')).toBe(4);
  });

  it('forgets orphaned statuses (TestRemoveOrphanedStatuses)', () => {
    const { manager } = setup();
    manager.setPodStatus(testPod('a', 'a'), randomStatus());
    manager.setPodStatus(testPod('b', 'b'), randomStatus());
    manager.removeOrphanedStatuses(['a']);
    expect(manager.getPodStatus('a')).toBeDefined();
    expect(manager.getPodStatus('b')).toBeUndefined();
  });

  it('reconciles a status the API server lost on the periodic sync (TestReconcilePodStatus)', () => {
    const kubeletPods = new Map<string, Pod>();
    const { clock, api, manager, start } = setup({ getPod: (uid) => kubeletPods.get(uid) });
    const pod = testPod();
    api.put(pod);
    kubeletPods.set('uid-1', pod);
    start();
    manager.setPodStatus(pod, randomStatus());
    clock.advance(0);
    expect(api.count('patch')).toBe(1);
    // the pod manager's copy now matches what was written: nothing to do
    kubeletPods.set('uid-1', { ...pod, status: manager.getPodStatus('uid-1') });
    clock.advance(10_000);
    expect(api.count('patch')).toBe(1);
    // someone changed the status behind the kubelet's back
    api.put({ ...api.pods.get('new/foo')!, status: { phase: 'Pending' } });
    kubeletPods.set('uid-1', api.pods.get('new/foo')!);
    clock.advance(10_000);
    expect(api.count('patch')).toBe(2);
    expect(api.pods.get('new/foo')?.status?.phase).toBe('Running');
  });

  it('keeps conditions other writers own (TestMergePodStatus)', () => {
    const { clock, api, manager, start } = setup();
    const pod = testPod();
    api.put({ ...pod, status: { conditions: [{ type: 'example.com/gate', status: 'True' }] } });
    start();
    manager.setPodStatus(pod, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
    clock.advance(0);
    expect(api.pods.get('new/foo')?.status?.conditions?.map((c) => c.type)).toEqual([
      'example.com/gate',
      'Ready',
    ]);
  });

  it('stops writing when unsubscribed and leaves no timer behind', () => {
    const { clock, api, manager } = setup();
    const pod = testPod();
    api.put(pod);
    const sub = manager.run().subscribe();
    sub.unsubscribe();
    manager.setPodStatus(pod, randomStatus());
    clock.advance(60_000);
    expect(api.count('patch')).toBe(0);
    expect(clock.pending).toBe(0);
    // a later run picks the pending status up
    subs.push(manager.run().subscribe());
    clock.advance(0);
    expect(api.count('patch')).toBe(1);
  });
});
