// taintEvictionController in virtual time over in-memory informers: deletion at once, after tolerationSeconds, cancelled when the taint or the pod goes, and on teardown.
import { of, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Node, Pod, Taint } from '../../../../operators/api/core-v1.ts';
import type { ReflectorEvent } from '../../../../operators/types.ts';
import {
  type TaintEviction,
  taintEvictionController,
} from '../../../../src/controllers/taint-eviction/taint-eviction-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { type SharedInformer, sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient } from '../../../../streams/api-client.ts';

const UNREACHABLE: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const node = (taints: Taint[]): Node => ({ metadata: { name: 'n1' }, spec: { taints } });
const pod = (name: string, tolerationSeconds?: number): Pod => ({
  metadata: { name, namespace: 'default', uid: name },
  spec: {
    nodeName: 'n1',
    containers: [{ name: 'c', image: 'busybox' }],
    tolerations:
      tolerationSeconds === undefined
        ? []
        : [{ key: UNREACHABLE.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds }],
  },
});

describe('taintEvictionController (virtual time)', () => {
  let clock: VirtualClock;
  let nodes$: Subject<ReflectorEvent<Node>>;
  let pods$: Subject<ReflectorEvent<Pod>>;
  let informers: SharedInformer[];
  let deletes: string[];
  let events: string[];
  let evictions: TaintEviction[];
  let stop: () => void;

  beforeEach(() => {
    clock = new VirtualClock();
    nodes$ = new Subject();
    pods$ = new Subject();
    deletes = [];
    events = [];
    evictions = [];
    const nodeInformer = sharedInformer<Node>({
      source: nodes$,
      scheduler: clock.scheduler,
    });
    const podInformer = sharedInformer<Pod>({ source: pods$, scheduler: clock.scheduler });
    informers = [nodeInformer, podInformer] as SharedInformer[];
    const factory = {
      forResource: (resource: { plural: string }) =>
        resource.plural === 'nodes' ? nodeInformer : podInformer,
    } as unknown as InformerFactory;
    const client = {
      patch: () => of({}),
      delete: (_r: unknown, name: string) => {
        deletes.push(`${name}@${clock.now()}`);
        return of({});
      },
      create: (_r: unknown, event: { message: string }) => {
        events.push(event.message);
        return of(event);
      },
    } as unknown as ApiClient;
    const sub = taintEvictionController({
      client,
      informerFactory: factory,
      scheduler: clock.scheduler,
    }).subscribe((e) => evictions.push(e));
    const holds = informers.map((i) => i.start());
    nodes$.next({ type: 'Replace', items: [node([])], resourceVersion: '1' });
    pods$.next({ type: 'Replace', items: [], resourceVersion: '1' });
    stop = () => {
      sub.unsubscribe();
      for (const h of holds) h.unsubscribe();
    };
  });
  afterEach(() => stop());

  /** Lets the informers deliver (their handoffs are promise-based), then moves virtual time. */
  const settle = async (ms = 0) => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    clock.advance(ms);
    await new Promise((r) => setImmediate(r));
  };

  it('deletes a pod that does not tolerate the taint at once', async () => {
    pods$.next({ type: 'Added', object: pod('intolerant') });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle();
    expect(deletes).toEqual(['intolerant@0']);
    expect(evictions).toEqual([{ pod: 'default/intolerant', deleted: true }]);
    expect(events).toContain('Marking for deletion Pod default/intolerant');
  });

  it('deletes a pod tolerating for 2 s after 2 s, not before', async () => {
    pods$.next({ type: 'Added', object: pod('tolerant', 2) });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle(1999);
    expect(deletes).toEqual([]);
    await settle(1);
    expect(deletes).toEqual(['tolerant@2000']);
  });

  it('keeps the plan already made when the tolerations change meanwhile (its start stays)', async () => {
    pods$.next({ type: 'Added', object: pod('tolerant', 2) });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle(1500);
    pods$.next({ type: 'Updated', object: pod('tolerant', 10) });
    await settle(500);
    expect(deletes).toEqual(['tolerant@2000']);
  });

  it('does not plan a deletion again when only the pod status changes (e.g. its DisruptionTarget condition)', async () => {
    pods$.next({ type: 'Added', object: pod('intolerant') });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle();
    const marked: Pod = {
      ...pod('intolerant'),
      status: { conditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    };
    pods$.next({ type: 'Updated', object: marked });
    await settle(10_000);
    expect(deletes).toEqual(['intolerant@0']);
    expect(events.filter((e) => e.startsWith('Marking'))).toHaveLength(1);
  });

  it('cancels the deletion when the taint goes, with an Event', async () => {
    pods$.next({ type: 'Added', object: pod('tolerant', 2) });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle(1000);
    nodes$.next({ type: 'Updated', object: node([]) });
    await settle(5000);
    expect(deletes).toEqual([]);
    expect(events).toEqual(['Cancelling deletion of Pod default/tolerant']);
  });

  it('cancels the deletion when the pod goes', async () => {
    pods$.next({ type: 'Added', object: pod('tolerant', 2) });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle(1000);
    pods$.next({ type: 'Deleted', object: pod('tolerant', 2) });
    await settle(5000);
    expect(deletes).toEqual([]);
  });

  it('never deletes a pod tolerating without tolerationSeconds', async () => {
    const forever = pod('forever');
    forever.spec.tolerations = [{ key: UNREACHABLE.key, operator: 'Exists', effect: 'NoExecute' }];
    pods$.next({ type: 'Added', object: forever });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle(3_600_000);
    expect(deletes).toEqual([]);
  });

  it('cancels every planned deletion on teardown', async () => {
    pods$.next({ type: 'Added', object: pod('tolerant', 2) });
    await settle();
    nodes$.next({ type: 'Updated', object: node([UNREACHABLE]) });
    await settle(1000);
    stop();
    stop = () => {};
    await settle(5000);
    expect(deletes).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});
