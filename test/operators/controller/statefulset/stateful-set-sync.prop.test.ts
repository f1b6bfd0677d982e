// planStatefulSetSync's contract as a model-based property: any interleaving of syncs, kubelet progress, failures, deletions, scaling, template changes and time never yields two pods of one ordinal, and under OrderedReady never creates ordinal n+1 before n is Running and Ready.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { isPodReady } from '../../../../operators/controller/pod-deletion-order.ts';
import { parentAndOrdinal } from '../../../../operators/controller/statefulset/stateful-pod-identity.ts';
import { FakeCluster, makeSet, withPhase } from './fixtures.ts';

type Step =
  | { t: 'sync' }
  | { t: 'run'; pod: number; ready: boolean }
  | { t: 'fail'; pod: number }
  | { t: 'gone' }
  | { t: 'scale'; replicas: number }
  | { t: 'image'; image: string }
  | { t: 'tick'; seconds: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant<Step>({ t: 'sync' }), weight: 4 },
  {
    arbitrary: fc.record({ t: fc.constant('run' as const), pod: fc.nat(6), ready: fc.boolean() }),
    weight: 3,
  },
  { arbitrary: fc.record({ t: fc.constant('fail' as const), pod: fc.nat(6) }), weight: 1 },
  { arbitrary: fc.constant<Step>({ t: 'gone' }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('scale' as const), replicas: fc.nat(6) }), weight: 1 },
  {
    arbitrary: fc.record({ t: fc.constant('image' as const), image: fc.constantFrom('a', 'b', 'c') }),
    weight: 1,
  },
  { arbitrary: fc.record({ t: fc.constant('tick' as const), seconds: fc.nat(20) }), weight: 1 },
);

const healthy = (p: Pod | undefined) =>
  p !== undefined && p.status?.phase === 'Running' && isPodReady(p) && !p.metadata.deletionTimestamp;

describe('planStatefulSetSync properties', () => {
  it.each(['OrderedReady', 'Parallel'])(
    'under %s: one pod per ordinal; OrderedReady creates n+1 only after n is Running and Ready',
    (policy) => {
      fc.assert(
        fc.property(
          fc.nat(4),
          fc.nat(2),
          fc.nat(3),
          fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
          fc.array(step, { maxLength: 60 }),
          (replicas, start, minReadySeconds, maxUnavailable, steps) => {
            const rollingUpdate = { partition: 0, ...(maxUnavailable ? { maxUnavailable } : {}) };
            const c = new FakeCluster(
              makeSet(replicas, {
                podManagementPolicy: policy,
                ordinals: { start },
                minReadySeconds,
                updateStrategy: { type: 'RollingUpdate', rollingUpdate },
              }),
            );
            const nameOf = (i: number) => `web-${start + i}`;
            for (const s of steps) {
              if (s.t === 'sync') {
                const before = new Map(c.pods);
                const plan = c.sync();
                const creates = plan.actions.filter((a) => a.type === 'create');
                for (const a of creates) {
                  const { ordinal } = parentAndOrdinal(a.pod);
                  // never a second pod for an ordinal that has one, terminating or not
                  expect(before.has(a.pod.metadata.name ?? '')).toBe(false);
                  if (policy === 'OrderedReady') {
                    expect(creates).toHaveLength(1);
                    for (let o = start; o < ordinal; o++) expect(healthy(before.get(`web-${o}`))).toBe(true);
                  }
                }
              } else if (s.t === 'run') c.run(nameOf(s.pod), s.ready);
              else if (s.t === 'fail') {
                const p = c.pods.get(nameOf(s.pod));
                if (p) c.pods.set(nameOf(s.pod), withPhase(p, 'Failed', false));
              } else if (s.t === 'gone') c.finishDeletions();
              else if (s.t === 'scale') c.set = { ...c.set, spec: { ...c.set.spec, replicas: s.replicas } };
              else if (s.t === 'image') {
                const t = structuredClone(c.set.spec.template!);
                t.spec!.containers[0]!.image = s.image;
                c.set = { ...c.set, spec: { ...c.set.spec, template: t } };
              } else c.now += s.seconds * 1000;
              const ordinals = [...c.pods.values()].map((p) => parentAndOrdinal(p).ordinal);
              expect(new Set(ordinals).size).toBe(ordinals.length);
            }
            // left alone, the set converges to exactly its replicas, all of the latest template
            for (let i = 0; i < 40; i++) {
              c.settle();
              c.now += 60_000;
              c.sync();
            }
            const want = c.set.spec.replicas ?? 1;
            expect(c.names()).toEqual(Array.from({ length: want }, (_, i) => nameOf(i)));
            const image = c.set.spec.template?.spec?.containers[0]?.image;
            for (const p of c.pods.values()) expect(p.spec.containers[0]?.image).toBe(image);
            expect(c.set.status?.currentRevision).toBe(c.set.status?.updateRevision);
          },
        ),
        { numRuns: 200 },
      );
    },
  );
});
