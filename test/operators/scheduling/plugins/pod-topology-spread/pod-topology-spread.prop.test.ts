// Property: for any cluster, PodTopologySpread's Filter accepts exactly the nodes where the DoNotSchedule skew stays within maxSkew.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import { podTopologySpreadFactory } from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import { bareNode, makeCluster, makePod } from '../default-preemption/cluster.ts';

const nodeArb = fc.record({ zone: fc.option(fc.constantFrom('z1', 'z2', 'z3'), { nil: undefined }) });
const podArb = (nodes: number) =>
  fc.record({
    node: fc.integer({ min: 0, max: nodes - 1 }),
    matches: fc.boolean(),
    otherNamespace: fc.boolean(),
    terminating: fc.boolean(),
  });

describe('PodTopologySpread properties', () => {
  it('Filter passes a node iff its domain count + self - global minimum <= maxSkew (so no placement exceeds maxSkew)', () => {
    const seen = { pass: 0, fail: 0 };
    fc.assert(
      fc.property(
        fc.array(nodeArb, { minLength: 1, maxLength: 6 }).chain((nodes) =>
          fc.record({
            nodes: fc.constant(nodes),
            pods: fc.array(podArb(nodes.length), { maxLength: 20 }),
            key: fc.constantFrom('zone', 'host'),
            maxSkew: fc.integer({ min: 1, max: 3 }),
            minDomains: fc.integer({ min: 1, max: 4 }),
            selfMatch: fc.boolean(),
          }),
        ),
        ({ nodes, pods, key, maxSkew, minDomains, selfMatch }) => {
          const nodeObjs = nodes.map((n, i) =>
            bareNode(`n${i}`, { host: `n${i}`, ...(n.zone ? { zone: n.zone } : {}) }),
          );
          const podObjs: Pod[] = pods.map((p, i) =>
            makePod(`p${i}`, {
              node: `n${p.node}`,
              labels: p.matches ? { app: 'web' } : { app: 'other' },
              ns: p.otherNamespace ? 'elsewhere' : 'default',
              deleting: p.terminating,
            }),
          );
          const incoming = makePod('incoming', {
            labels: selfMatch ? { app: 'web' } : { app: 'batch' },
            spread: [
              {
                maxSkew,
                minDomains,
                topologyKey: key,
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { app: 'web' } },
              },
            ],
          });
          const { framework, snapshot, newState } = makeCluster({
            nodes: nodeObjs,
            pods: podObjs,
            registry: { PodTopologySpread: podTopologySpreadFactory() },
            preFilter: ['PodTopologySpread'],
            filter: ['PodTopologySpread'],
          });
          const state = newState();
          framework.runPreFilterPlugins(state, incoming);

          // The naive model: count matching pods per domain over the nodes that have the key.
          const domainOf = (i: number) => nodeObjs[i]!.metadata.labels?.[key];
          const counts = new Map<string, number>();
          nodeObjs.forEach((_, i) => {
            const d = domainOf(i);
            if (d !== undefined) counts.set(d, counts.get(d) ?? 0);
          });
          for (const p of pods) {
            const d = domainOf(p.node);
            if (d === undefined || !p.matches || p.otherNamespace || p.terminating) continue;
            counts.set(d, (counts.get(d) ?? 0) + 1);
          }
          const globalMin = counts.size < minDomains ? 0 : Math.min(...counts.values());
          nodeObjs.forEach((_, i) => {
            const status = framework.runFilterPlugins(state, incoming, snapshot.get(`n${i}`)!);
            const d = domainOf(i);
            if (d === undefined) {
              expect(status?.code).toBe('UnschedulableAndUnresolvable');
              return;
            }
            const skewAfter = counts.get(d)! + (selfMatch ? 1 : 0) - globalMin;
            expect(status === undefined).toBe(skewAfter <= maxSkew);
            if (status === undefined) seen.pass++;
            else seen.fail++;
          });
        },
      ),
      { numRuns: 300 },
    );
    // Both verdicts were exercised.
    expect(seen.pass).toBeGreaterThan(0);
    expect(seen.fail).toBeGreaterThan(0);
  });
});
