// schedulePod with extenders: upstream's TestSchedulerWithExtenders table (filters in turn, scores × weight × 10, ignorable and uninterested extenders).
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { newDiagnosis } from '../../../../operators/scheduling/framework/fit-error.ts';
import { newFramework } from '../../../../operators/scheduling/framework/framework.ts';
import type {
  CycleState,
  Plugin,
  PluginFactory,
  Registry,
} from '../../../../operators/scheduling/framework/interface.ts';
import type { NodeInfo } from '../../../../operators/scheduling/framework/node-info.ts';
import {
  findNodesThatPassExtenders,
  newSchedulingAlgorithmState,
  schedulePod,
} from '../../../../operators/scheduling/framework/schedule-pod.ts';
import { newStatus, type Status } from '../../../../operators/scheduling/framework/status.ts';
import {
  errorPredicate,
  errorPrioritizer,
  FakeExtender,
  type FakeExtenderOptions,
  type FitPredicate,
  falsePredicate,
  node1Predicate,
  node1Prioritizer,
  node2Predicate,
  node2Prioritizer,
  truePredicate,
} from './fake-extender.ts';
import { fakeDeps, makeNode, makePod, newState, nodeInfo } from './fixtures.ts';

const score =
  (name: string, fn: (n: NodeInfo) => number): PluginFactory =>
  () =>
    ({ name, score: (_s: CycleState, _p: Pod, n: NodeInfo) => fn(n) }) as Plugin;

const registry: Registry = {
  TrueFilter: () => ({ name: 'TrueFilter', filter: () => undefined }) as Plugin,
  EqualPrioritizer: score('EqualPrioritizer', () => 1),
  Node2Prioritizer: score('Node2Prioritizer', (n) => (n.name === 'node2' ? 100 : 0)),
};

interface Case {
  name: string;
  filter: boolean;
  score?: { name: string; weight: number }[];
  extenders: FakeExtenderOptions[];
  nodes: string[];
  want?: { suggestedHost: string; evaluatedNodes: number; feasibleNodes: number };
  /** 'Error' (an extender failed) or 'FitError' (no node left). */
  wantErr?: 'Error' | 'FitError';
}

