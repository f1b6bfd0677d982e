// Properties of nodeLifecycleController in virtual time: per zone, new NoExecute taints never come faster than --node-eviction-rate allows, and a node whose Lease keeps being renewed is never tainted NoExecute.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../../operators/api/core-v1.ts';
import { at, readyAt, virtualNodeLifecycle } from './virtual-node-lifecycle.ts';

const node = (name: string, zone: string): Node => ({
  metadata: {
    name,
    creationTimestamp: at(0),
    labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': zone },
  },
  spec: {},
  status: { conditions: [readyAt(0)] },
});
const noExecute = (n: Node) => (n.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute').length > 0;

describe('nodeLifecycleController properties (virtual time)', () => {
  it('new NoExecute taints in a zone are at least 1 / --node-eviction-rate apart; live nodes are never tainted', async () => {
    let spaced = 0; // zones in which two or more nodes were tainted: the spacing was really put to the test
    await fc.assert(
      fc.asyncProperty(
        // per node: its zone and when its kubelet stops (undefined: never)
        fc.array(
          fc.record({
            zone: fc.constantFrom('a', 'b'),
            stopsAt: fc.option(
              fc.integer({ min: 0, max: 30 }).map((s) => s * 1_000),
              { nil: undefined },
            ),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.constantFrom(0.1, 0.2),
        async (spec, rate) => {
          const nodes = [...spec.map((s, i) => node(`n${i}`, s.zone)), node('keeper', 'c')];
          const h = virtualNodeLifecycle(nodes, [], { nodeEvictionRate: rate });
          try {
            for (const n of nodes) h.alive.add(n.metadata.name ?? '');
            for (let t = 0; t < 120_000; t += 5_000) {
              spec.forEach((s, i) => {
                if (s.stopsAt !== undefined && s.stopsAt <= t) h.alive.delete(`n${i}`);
              });
              await h.run(5_000);
            }
            const tainted = new Map<string, boolean>();
            const added = new Map<string, number[]>();
            for (const w of h.writes.filter((w) => w.verb === 'update nodes')) {
              const n = w.object as Node;
              const name = n.metadata.name ?? '';
              if (noExecute(n) && !tainted.get(name)) {
                const zone = n.metadata.labels?.['topology.kubernetes.io/zone'] ?? '';
                added.set(zone, [...(added.get(zone) ?? []), w.at]);
              }
              tainted.set(name, noExecute(n));
            }
            for (const times of added.values()) {
              if (times.length >= 2) spaced++;
              for (let i = 1; i < times.length; i++) {
                expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000 / rate - 1);
              }
            }
            spec.forEach((s, i) => {
              if (s.stopsAt === undefined) expect(tainted.get(`n${i}`) ?? false).toBe(false);
            });
            expect(tainted.get('keeper') ?? false).toBe(false);
          } finally {
            h.stop();
          }
        },
      ),
      {
        numRuns: 12,
        // one case sure to taint several nodes of a zone
        examples: [
          [
            [
              { zone: 'a', stopsAt: 0 },
              { zone: 'a', stopsAt: 0 },
              { zone: 'a', stopsAt: 0 },
              { zone: 'b', stopsAt: undefined },
            ],
            0.1,
          ],
        ],
      },
    );
    expect(spaced).toBeGreaterThan(0);
  }, 120_000);
});
