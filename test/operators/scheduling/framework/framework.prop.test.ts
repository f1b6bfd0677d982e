// Properties of the framework runner: Filter is "first rejection wins, stamped", PreFilter node sets intersect, weighted totals add up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { newFramework } from '../../../../operators/scheduling/framework/framework.ts';
import type {
  Plugin,
  PluginFactory,
  Registry,
} from '../../../../operators/scheduling/framework/interface.ts';
import { newPodInfo } from '../../../../operators/scheduling/framework/node-info.ts';
import type { Code } from '../../../../operators/scheduling/framework/status.ts';
import { newStatus } from '../../../../operators/scheduling/framework/status.ts';
import { inTreeRegistry } from '../../../../operators/scheduling/plugins/registry.ts';
import { container, fakeDeps, makeNode, makePod, newState, nodeInfo } from './fixtures.ts';

const pod: Pod = makePod('p');
const codes: Code[] = ['Success', 'Unschedulable', 'UnschedulableAndUnresolvable', 'Error', 'Skip'];

describe('framework runner properties', () => {
  it('Filter: the first non-success in order wins, stamped with its plugin; later plugins are not run', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Code>('Success', 'Unschedulable', 'UnschedulableAndUnresolvable', 'Error'), {
          minLength: 1,
          maxLength: 6,
        }),
        (outcomes) => {
          const ran: number[] = [];
          const registry: Record<string, PluginFactory> = {};
          outcomes.forEach((code, i) => {
            registry[`P${i}`] = () =>
              ({
                name: `P${i}`,
                filter: () => {
                  ran.push(i);
                  return code === 'Success' ? undefined : newStatus(code, `reason ${i}`);
                },
              }) as Plugin;
          });
          const { deps } = fakeDeps();
          const fw = newFramework(
            {
              schedulerName: 's',
              plugins: { filter: outcomes.map((_, i) => ({ name: `P${i}` })) },
              pluginArgs: {},
            },
            registry,
            deps,
          );
          const s = fw.runFilterPlugins(newState(), pod, nodeInfo(makeNode('n')));
          const first = outcomes.findIndex((c) => c !== 'Success');
          if (first < 0) {
            expect(s).toBeUndefined();
            expect(ran).toEqual(outcomes.map((_, i) => i));
            return;
          }
          expect(ran).toEqual(outcomes.slice(0, first + 1).map((_, i) => i));
          expect(s?.plugin).toBe(`P${first}`);
          expect(s?.code).toBe(outcomes[first]);
          expect(s?.reasons.join()).toContain(`reason ${first}`);
        },
      ),
      { numRuns: 200, seed: 21 },
    );
  });

  it('PreFilter: node sets intersect; an empty intersection is UnschedulableAndUnresolvable; skipped plugins land in the skip set', () => {
    const outcome = fc.oneof(
      fc.record({ kind: fc.constant('all' as const) }),
      fc.record({ kind: fc.constant('skip' as const) }),
      fc.record({
        kind: fc.constant('nodes' as const),
        nodes: fc.uniqueArray(fc.constantFrom<string>('a', 'b', 'c', 'd'), { maxLength: 4 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(outcome, { minLength: 1, maxLength: 5 }), (outcomes) => {
        const registry: Record<string, PluginFactory> = {};
        outcomes.forEach((o, i) => {
          registry[`P${i}`] = () =>
            ({
              name: `P${i}`,
              preFilter: () =>
                o.kind === 'skip'
                  ? { status: newStatus('Skip') }
                  : o.kind === 'nodes'
                    ? { result: { nodeNames: new Set(o.nodes) } }
                    : undefined,
            }) as Plugin;
        });
        const { deps } = fakeDeps();
        const fw = newFramework(
          {
            schedulerName: 's',
            plugins: { preFilter: outcomes.map((_, i) => ({ name: `P${i}` })) },
            pluginArgs: {},
          },
          registry,
          deps,
        );
        const state = newState();
        const out = fw.runPreFilterPlugins(state, pod);
        // Walk the plugins as the runner does, stopping at the first empty intersection.
        let acc: Set<string> | undefined;
        const withNodes: string[] = [];
        const skipped: string[] = [];
        let emptyAt = -1;
        for (let i = 0; i < outcomes.length; i++) {
          const o = outcomes[i]!;
          if (o.kind === 'skip') skipped.push(`P${i}`);
          if (o.kind !== 'nodes') continue;
          withNodes.push(`P${i}`);
          acc = acc ? new Set([...acc].filter((n) => o.nodes.includes(n))) : new Set(o.nodes);
          if (acc.size === 0) {
            emptyAt = i;
            break;
          }
        }
        expect([...out.pluginsWithNodes].sort()).toEqual(withNodes.sort());
        expect([...state.skipFilterPlugins].sort()).toEqual(skipped.sort());
        if (emptyAt >= 0) {
          expect(out.status?.code).toBe('UnschedulableAndUnresolvable');
          return;
        }
        expect(out.status).toBeUndefined();
        expect(out.result?.nodeNames ? [...out.result.nodeNames].sort() : undefined).toEqual(
          acc ? [...acc].sort() : undefined,
        );
      }),
      { numRuns: 300, seed: 8 },
    );
  });

  it('Score: each node total is the sum of weight × normalized score, and weight 0 counts as 1', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            weight: fc.integer({ min: 0, max: 10 }),
            scores: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }),
          }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        (plugins) => {
          const nodes = ['n0', 'n1', 'n2'].map((n) => nodeInfo(makeNode(n)));
          const registry: Record<string, PluginFactory> = {};
          plugins.forEach((pl, i) => {
            registry[`S${i}`] = () =>
              ({
                name: `S${i}`,
                score: (_s: unknown, _p: Pod, n: { name: string }) => pl.scores[Number(n.name[1])]!,
              }) as Plugin;
          });
          const { deps } = fakeDeps({ nodes });
          const fw = newFramework(
            {
              schedulerName: 's',
              plugins: { score: plugins.map((p, i) => ({ name: `S${i}`, weight: p.weight })) },
              pluginArgs: {},
            },
            registry,
            deps,
          );
          const out = fw.runScorePlugins(newState(), pod, nodes);
          expect(out.status).toBeUndefined();
          out.scores.forEach((ns, n) => {
            const want = plugins.reduce((a, p) => a + p.scores[n]! * (p.weight === 0 ? 1 : p.weight), 0);
            expect(ns.totalScore).toBe(want);
            expect(ns.scores.reduce((a, s) => a + s.score, 0)).toBe(want);
          });
        },
      ),
      { numRuns: 200, seed: 13 },
    );
  });

  it('the codes a plugin may return never escape as throws', () => {
    fc.assert(
      fc.property(fc.constantFrom(...codes), fc.boolean(), (code, thrown) => {
        const registry: Registry = {
          P: () =>
            ({
              name: 'P',
              filter: () => {
                if (thrown) throw new Error('boom');
                return newStatus(code, 'x');
              },
            }) as Plugin,
        };
        const { deps } = fakeDeps();
        const fw = newFramework(
          { schedulerName: 's', plugins: { filter: [{ name: 'P' }] }, pluginArgs: {} },
          registry,
          deps,
        );
        expect(() => fw.runFilterPlugins(newState(), pod, nodeInfo(makeNode('n')))).not.toThrow();
      }),
    );
  });
});

