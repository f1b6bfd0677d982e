// SchedulerCache properties: after any sequence of node and pod operations, the incremental snapshot equals a fresh one and every NodeInfo's sums match its pods.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import { SchedulerCache } from '../../../../src/scheduler/cache/scheduler-cache.ts';
import { Snapshot } from '../../../../src/scheduler/cache/snapshot.ts';

const NODE_NAMES = ['n0', 'n1', 'n2', 'n3'];
const ZONES = ['a', 'b', ''];

const node = (name: string, zone: string, cpu: number): Node => ({
  metadata: { name, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} },
  spec: {},
  status: {
    allocatable: { cpu: String(cpu), pods: '110' },
    images: [{ names: [`img-${name}`, 'shared'], sizeBytes: 10 }],
  },
});
const pod = (id: number, nodeName: string, milli: number): Pod => ({
  metadata: { name: `p${id}`, namespace: 'ns', uid: `u${id}` },
  spec: { nodeName, containers: [{ name: 'c', resources: { requests: { cpu: `${milli}m` } } }] },
});

type Op =
  | { op: 'addNode'; name: string; zone: string; cpu: number }
  | { op: 'removeNode'; name: string }
  | { op: 'assume' | 'add' | 'remove' | 'forget' | 'finish'; id: number; node: string; milli: number }
  | { op: 'update'; id: number; milli: number }
  | { op: 'snapshot' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('addNode' as const),
    name: fc.constantFrom(...NODE_NAMES),
    zone: fc.constantFrom(...ZONES),
    cpu: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({ op: fc.constant('removeNode' as const), name: fc.constantFrom(...NODE_NAMES) }),
  fc.record({
    op: fc.constantFrom(
      'assume' as const,
      'add' as const,
      'remove' as const,
      'forget' as const,
      'finish' as const,
    ),
    id: fc.integer({ min: 0, max: 5 }),
    node: fc.constantFrom(...NODE_NAMES),
    milli: fc.integer({ min: 0, max: 900 }),
  }),
  fc.record({
    op: fc.constant('update' as const),
    id: fc.integer({ min: 0, max: 5 }),
    milli: fc.integer({ min: 0, max: 900 }),
  }),
  fc.record({ op: fc.constant('snapshot' as const) }),
);

function apply(cache: SchedulerCache, snap: Snapshot, o: Op): void {
  switch (o.op) {
    case 'addNode':
      cache.addNode(node(o.name, o.zone, o.cpu));
      return;
    case 'removeNode':
      cache.removeNode(node(o.name, '', 1));
      return;
    case 'assume':
      cache.assumePod(pod(o.id, o.node, o.milli));
      return;
    case 'add':
      cache.addPod(pod(o.id, o.node, o.milli));
      return;
    case 'remove': {
      const cached = cache.getPod(pod(o.id, o.node, 0));
      cache.removePod(cached ?? pod(o.id, o.node, o.milli));
      return;
    }
    case 'forget':
      cache.forgetPod(cache.getPod(pod(o.id, o.node, 0)) ?? pod(o.id, o.node, o.milli));
      return;
    case 'finish':
      cache.finishBinding(pod(o.id, o.node, o.milli));
      return;
    case 'update': {
      const cached = cache.getPod(pod(o.id, '', 0));
      if (cached) cache.updatePod(cached, pod(o.id, cached.spec.nodeName!, o.milli));
      return;
    }
    case 'snapshot':
      cache.updateSnapshot(snap);
  }
}

const view = (s: Snapshot) =>
  s.list().map((i) => ({
    name: i.name,
    pods: i.pods.map((p) => p.pod.metadata.name).sort(),
    cpu: i.requested.milliCPU,
    alloc: i.allocatable.milliCPU,
    images: i.imageStates,
  }));

describe('SchedulerCache properties', () => {
  it('the incremental snapshot always equals a fresh snapshot of the cache', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const cache = new SchedulerCache();
        const snap = new Snapshot();
        for (const o of ops) apply(cache, snap, o);
        cache.updateSnapshot(snap);
        const fresh = new Snapshot();
        cache.updateSnapshot(fresh);
        expect(view(snap)).toEqual(view(fresh));
        expect(snap.list().length).toBe(cache.nodeCount());
        expect(snap.list().every((i) => i.node !== undefined)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('every NodeInfo’s requested cpu is the sum over its pods, and each pod is on exactly one node', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const cache = new SchedulerCache();
        const snap = new Snapshot();
        for (const o of ops) apply(cache, snap, o);
        const seen = new Map<string, string>();
        for (const name of NODE_NAMES) {
          const info = cache.nodeInfo(name);
          if (!info) continue;
          const sum = info.pods.reduce((n, p) => n + p.requests.milliCPU, 0);
          expect(info.requested.milliCPU).toBe(sum);
          for (const p of info.pods) {
            expect(seen.has(p.pod.metadata.uid!)).toBe(false);
            seen.set(p.pod.metadata.uid!, name);
          }
          expect(info.node !== undefined || info.pods.length > 0).toBe(true);
        }
        expect(seen.size).toBe(cache.podCount());
      }),
      { numRuns: 300 },
    );
  });
});
