// Properties of DefaultPreemption: victims always have lower priority than the preemptor, and without them the preemptor fits the node.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { makeNode, makePod } from './cluster.ts';
import { pdb, preemptionBench } from './preemption-cluster.ts';

const clusterArb = fc.integer({ min: 1, max: 4 }).chain((numNodes) =>
  fc.record({
    nodeCpus: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: numNodes, maxLength: numNodes }),
    pods: fc.array(
      fc.record({
        node: fc.integer({ min: 0, max: numNodes - 1 }),
        cpu: fc.integer({ min: 1, max: 4 }),
        priority: fc.integer({ min: 0, max: 20 }),
        group: fc.constantFrom('g1', 'g2'),
        startYear: fc.integer({ min: 2015, max: 2025 }),
      }),
      { maxLength: 14 },
    ),
    preemptor: fc.record({ cpu: fc.integer({ min: 1, max: 8 }), priority: fc.integer({ min: 0, max: 20 }) }),
    budgets: fc.record({ g1: fc.integer({ min: 0, max: 2 }), g2: fc.integer({ min: 0, max: 2 }) }),
    offset: fc.nat(),
  }),
);

describe('DefaultPreemption properties', () => {
  it.each([
    { fit: 'the bench’s resource fit', realFit: false },
    { fit: 'NodeResourcesFit', realFit: true },
  ])(
    'with $fit: never picks a victim of priority >= the preemptor’s, and without the victims the preemptor fits; no candidate means no node could help',
    async ({ realFit }) => {
      const seen = { chosen: 0, none: 0 };
      await fc.assert(
        fc.asyncProperty(clusterArb, async ({ nodeCpus, pods, preemptor, budgets, offset }) => {
          const nodes = nodeCpus.map((cpu, i) => makeNode(`n${i}`, {}, { cpu: String(cpu) }));
          const podObjs: Pod[] = pods.map((p, i) =>
            makePod(`p${i}`, {
              node: `n${p.node}`,
              cpu: String(p.cpu),
              priority: p.priority,
              labels: { group: p.group },
              startTime: `${p.startYear}-01-01T00:00:00Z`,
            }),
          );
          const incoming = makePod('preemptor', { cpu: String(preemptor.cpu), priority: preemptor.priority });
          const bench = preemptionBench({
            nodes,
            pods: podObjs,
            known: [incoming],
            pdbs: [pdb('g1', { group: 'g1' }, budgets.g1), pdb('g2', { group: 'g2' }, budgets.g2)],
            random: (n) => offset % n,
            realFit,
          });
          const { state, statuses } = bench.filterAll(incoming);
          const out = await bench.plugin.postFilter(state, incoming, statuses);
          const fitsWithout = (node: number, removed: (p: Pod) => boolean) => {
            const info = new NodeInfo(
              nodes[node]!,
              podObjs.filter((p) => p.spec.nodeName === `n${node}` && !removed(p)),
            );
            return bench.framework.runFilterPlugins(state, incoming, info) === undefined;
          };
          const chosen = out.result?.nominatingInfo?.nominatedNodeName;
          if (chosen) {
            seen.chosen++;
            const deleted = new Set(bench.calls.filter((c) => c.verb === 'deletePod').map((c) => c.pod));
            const victims = podObjs.filter((p) => deleted.has(p.metadata.name!));
            expect(victims.length).toBeGreaterThan(0);
            for (const v of victims) {
              expect(v.spec.priority!).toBeLessThan(preemptor.priority);
              expect(v.spec.nodeName).toBe(chosen);
            }
            expect(fitsWithout(Number(chosen.slice(1)), (p) => deleted.has(p.metadata.name!))).toBe(true);
            expect(out.status).toBeUndefined();
          } else {
            seen.none++;
            expect(out.status?.code).toBe('Unschedulable');
            // No node where Filter rejected the pod (plain Unschedulable) fits after removing every lower-priority pod.
            nodes.forEach((_, i) => {
              if (statuses.statuses.get(`n${i}`)?.code !== 'Unschedulable') return;
              const lower = (p: Pod) => (p.spec.priority ?? 0) < preemptor.priority;
              const anyLower = podObjs.some((p) => p.spec.nodeName === `n${i}` && lower(p));
              expect(anyLower && fitsWithout(i, lower)).toBe(false);
            });
          }
        }),
        { numRuns: 300 },
      );
      // Both outcomes were exercised.
      expect(seen.chosen).toBeGreaterThan(0);
      expect(seen.none).toBeGreaterThan(0);
    },
  );
});
