// Properties of schedulePod with extenders: the host passes every answering extender, each extender sees what the previous kept, and scores add up as upstream's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newFramework } from '../../../../operators/scheduling/framework/framework.ts';
import type { Plugin, Registry } from '../../../../operators/scheduling/framework/interface.ts';
import {
  newSchedulingAlgorithmState,
  schedulePod,
} from '../../../../operators/scheduling/framework/schedule-pod.ts';
import { newStatus } from '../../../../operators/scheduling/framework/status.ts';
import { FakeExtender } from './fake-extender.ts';
import { fakeDeps, makeNode, makePod, newState, nodeInfo } from './fixtures.ts';

const registry: Registry = {
  TrueFilter: () => ({ name: 'TrueFilter', filter: () => undefined }) as Plugin,
};

const NODES = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'];

/** One extender: the nodes it rejects, whether it fails, is ignorable, is interested; its scores and weight. */
const extenderArb = fc.record({
  rejects: fc.subarray(NODES),
  fails: fc.boolean(),
  ignorable: fc.boolean(),
  interested: fc.boolean(),
  scores: fc.dictionary(fc.constantFrom(...NODES), fc.integer({ min: 0, max: 10 })),
  weight: fc.integer({ min: 1, max: 5 }),
});

type Spec = typeof extenderArb extends fc.Arbitrary<infer T> ? T : never;

function build(specs: Spec[]) {
  return specs.map(
    (s, i) =>
      new FakeExtender({
        name: `ext${i}`,
        predicates: [
          (_p, n) => {
            if (s.fails) throw new Error(`ext${i} down`);
            return s.rejects.includes(n.name) ? newStatus('Unschedulable', `ext${i} says no`) : undefined;
          },
        ],
        prioritizers: [
          {
            fn: (_p, nodes) => {
              if (s.fails) throw new Error(`ext${i} down`);
              return nodes.map((n) => ({ host: n.name, score: s.scores[n.name] ?? 0 }));
            },
            weight: 1,
          },
        ],
        weight: s.weight,
        ignorable: s.ignorable,
        uninterested: !s.interested,
      }),
  );
}

describe('schedulePod with extenders (properties)', () => {
  it('picks a host every interested, answering extender kept, or fails as the extenders say', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(extenderArb, { maxLength: 4 }), async (specs) => {
        const { deps } = fakeDeps({ nodes: NODES.map((n) => nodeInfo(makeNode(n))) });
        const framework = newFramework(
          {
            schedulerName: 'default-scheduler',
            plugins: { filter: [{ name: 'TrueFilter' }] },
            pluginArgs: {},
          },
          registry,
          deps,
        );
        const extenders = build(specs);
        const out = await schedulePod({
          framework,
          state: newState(),
          pod: makePod('p'),
          algorithm: newSchedulingAlgorithmState(),
          extenders,
          random: () => 0,
        });
        // Walk the chain as upstream does, to know the expected outcome.
        let kept = [...NODES];
        let failedBy: number | undefined;
        specs.forEach((s, i) => {
          if (failedBy !== undefined || kept.length === 0 || !s.interested) return;
          if (s.fails) {
            if (!s.ignorable) failedBy = i;
            return;
          }
          kept = kept.filter((n) => !s.rejects.includes(n));
        });
        if (failedBy !== undefined) {
          expect(out.type).toBe('Error');
          return;
        }
        if (kept.length === 0) {
          expect(out.type).toBe('FitError');
          if (out.type === 'FitError')
            expect(out.error.diagnosis.nodeToStatus.statuses.size).toBe(NODES.length);
          return;
        }
        expect(out.type).toBe('Scheduled');
        if (out.type !== 'Scheduled') return;
        expect(kept).toContain(out.suggestedHost);
        // with extender filters or scores every node is searched; without, the first fit is enough
        expect(out.feasibleNodes).toBe(specs.length > 0 ? kept.length : 1);
        if (kept.length > 1) {
          // the host has the highest Σ score × weight × 10 among the kept nodes (no score plugins here)
          const total = (n: string) =>
            specs.reduce(
              (sum, s) => sum + (s.interested && !s.fails ? (s.scores[n] ?? 0) * s.weight * 10 : 0),
              0,
            );
          const best = Math.max(...kept.map(total));
          expect(total(out.suggestedHost)).toBe(best);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('an extender never sees a node an earlier extender rejected', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.subarray(NODES), { minLength: 2, maxLength: 4 }), async (rejections) => {
        const { deps } = fakeDeps({ nodes: NODES.map((n) => nodeInfo(makeNode(n))) });
        const framework = newFramework(
          {
            schedulerName: 'default-scheduler',
            plugins: { filter: [{ name: 'TrueFilter' }] },
            pluginArgs: {},
          },
          registry,
          deps,
        );
        const extenders = rejections.map(
          (r) =>
            new FakeExtender({
              predicates: [(_p, n) => (r.includes(n.name) ? newStatus('Unschedulable', 'no') : undefined)],
            }),
        );
        await schedulePod({
          framework,
          state: newState(),
          pod: makePod('p'),
          algorithm: newSchedulingAlgorithmState(),
          extenders,
        });
        const rejectedSoFar = new Set<string>();
        extenders.forEach((e, i) => {
          for (const call of e.filterCalls) for (const n of call) expect(rejectedSoFar.has(n)).toBe(false);
          for (const n of rejections[i]!) rejectedSoFar.add(n);
        });
      }),
      { numRuns: 200 },
    );
  });
});