describe('RunFilterPluginsWithNominatedPods', () => {
  it('is conservative: a node that passes with nominated pods also passes without them, and higher-priority nominations only take room away', () => {
    const req = fc.record({ cpu: fc.integer({ min: 0, max: 2000 }), prio: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 4000 }),
        fc.array(req, { maxLength: 4 }),
        fc.array(req, { maxLength: 4 }),
        req,
        (cpu, existing, nominated, incoming) => {
          const node = makeNode('n', { allocatable: { cpu: `${cpu}m`, memory: '1Gi', pods: '20' } });
          const pods = existing.map((e, i) =>
            makePod(`e${i}`, { containers: [container({ cpu: `${e.cpu}m` })], nodeName: 'n' }),
          );
          const nominatedInfos = nominated.map((e, i) =>
            newPodInfo(
              makePod(`nom${i}`, { priority: e.prio, containers: [container({ cpu: `${e.cpu}m` })] }),
            ),
          );
          const pod = makePod('p', {
            priority: incoming.prio,
            containers: [container({ cpu: `${incoming.cpu}m` })],
          });
          const run = (withNominated: boolean) => {
            const { deps } = fakeDeps({ nominated: withNominated ? { n: nominatedInfos } : {} });
            const fw = newFramework(
              {
                schedulerName: 's',
                plugins: {
                  preFilter: [{ name: 'NodeResourcesFit' }],
                  filter: [{ name: 'NodeResourcesFit' }],
                },
                pluginArgs: {},
              },
              inTreeRegistry,
              deps,
            );
            const state = newState();
            fw.runPreFilterPlugins(state, pod);
            return fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo(node, pods));
          };
          const withNom = run(true);
          const without = run(false);
          if (withNom === undefined) expect(without).toBeUndefined();
          // The outcome with nominations equals "fits with every nominated pod of priority >= the pod's counted".
          const used =
            existing.reduce((a, e) => a + e.cpu, 0) +
            nominated.filter((e) => e.prio >= incoming.prio).reduce((a, e) => a + e.cpu, 0);
          const fitsWith = incoming.cpu === 0 || incoming.cpu <= cpu - used;
          const tooMany = pods.length + 1 > 20;
          expect(withNom === undefined).toBe(fitsWith && !tooMany);
        },
      ),
      { numRuns: 300, seed: 31 },
    );
  });
});
