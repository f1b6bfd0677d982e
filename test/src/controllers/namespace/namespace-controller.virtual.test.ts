// The namespace controller in virtual time: the wait before each pass, the requeue after half the pods' grace estimate, finalize, and a namespace already gone.
import { of, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Namespace } from '../../../../operators/controller/namespace/namespace-types.ts';
import type { ReconcileOutcome } from '../../../../operators/reconcile.ts';
import type { KubeObject, ReflectorEvent } from '../../../../operators/types.ts';
import { namespaceController } from '../../../../src/controllers/namespace/namespace-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';

const ALL = ['get', 'list', 'delete', 'deletecollection'];

/** Runs the controller over one namespace, deleted at time 0, whose pods (grace 30 s) are gone at `podsGoneAt`. */
function run(podsGoneAt: number) {
  const clock = new VirtualClock();
  const namespaces$ = new Subject<ReflectorEvent<Namespace>>();
  let stored: Namespace | undefined = {
    metadata: { name: 'team', uid: 'u1', resourceVersion: '1', deletionTimestamp: new Date(0).toISOString() },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Terminating' },
  };
  let rv = 1;
  const writes: { what: string; at: number }[] = [];
  const write = (what: string) => (_r: ResourceDescriptor, object: KubeObject) => {
    writes.push({ what, at: clock.now() });
    stored = { ...(object as Namespace), metadata: { ...object.metadata, resourceVersion: String(++rv) } };
    if (what === 'finalize') {
      namespaces$.next({ type: 'Deleted', object: stored });
      const gone = stored;
      stored = undefined;
      return of(gone);
    }
    namespaces$.next({ type: 'Updated', object: stored });
    return of(stored);
  };
  const pods = (): Pod[] =>
    clock.now() < podsGoneAt
      ? [
          {
            metadata: { name: 'p', namespace: 'team' },
            spec: { containers: [], terminationGracePeriodSeconds: 30 },
            status: { phase: 'Running' },
          },
        ]
      : [];
  const client = {
    get: () => of(stored),
    list: (r: ResourceDescriptor) => of({ items: r.plural === 'pods' ? pods() : [] }),
    deleteCollection: () => of({ kind: 'Status' }),
    updateStatus: write('status'),
    update: (r: ResourceDescriptor, o: KubeObject, options: { subresource?: string }) =>
      write(options.subresource ?? 'update')(r, o),
    serverPreferredResources: () =>
      of({
        lists: [
          { groupVersion: 'v1', resources: [{ name: 'pods', namespaced: true, kind: 'Pod', verbs: ALL }] },
        ],
        failed: [],
      }),
  } as unknown as ApiClient;
  const informer = sharedInformer<Namespace>({ source: namespaces$, scheduler: clock.scheduler });
  const factory = { forResource: () => informer } as unknown as InformerFactory;
  const outcomes: (ReconcileOutcome<string> & { at: number })[] = [];
  const sub = namespaceController({ client, informerFactory: factory, scheduler: clock.scheduler }).subscribe(
    (o) => outcomes.push({ ...o, at: clock.now() }),
  );
  const hold = informer.start();
  namespaces$.next({ type: 'Replace', items: stored ? [stored] : [], resourceVersion: '1' });
  const flush = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    writes,
    outcomes,
    async advance(ms: number) {
      const end = clock.now() + ms;
      while (clock.now() < end) {
        await flush();
        clock.advance(Math.min(500, end - clock.now()));
        await flush();
      }
    },
    stop() {
      sub.unsubscribe();
      hold.unsubscribe();
    },
  };
}

describe('namespaceController in virtual time', () => {
  it('waits 5 s, then looks again after half the pods’ grace estimate plus a second, then finalizes', async () => {
    const c = run(20_000);
    await c.advance(4_500);
    expect(c.outcomes).toEqual([]);
    await c.advance(1_000);
    // first pass at 5 s: pods remain (estimate 30 s); the conditions written make an update, seen 5 s later
    expect(c.outcomes.map((o) => [o.at, o.outcome, o.requeueAfterMs])).toEqual([
      [5_000, 'requeueAfter', 16_000],
    ]);
    expect(c.writes).toEqual([{ what: 'status', at: 5_000 }]);
    await c.advance(25_000);
    // 10 s: nothing changed, 16 s more; 26 s: pods gone, conditions cleared, finalized
    expect(c.outcomes.map((o) => [o.at, o.outcome, o.requeueAfterMs])).toEqual([
      [5_000, 'requeueAfter', 16_000],
      [10_000, 'requeueAfter', 16_000],
      [26_000, 'done', undefined],
    ]);
    expect(c.writes.map((w) => [w.what, w.at])).toEqual([
      ['status', 5_000],
      ['status', 26_000],
      ['finalize', 26_000],
    ]);
    c.stop();
  });

  it('a namespace whose pods have had their grace period is finalized on the first pass', async () => {
    const c = run(0);
    await c.advance(6_000);
    expect(c.outcomes.map((o) => [o.at, o.outcome])).toEqual([[5_000, 'done']]);
    expect(c.writes.map((w) => w.what)).toEqual(['status', 'finalize']);
    // the status write queued one more look: the namespace is gone by then
    await c.advance(6_000);
    expect(c.outcomes.map((o) => [o.at, o.outcome])).toEqual([
      [5_000, 'done'],
      [10_000, 'done'],
    ]);
    expect(c.writes).toHaveLength(2);
    c.stop();
  });
});
