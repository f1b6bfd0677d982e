// syncLoop: dispatch of config updates, the sync and housekeeping ticks, PLEG events and probe results, in virtual time.
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import type { PodUpdate } from '../../../operators/pod-config/types.ts';
import { type ProbeResultUpdate, type SyncHandler, syncLoop } from '../../../src/kubelet/sync-loop.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';

const pod = (uid: string): Pod => ({
  metadata: { uid, name: uid, namespace: 'ns' },
  spec: { containers: [] },
});

function recorder() {
  const calls: string[] = [];
  const known = new Map<string, Pod>([
    ['a', pod('a')],
    ['b', pod('b')],
  ]);
  let due: string[] = [];
  let cleanups = 0;
  let release: (() => void) | undefined;
  const handler: SyncHandler = {
    handlePodAdditions: (pods) => calls.push(`add:${pods.map((p) => p.metadata.uid).join(',')}`),
    handlePodUpdates: (pods) => calls.push(`update:${pods.map((p) => p.metadata.uid).join(',')}`),
    handlePodRemoves: (pods) => calls.push(`remove:${pods.map((p) => p.metadata.uid).join(',')}`),
    handlePodReconcile: (pods) => calls.push(`reconcile:${pods.map((p) => p.metadata.uid).join(',')}`),
    handlePodSyncs: (pods) => calls.push(`sync:${pods.map((p) => p.metadata.uid).join(',')}`),
    handlePodCleanups: () => {
      cleanups++;
      calls.push('cleanup');
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    podByUid: (uid) => known.get(uid),
    dueWork: () => {
      const out = due;
      due = [];
      return out;
    },
    recordProbeResult: (u) => calls.push(`probe:${u.probeType}:${u.podUid}:${u.result}`),
  };
  return {
    calls,
    handler,
    setDue: (uids: string[]) => {
      due = uids;
    },
    cleanups: () => cleanups,
    finishCleanup: () => release?.(),
  };
}

describe('syncLoop', () => {
  it('dispatches each config operation to its handler; DELETE is an update and SET is ignored', () => {
    const clock = new VirtualClock();
    const r = recorder();
    const updates$ = new Subject<PodUpdate>();
    const sub = syncLoop(r.handler, { updates$, sources: ['api'], scheduler: clock.scheduler }).subscribe();
    const u = (op: PodUpdate['op'], ...uids: string[]): PodUpdate => ({
      op,
      source: 'api',
      pods: uids.map(pod) as never,
    });
    updates$.next(u('ADD', 'a'));
    updates$.next(u('UPDATE', 'a'));
    updates$.next(u('DELETE', 'b'));
    updates$.next(u('REMOVE', 'a'));
    updates$.next(u('RECONCILE', 'b'));
    updates$.next(u('SET', 'a'));
    expect(r.calls).toEqual(['add:a', 'update:a', 'update:b', 'remove:a', 'reconcile:b']);
    sub.unsubscribe();
  });

  it('syncs the due pods every second, skipping unknown ones', () => {
    const clock = new VirtualClock();
    const r = recorder();
    const sub = syncLoop(r.handler, {
      updates$: new Subject(),
      sources: [],
      housekeepingPeriodMs: 1e9,
      scheduler: clock.scheduler,
    }).subscribe();
    r.setDue(['a', 'zz', 'b']);
    clock.advance(999);
    expect(r.calls).toEqual([]);
    clock.advance(1);
    expect(r.calls).toEqual(['sync:a,b']);
    clock.advance(1000);
    expect(r.calls).toEqual(['sync:a,b']);
    sub.unsubscribe();
  });

  it('runs housekeeping every 2 s only once every source was heard from, never two at once', () => {
    const clock = new VirtualClock();
    const r = recorder();
    const updates$ = new Subject<PodUpdate>();
    const sub = syncLoop(r.handler, {
      updates$,
      sources: ['api', 'file'],
      scheduler: clock.scheduler,
    }).subscribe();
    clock.advance(2000);
    expect(r.cleanups()).toBe(0);
    updates$.next({ op: 'ADD', source: 'api', pods: [] });
    clock.advance(2000);
    expect(r.cleanups()).toBe(0);
    updates$.next({ op: 'ADD', source: 'file', pods: [] });
    clock.advance(2000);
    expect(r.cleanups()).toBe(1);
    clock.advance(4000);
    expect(r.cleanups()).toBe(1);
    sub.unsubscribe();
  });

  it('syncs a pod on its runtime events and on probe results (readiness and startup recorded first)', () => {
    const clock = new VirtualClock();
    const r = recorder();
    const pleg$ = new Subject<{ podUid: string }>();
    const probes$ = new Subject<ProbeResultUpdate>();
    const sub = syncLoop(r.handler, {
      updates$: new Subject(),
      sources: [],
      podLifecycleEvents$: pleg$,
      probeResults$: probes$,
      scheduler: clock.scheduler,
    }).subscribe();
    pleg$.next({ podUid: 'a' });
    pleg$.next({ podUid: 'unknown' });
    const probe = (probeType: ProbeResultUpdate['probeType'], result: string): ProbeResultUpdate => ({
      probeType,
      podUid: 'b',
      containerName: 'c',
      containerId: 'process://1',
      result,
    });
    probes$.next(probe('liveness', 'Success'));
    probes$.next(probe('liveness', 'Failure'));
    probes$.next(probe('readiness', 'Success'));
    probes$.next(probe('startup', 'Failure'));
    expect(r.calls).toEqual([
      'sync:a',
      'sync:b',
      'probe:readiness:b:Success',
      'sync:b',
      'probe:startup:b:Failure',
      'sync:b',
    ]);
    sub.unsubscribe();
  });

  it('leaves no timer behind after unsubscribe', () => {
    const clock = new VirtualClock();
    const r = recorder();
    const sub = syncLoop(r.handler, {
      updates$: new Subject(),
      sources: [],
      scheduler: clock.scheduler,
    }).subscribe();
    expect(clock.pending).toBeGreaterThan(0);
    sub.unsubscribe();
    expect(clock.pending).toBe(0);
  });
});
