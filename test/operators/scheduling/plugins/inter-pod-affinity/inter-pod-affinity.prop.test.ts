// Property: a node InterPodAffinity's Filter accepts never puts the pod in a domain where required anti-affinity (its own or an existing pod's) is violated.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import { interPodAffinityFactory } from '../../../../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity.ts';
import { bareNode, makeCluster, makePod } from '../default-preemption/cluster.ts';

const APPS = ['a', 'b', 'c'] as const;
const KEYS = ['zone', 'host'] as const;
const antiTerm = (app: string, topologyKey: string) => ({
  podAntiAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      { labelSelector: { matchLabels: { app } }, topologyKey },
    ],
  },
});

describe('InterPodAffinity properties', () => {
  it('Filter passes a node iff no required anti-affinity term on either side selects a pod in the same domain', () => {
    const seen = { pass: 0, fail: 0 };
    fc.assert(
      fc.property(
        fc
          .array(fc.option(fc.constantFrom('z1', 'z2'), { nil: undefined }), { minLength: 1, maxLength: 5 })
          .chain((zones) =>
            fc.record({
              zones: fc.constant(zones),
              pods: fc.array(
                fc.record({
                  node: fc.integer({ min: 0, max: zones.length - 1 }),
                  app: fc.constantFrom(...APPS),
                  anti: fc.option(
                    fc.record({ app: fc.constantFrom(...APPS), key: fc.constantFrom(...KEYS) }),
                    { nil: undefined },
                  ),
                }),
                { maxLength: 12 },
              ),
              incomingApp: fc.constantFrom(...APPS),
              incomingAnti: fc.option(
                fc.record({ app: fc.constantFrom(...APPS), key: fc.constantFrom(...KEYS) }),
                { nil: undefined },
              ),
            }),
          ),
        ({ zones, pods, incomingApp, incomingAnti }) => {
          const nodes = zones.map((z, i) => bareNode(`n${i}`, { host: `n${i}`, ...(z ? { zone: z } : {}) }));
          const podObjs: Pod[] = pods.map((p, i) =>
            makePod(`p${i}`, {
              node: `n${p.node}`,
              labels: { app: p.app },
              ...(p.anti ? { affinity: antiTerm(p.anti.app, p.anti.key) } : {}),
            }),
          );
          const incoming = makePod('incoming', {
            labels: { app: incomingApp },
            ...(incomingAnti ? { affinity: antiTerm(incomingAnti.app, incomingAnti.key) } : {}),
          });
          const { framework, snapshot, newState } = makeCluster({
            nodes,
            pods: podObjs,
            registry: { InterPodAffinity: interPodAffinityFactory() },
            preFilter: ['InterPodAffinity'],
            filter: ['InterPodAffinity'],
          });
          const state = newState();
          framework.runPreFilterPlugins(state, incoming);
          const label = (i: number, key: string) => nodes[i]!.metadata.labels?.[key];
          nodes.forEach((_, n) => {
            const sameDomain = (other: number, key: string) =>
              label(n, key) !== undefined && label(n, key) === label(other, key);
            const ownViolated =
              incomingAnti !== undefined &&
              pods.some((p) => p.app === incomingAnti.app && sameDomain(p.node, incomingAnti.key));
            const theirsViolated = pods.some(
              (p) => p.anti !== undefined && p.anti.app === incomingApp && sameDomain(p.node, p.anti.key),
            );
            const status = framework.runFilterPlugins(state, incoming, snapshot.get(`n${n}`)!);
            expect(status === undefined).toBe(!ownViolated && !theirsViolated);
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