describe('schedulePod with extenders (upstream TestSchedulerWithExtenders)', () => {
  it.each<Case>([
    {
      name: 'test 1: an extender that errors fails the attempt',
      filter: true,
      extenders: [{ predicates: [truePredicate] }, { predicates: [errorPredicate] }],
      nodes: ['node1', 'node2'],
      wantErr: 'Error',
    },
    {
      name: 'test 2: an extender that rejects every node leaves none',
      filter: true,
      extenders: [{ predicates: [truePredicate] }, { predicates: [falsePredicate] }],
      nodes: ['node1', 'node2'],
      wantErr: 'FitError',
    },
    {
      name: 'test 3: the second extender keeps node1 only',
      filter: true,
      score: [{ name: 'EqualPrioritizer', weight: 1 }],
      extenders: [{ predicates: [truePredicate] }, { predicates: [node1Predicate] }],
      nodes: ['node1', 'node2'],
      want: { suggestedHost: 'node1', evaluatedNodes: 2, feasibleNodes: 1 },
    },
    {
      name: 'test 4: extenders keeping node2 then node1 leave none',
      filter: true,
      extenders: [{ predicates: [node2Predicate] }, { predicates: [node1Predicate] }],
      nodes: ['node1', 'node2'],
      wantErr: 'FitError',
    },
    {
      name: 'test 5: a prioritizer error is ignored (one node needs no scores)',
      filter: true,
      extenders: [
        { predicates: [truePredicate], prioritizers: [{ fn: errorPrioritizer, weight: 10 }], weight: 1 },
      ],
      nodes: ['node1'],
      want: { suggestedHost: 'node1', evaluatedNodes: 1, feasibleNodes: 1 },
    },
    {
      name: 'test 6: the heavier extender wins',
      filter: true,
      extenders: [
        { predicates: [truePredicate], prioritizers: [{ fn: node1Prioritizer, weight: 10 }], weight: 1 },
        { predicates: [truePredicate], prioritizers: [{ fn: node2Prioritizer, weight: 10 }], weight: 5 },
      ],
      nodes: ['node1', 'node2'],
      want: { suggestedHost: 'node2', evaluatedNodes: 2, feasibleNodes: 2 },
    },
    {
      name: 'test 7: a score plugin outweighs an extender',
      filter: true,
      score: [{ name: 'Node2Prioritizer', weight: 20 }],
      extenders: [
        { predicates: [truePredicate], prioritizers: [{ fn: node1Prioritizer, weight: 10 }], weight: 1 },
      ],
      nodes: ['node1', 'node2'],
      want: { suggestedHost: 'node2', evaluatedNodes: 2, feasibleNodes: 2 },
    },
    {
      name: 'test 8: an uninterested extender is not asked to filter or prioritize',
      filter: true,
      score: [{ name: 'Node2Prioritizer', weight: 1 }],
      extenders: [
        {
          predicates: [errorPredicate],
          prioritizers: [{ fn: errorPrioritizer, weight: 10 }],
          uninterested: true,
        },
      ],
      nodes: ['node1', 'node2'],
      want: { suggestedHost: 'node2', evaluatedNodes: 2, feasibleNodes: 2 },
    },
    {
      name: 'test 9: an ignorable extender that errors is skipped',
      filter: true,
      score: [{ name: 'EqualPrioritizer', weight: 1 }],
      extenders: [{ predicates: [errorPredicate], ignorable: true }, { predicates: [node1Predicate] }],
      nodes: ['node1', 'node2'],
      want: { suggestedHost: 'node1', evaluatedNodes: 2, feasibleNodes: 1 },
    },
    {
      name: 'test 10: no scoring but extender filters: every node is evaluated',
      filter: true,
      extenders: [{ predicates: [truePredicate] }, { predicates: [node1Predicate] }],
      nodes: ['node1', 'node2'],
      want: { suggestedHost: 'node1', evaluatedNodes: 2, feasibleNodes: 1 },
    },
    {
      name: 'test 11: no scoring and no filters (a binder extender only): one node is evaluated',
      filter: false,
      extenders: [{ binder: () => undefined }],
      nodes: ['node1', 'node2'],
      want: { suggestedHost: 'node1', evaluatedNodes: 1, feasibleNodes: 1 },
    },
  ])('$name', async (c) => {
    const { deps } = fakeDeps({ nodes: c.nodes.map((n) => nodeInfo(makeNode(n))) });
    const framework = newFramework(
      {
        schedulerName: 'default-scheduler',
        plugins: { filter: c.filter ? [{ name: 'TrueFilter' }] : [], score: c.score ?? [] },
        pluginArgs: {},
      },
      registry,
      deps,
    );
    const extenders = c.extenders.map((o, i) => new FakeExtender({ name: `FakeExtender${i + 1}`, ...o }));
    const out = await schedulePod({
      framework,
      state: newState(),
      pod: makePod('ignored'),
      algorithm: newSchedulingAlgorithmState(),
      extenders,
      random: () => 0.5,
    });
    if (c.wantErr) {
      expect(out.type).toBe(c.wantErr);
      return;
    }
    expect(out).toEqual({ type: 'Scheduled', ...c.want });
  });

  it('an extender sees only the nodes the previous one kept', async () => {
    const { deps } = fakeDeps({ nodes: ['node1', 'node2', 'node3'].map((n) => nodeInfo(makeNode(n))) });
    const framework = newFramework(
      { schedulerName: 'default-scheduler', plugins: { filter: [{ name: 'TrueFilter' }] }, pluginArgs: {} },
      registry,
      deps,
    );
    const first = new FakeExtender({
      predicates: [(_p, n) => (n.name === 'node3' ? falsePredicate(_p, n) : undefined)],
    });
    const second = new FakeExtender({ predicates: [node2Predicate] });
    const out = await schedulePod({
      framework,
      state: newState(),
      pod: makePod('p'),
      algorithm: newSchedulingAlgorithmState(),
      extenders: [first, second],
    });
    expect(out).toMatchObject({ type: 'Scheduled', suggestedHost: 'node2', evaluatedNodes: 3 });
    expect(first.filterCalls).toEqual([['node1', 'node2', 'node3']]);
    expect(second.filterCalls).toEqual([['node1', 'node2']]);
  });
});

