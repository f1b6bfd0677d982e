// Properties of replicaDiff and replicaSetStatus: one sync moves the pod count toward spec.replicas by at most the burst, deletes only its own distinct pods, and the status counts nest.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { replicaDiff } from '../../../../operators/controller/replicaset/replica-diff.ts';
import { replicaSetStatus } from '../../../../operators/controller/replicaset/replica-set-status.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';

const NOW = Date.parse('2024-06-01T00:00:00Z');

const arbPod = (i: number) =>
  fc
    .record({
      node: fc.constantFrom('', 'n1', 'n2', 'n3'),
      phase: fc.constantFrom('Pending', 'Running', 'Unknown'),
      ready: fc.boolean(),
      readyAgoS: fc.integer({ min: 0, max: 7200 }),
      createdAgoS: fc.integer({ min: 0, max: 86_400 }),
      cost: fc.option(fc.integer({ min: -10, max: 10 }), { nil: undefined }),
      restarts: fc.nat(5),
      fullyLabeled: fc.boolean(),
    })
    .map(
      (p): Pod => ({
        metadata: {
          name: `p${i}`,
          namespace: 'default',
          uid: `uid-${i}`,
          labels: p.fullyLabeled ? { app: 'a', tier: 'web' } : { app: 'a' },
          creationTimestamp: new Date(NOW - p.createdAgoS * 1000).toISOString(),
          ...(p.cost !== undefined
            ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(p.cost) } }
            : {}),
        },
        spec: { containers: [], ...(p.node ? { nodeName: p.node } : {}) },
        status: {
          phase: p.phase,
          conditions: [
            {
              type: 'Ready',
              status: p.ready ? 'True' : 'False',
              lastTransitionTime: new Date(NOW - p.readyAgoS * 1000).toISOString(),
            },
          ],
          containerStatuses: [
            { name: 'c', ready: p.ready, restartCount: p.restarts, image: 'i', imageID: '' },
          ],
        },
      }),
    );
const arbPods = fc.nat(12).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbPod(i))));
const rs = (replicas: number, minReadySeconds = 0): ReplicaSet => ({
  metadata: { name: 'rs', namespace: 'default', generation: 1 },
  spec: {
    replicas,
    minReadySeconds,
    selector: { matchLabels: { app: 'a' } },
    template: { metadata: { labels: { app: 'a', tier: 'web' } } },
  },
});

describe('replicaDiff properties', () => {
  it('moves toward spec.replicas by at most the burst, never both ways, deleting distinct pods of its own', () => {
    fc.assert(
      fc.property(arbPods, fc.nat(15), fc.integer({ min: 1, max: 6 }), (pods, replicas, burst) => {
        const out = replicaDiff({ rs: rs(replicas), active: pods, now: NOW, burstReplicas: burst });
        expect(out.create === 0 || out.delete.length === 0).toBe(true);
        const after = pods.length + out.create - out.delete.length;
        expect(Math.abs(after - replicas)).toBe(Math.max(0, Math.abs(pods.length - replicas) - burst));
        expect(new Set(out.delete).size).toBe(out.delete.length);
        for (const p of out.delete) expect(pods).toContain(p);
      }),
    );
  });

  it('deletes a prefix of a stable ranking: asking for one more keeps the earlier choices', () => {
    fc.assert(
      fc.property(arbPods, fc.nat(11), (pods, keep) => {
        // both ask for fewer than all (deleting every pod takes them unranked, in list order, as upstream)
        fc.pre(keep >= 1 && keep + 1 < pods.length);
        const fewer = replicaDiff({ rs: rs(keep + 1), active: pods, now: NOW }).delete;
        const more = replicaDiff({ rs: rs(keep), active: pods, now: NOW }).delete;
        expect(more.slice(0, fewer.length).map((p) => p.metadata.name)).toEqual(
          fewer.map((p) => p.metadata.name),
        );
      }),
    );
  });
});

describe('replicaSetStatus properties', () => {
  it('counts nest: available ≤ ready ≤ replicas, fullyLabeled ≤ replicas', () => {
    fc.assert(
      fc.property(arbPods, fc.nat(15), fc.nat(3600), (pods, replicas, minReady) => {
        const s = replicaSetStatus(rs(replicas, minReady), pods, undefined, NOW);
        expect(s.replicas).toBe(pods.length);
        expect(s.availableReplicas).toBeLessThanOrEqual(s.readyReplicas ?? 0);
        expect(s.readyReplicas).toBeLessThanOrEqual(s.replicas);
        expect(s.fullyLabeledReplicas).toBeLessThanOrEqual(s.replicas);
      }),
    );
  });
});