describe('findNodesThatPassExtenders (upstream TestFindNodesThatPassExtenders)', () => {
  const byName =
    (answers: Record<string, 'Unschedulable' | 'UnschedulableAndUnresolvable'>): FitPredicate =>
    (_p, n) => {
      const code = answers[n.name];
      return code ? newStatus(code, `node "${n.name}" is not allowed`) : undefined;
    };
  const failed = (n: string): Status => newStatus('Unschedulable', `FakeExtender: node "${n}" failed`);
  const unresolvable = (n: string): Status =>
    newStatus('UnschedulableAndUnresolvable', `FakeExtender: node "${n}" failed and unresolvable`);

  it.each<{
    name: string;
    extenders: FakeExtenderOptions[];
    nodes: string[];
    before?: Record<string, Status>;
    error?: boolean;
    want?: string[];
    statuses?: Record<string, Status>;
  }>([
    { name: 'error', extenders: [{ predicates: [errorPredicate] }], nodes: ['a'], error: true },
    {
      name: 'success',
      extenders: [{ predicates: [truePredicate] }],
      nodes: ['a'],
      want: ['a'],
      statuses: {},
    },
    {
      name: 'unschedulable',
      extenders: [{ predicates: [byName({ b: 'Unschedulable' })] }],
      nodes: ['a', 'b'],
      want: ['a'],
      statuses: { b: failed('b') },
    },
    {
      name: 'unschedulable and unresolvable',
      extenders: [{ predicates: [byName({ b: 'Unschedulable', c: 'UnschedulableAndUnresolvable' })] }],
      nodes: ['a', 'b', 'c'],
      want: ['a'],
      statuses: { b: failed('b'), c: unresolvable('c') },
    },
    {
      name: 'extender does not overwrite the previous statuses',
      extenders: [{ predicates: [byName({ b: 'Unschedulable', c: 'UnschedulableAndUnresolvable' })] }],
      nodes: ['a', 'b'],
      before: { c: newStatus('Unschedulable', 'FakeFilterPlugin: node "c" failed') },
      want: ['a'],
      statuses: { b: failed('b'), c: newStatus('Unschedulable', 'FakeFilterPlugin: node "c" failed') },
    },
    {
      name: 'multiple extenders',
      extenders: [
        { predicates: [byName({ b: 'Unschedulable', c: 'UnschedulableAndUnresolvable' })] },
        { predicates: [byName({ b: 'Unschedulable', c: 'Unschedulable' })] },
      ],
      nodes: ['a', 'b', 'c'],
      want: ['a'],
      statuses: { b: failed('b'), c: unresolvable('c') },
    },
  ])('$name', async ({ extenders, nodes, before, error, want, statuses }) => {
    const diagnosis = newDiagnosis();
    for (const [n, s] of Object.entries(before ?? {})) diagnosis.nodeToStatus.statuses.set(n, s);
    const out = await findNodesThatPassExtenders(
      extenders.map((o) => new FakeExtender(o)),
      makePod('1', { uid: '1' }),
      nodes.map((n) => nodeInfo(makeNode(n))),
      diagnosis,
    );
    if (error) {
      expect(out.error?.code).toBe('Error');
      return;
    }
    expect(out.error).toBeUndefined();
    expect(out.feasible.map((n) => n.name)).toEqual(want);
    expect(Object.fromEntries(diagnosis.nodeToStatus.statuses)).toEqual(statuses);
  });
});
