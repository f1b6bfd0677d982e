// Tests of the scheduling algorithm, ported in our own words from schedule_one_test.go (schedulePod, findNodesThatFit, numFeasibleNodesToFind, selectHost, prioritizeNodes).
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Extender } from '../../../../operators/scheduling/framework/extender.ts';
import {
  type Framework,
  newFramework,
  type PluginRef,
} from '../../../../operators/scheduling/framework/framework.ts';
import type {
  CycleState,
  NodeScore,
  Plugin,
  PluginFactory,
  PreFilterResult,
  Registry,
} from '../../../../operators/scheduling/framework/interface.ts';
import type { NodeInfo } from '../../../../operators/scheduling/framework/node-info.ts';
import {
  newSchedulingAlgorithmState,
  numFeasibleNodesToFind,
  prioritizeNodes,
  type SchedulePodResult,
  schedulePod,
  selectHost,
} from '../../../../operators/scheduling/framework/schedule-pod.ts';
import { newStatus, type Status, statusMessage } from '../../../../operators/scheduling/framework/status.ts';
import { inTreeRegistry } from '../../../../operators/scheduling/plugins/registry.ts';
import { fakeDeps, makeNode, makePod, newState, nodeInfo } from './fixtures.ts';

const ERR_REASON_FAKE = 'Nodes failed the fake plugin';

const filterPlugin =
  (name: string, fn: (pod: Pod, n: NodeInfo) => Status | undefined): PluginFactory =>
  () =>
    ({ name, filter: (_s: CycleState, p: Pod, n: NodeInfo) => fn(p, n) }) as Plugin;

const scorePlugin =
  (name: string, fn: (n: NodeInfo) => number, reverse = false): PluginFactory =>
  () =>
    ({
      name,
      score: (_s: CycleState, _p: Pod, n: NodeInfo) => fn(n),
      ...(reverse
        ? {
            normalizeScore: (_s: CycleState, _p: Pod, scores: NodeScore[]) => {
              const max = Math.max(...scores.map((s) => s.score));
              for (const s of scores) s.score = max - s.score;
              return undefined;
            },
          }
        : {}),
    }) as Plugin;

const preFilterPlugin =
  (name: string, out: { result?: PreFilterResult; status?: Status }): PluginFactory =>
  () =>
    ({ name, preFilter: () => out }) as Plugin;

const registry: Registry = {
  TrueFilter: filterPlugin('TrueFilter', () => undefined),
  FalseFilter: filterPlugin('FalseFilter', () => newStatus('Unschedulable', ERR_REASON_FAKE)),
  MatchFilter: filterPlugin('MatchFilter', (p, n) =>
    n.name === p.metadata.name ? undefined : newStatus('Unschedulable', ERR_REASON_FAKE),
  ),
  NoPodsFilter: filterPlugin('NoPodsFilter', (_p, n) =>
    n.pods.length === 0 ? undefined : newStatus('Unschedulable', ERR_REASON_FAKE),
  ),
  Node1Unresolvable: filterPlugin('Node1Unresolvable', (_p, n) =>
    n.name === '1' ? newStatus('UnschedulableAndUnresolvable', 'node 1 never') : undefined,
  ),
  ErrorFilter: filterPlugin('ErrorFilter', (_p, n) =>
    n.name === '2' ? newStatus('Error', 'injected filter error') : undefined,
  ),
  NumericMap: scorePlugin('NumericMap', (n) => Number.parseInt(n.name, 10)),
  // Node names up to 1000: the raw score is the number, normalized to a tenth (so it stays in [0, 100]).
  ScaledNumericMap: () =>
    ({
      name: 'ScaledNumericMap',
      score: (_s: CycleState, _p: Pod, n: NodeInfo) => Number.parseInt(n.name, 10),
      normalizeScore: (_s: CycleState, _p: Pod, scores: NodeScore[]) => {
        for (const x of scores) x.score = Math.trunc(x.score / 10);
        return undefined;
      },
    }) as Plugin,
  ReverseNumericMap: scorePlugin('ReverseNumericMap', (n) => Number.parseInt(n.name, 10), true),
  ScoreError: () =>
    ({ name: 'ScoreError', score: () => newStatus('Error', 'injected score error') }) as unknown as Plugin,
  PreScoreError: () =>
    ({
      name: 'PreScoreError',
      preScore: () => newStatus('Error', 'injected prescore error'),
      score: () => 1,
    }) as unknown as Plugin,
  PreFilterUnschedulable: preFilterPlugin('PreFilterUnschedulable', {
    status: newStatus('Unschedulable', 'injected unschedulable status'),
  }),
  PreFilterError: preFilterPlugin('PreFilterError', { status: newStatus('Error', 'injected error status') }),
  PreFilterNode2: preFilterPlugin('PreFilterNode2', { result: { nodeNames: new Set(['2']) } }),
  PreFilterNode3: preFilterPlugin('PreFilterNode3', { result: { nodeNames: new Set(['3']) } }),
  PreFilterGhost: preFilterPlugin('PreFilterGhost', { result: { nodeNames: new Set(['ghost']) } }),
};

function fw(
  plugins: { preFilter?: string[]; filter?: string[]; score?: (string | PluginRef)[] },
  nodes: NodeInfo[],
  reg: Registry = registry,
  percentageOfNodesToScore?: number,
): Framework {
  const toRefs = (l?: (string | PluginRef)[]) =>
    (l ?? []).map((r) => (typeof r === 'string' ? { name: r } : r));
  const { deps } = fakeDeps({ nodes });
  return newFramework(
    {
      schedulerName: 'default-scheduler',
      percentageOfNodesToScore,
      plugins: {
        preFilter: toRefs(plugins.preFilter),
        filter: toRefs(plugins.filter),
        score: toRefs(plugins.score),
      },
      pluginArgs: {},
    },
    reg,
    deps,
  );
}

const names = (...ns: string[]) => ns.map((n) => nodeInfo(makeNode(n)));

async function run(
  f: Framework,
  pod: Pod,
  extenders: Extender[] = [],
  random = () => 0.5,
): Promise<SchedulePodResult> {
  return schedulePod({
    framework: f,
    state: newState(),
    pod,
    algorithm: newSchedulingAlgorithmState(),
    extenders,
    random,
  });
}

describe('schedulePod', () => {
  it.each<{
    name: string;
    plugins: { preFilter?: string[]; filter?: string[]; score?: (string | PluginRef)[] };
    nodes: string[];
    pod: Pod;
    wantHosts?: string[];
    evaluated?: number;
    feasible?: number;
    fitError?: string;
    unschedulablePlugins?: string[];
    error?: string;
  }>([
    {
      name: 'no nodes at all',
      plugins: { filter: ['TrueFilter'] },
      nodes: [],
      pod: makePod('2'),
      error: 'no nodes available to schedule pods',
    },
    {
      name: 'every node fails a filter',
      plugins: { filter: ['FalseFilter'] },
      nodes: ['1', '2'],
      pod: makePod('2'),
      fitError: '0/2 nodes are available: 2 Nodes failed the fake plugin.',
      unschedulablePlugins: ['FalseFilter'],
    },
    {
      name: 'every node fits and nothing scores: the first feasible node is enough',
      plugins: { filter: ['TrueFilter'] },
      nodes: ['1', '2'],
      pod: makePod('ignore'),
      wantHosts: ['1'],
      evaluated: 1,
      feasible: 1,
    },
    {
      name: 'only the matching node fits',
      plugins: { filter: ['MatchFilter'], score: ['NumericMap'] },
      nodes: ['1', '2'],
      pod: makePod('2'),
      wantHosts: ['2'],
      evaluated: 2,
      feasible: 1,
    },
    {
      name: 'the highest score wins',
      plugins: { filter: ['TrueFilter'], score: ['NumericMap'] },
      nodes: ['3', '2', '1'],
      pod: makePod('ignore'),
      wantHosts: ['3'],
      evaluated: 3,
      feasible: 3,
    },
    {
      name: 'weights decide between two scorers',
      plugins: { filter: ['TrueFilter'], score: ['NumericMap', { name: 'ReverseNumericMap', weight: 2 }] },
      nodes: ['3', '2', '1'],
      pod: makePod('ignore'),
      wantHosts: ['1'],
      evaluated: 3,
      feasible: 3,
    },
    {
      name: 'a node with pods fails NoPodsFilter',
      plugins: { filter: ['TrueFilter', 'NoPodsFilter'], score: ['NumericMap'] },
      nodes: ['3', '2', '1'],
      pod: makePod('ignore'),
      wantHosts: ['2'],
      evaluated: 3,
      feasible: 2,
    },
    {
      name: 'PreFilter Unschedulable: the FitError carries its message',
      plugins: { preFilter: ['PreFilterUnschedulable'], filter: ['TrueFilter'] },
      nodes: ['1', '2'],
      pod: makePod('ignore'),
      fitError: '0/2 nodes are available: injected unschedulable status.',
      unschedulablePlugins: ['PreFilterUnschedulable'],
    },
    {
      name: 'PreFilter error',
      plugins: { preFilter: ['PreFilterError'], filter: ['TrueFilter'] },
      nodes: ['1', '2'],
      pod: makePod('ignore'),
      error: 'running PreFilter plugin "PreFilterError": injected error status',
    },
    {
      name: 'an unresolvable node is skipped, the other chosen',
      plugins: { filter: ['Node1Unresolvable'], score: ['NumericMap'] },
      nodes: ['1', '2'],
      pod: makePod('ignore'),
      wantHosts: ['2'],
      evaluated: 2,
      feasible: 1,
    },
    {
      name: 'a filter error ends the attempt',
      plugins: { filter: ['ErrorFilter'], score: ['NumericMap'] },
      nodes: ['1', '2', '3'],
      pod: makePod('ignore'),
      error: 'running "ErrorFilter" filter plugin: injected filter error',
    },
    {
      name: 'a PreFilterResult restricts the nodes filtered; the others count as absent',
      plugins: { preFilter: ['PreFilterNode2'], filter: ['FalseFilter'] },
      nodes: ['1', '2', '3'],
      pod: makePod('ignore'),
      fitError:
        "0/3 nodes are available: 1 Nodes failed the fake plugin, 2 node(s) didn't satisfy plugin(s) [PreFilterNode2].",
      unschedulablePlugins: ['FalseFilter', 'PreFilterNode2'],
    },
    {
      name: 'a PreFilterResult node is the only one evaluated',
      plugins: { preFilter: ['PreFilterNode2'], filter: ['TrueFilter'], score: ['NumericMap'] },
      nodes: ['1', '2', '3'],
      pod: makePod('ignore'),
      wantHosts: ['2'],
      evaluated: 1,
      feasible: 1,
    },
    {
      name: 'a PreFilterResult naming an unknown node',
      plugins: { preFilter: ['PreFilterGhost'], filter: ['TrueFilter'] },
      nodes: ['1', '2'],
      pod: makePod('ignore'),
      fitError: "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [PreFilterGhost].",
    },
    {
      name: 'two PreFilterResults that do not intersect',
      plugins: { preFilter: ['PreFilterNode2', 'PreFilterNode3'], filter: ['TrueFilter'] },
      nodes: ['1', '2', '3'],
      pod: makePod('ignore'),
      fitError:
        "0/3 nodes are available: node(s) didn't satisfy plugin(s) [PreFilterNode2 PreFilterNode3] simultaneously.",
      unschedulablePlugins: ['PreFilterNode2', 'PreFilterNode3'],
    },
    {
      name: 'the nominated node is tried first and taken when it fits',
      plugins: { filter: ['TrueFilter'], score: ['NumericMap'] },
      nodes: ['1', '2', '3'],
      pod: makePod('ignore', { status: { nominatedNodeName: '2' } }),
      wantHosts: ['2'],
      evaluated: 1,
      feasible: 1,
    },
    {
      name: 'a nominated node that does not fit falls back to every node',
      plugins: { filter: ['MatchFilter'], score: ['NumericMap'] },
      nodes: ['1', '2', '3'],
      pod: makePod('3', { status: { nominatedNodeName: '2' } }),
      wantHosts: ['3'],
      evaluated: 3,
      feasible: 1,
    },
  ])('$name', async (tc) => {
    const nodes = names(...tc.nodes);
    if (tc.name.startsWith('a node with pods')) nodes[0]!.addPod(makePod('existing', { nodeName: '3' }));
    const f = fw(tc.plugins, nodes);
    const out = await run(f, tc.pod);
    if (tc.error) {
      expect(out.type).toBe('Error');
      if (out.type === 'Error') expect(statusMessage(out.status)).toBe(tc.error);
      return;
    }
    if (tc.fitError) {
      expect(out.type).toBe('FitError');
      if (out.type !== 'FitError') return;
      expect(out.error.message).toBe(tc.fitError);
      if (tc.unschedulablePlugins)
        expect([...out.error.diagnosis.unschedulablePlugins].sort()).toEqual(tc.unschedulablePlugins);
      return;
    }
    expect(out.type).toBe('Scheduled');
    if (out.type !== 'Scheduled') return;
    expect(tc.wantHosts).toContain(out.suggestedHost);
    expect(out.evaluatedNodes).toBe(tc.evaluated);
    expect(out.feasibleNodes).toBe(tc.feasible);
  });

  it('a score error with two feasible nodes ends the attempt', async () => {
    const out = await run(
      fw({ filter: ['TrueFilter'], score: ['ScoreError'] }, names('1', '2')),
      makePod('p'),
    );
    expect(out.type).toBe('Error');
    if (out.type === 'Error')
      expect(statusMessage(out.status)).toBe(
        'running Score plugins: plugin "ScoreError" failed with: injected score error',
      );
  });

  it('a score error does not matter when only one node is feasible (no scoring)', async () => {
    const out = await run(
      fw({ filter: ['MatchFilter'], score: ['ScoreError'] }, names('1', '2')),
      makePod('2'),
    );
    expect(out).toMatchObject({ type: 'Scheduled', suggestedHost: '2' });
  });

  it('a PreScore error ends the attempt', async () => {
    const toRefs = (...n: string[]) => n.map((name) => ({ name }));
    const { deps } = fakeDeps({ nodes: names('1', '2') });
    const f = newFramework(
      {
        schedulerName: 's',
        plugins: {
          filter: toRefs('TrueFilter'),
          preScore: toRefs('PreScoreError'),
          score: toRefs('PreScoreError'),
        },
        pluginArgs: {},
      },
      registry,
      deps,
    );
    const out = await run(f, makePod('p'));
    expect(out.type).toBe('Error');
    if (out.type === 'Error')
      expect(statusMessage(out.status)).toBe(
        'running PreScore plugin "PreScoreError": injected prescore error',
      );
  });

  it('no nodes is UnschedulableAndUnresolvable', async () => {
    const out = await run(fw({ filter: ['TrueFilter'] }, []), makePod('p'));
    expect(out).toMatchObject({ type: 'Error', status: { code: 'UnschedulableAndUnresolvable' } });
  });

  it('with the default plugins, the FitError reads as Kubernetes writes it', async () => {
    const small = { cpu: '1', memory: '1Gi', pods: '10' };
    const nodes = [
      nodeInfo(makeNode('a', { allocatable: small })),
      nodeInfo(makeNode('b', { allocatable: small })),
      nodeInfo(makeNode('c', { spec: { taints: [{ key: 'key', value: 'value', effect: 'NoSchedule' }] } })),
      nodeInfo(makeNode('d', { spec: { taints: [{ key: 'key', value: 'value', effect: 'NoSchedule' }] } })),
      nodeInfo(makeNode('e', { spec: { taints: [{ key: 'key', value: 'value', effect: 'NoExecute' }] } })),
    ];
    const refs = (...n: string[]) => n.map((name) => ({ name }));
    const { deps } = fakeDeps({ nodes });
    const f = newFramework(
      {
        schedulerName: 'default-scheduler',
        plugins: {
          preFilter: refs('NodeResourcesFit'),
          filter: refs('TaintToleration', 'NodeResourcesFit'),
          preScore: refs('TaintToleration', 'NodeResourcesFit'),
          score: [
            { name: 'TaintToleration', weight: 3 },
            { name: 'NodeResourcesFit', weight: 1 },
          ],
        },
        pluginArgs: {},
      },
      inTreeRegistry,
      deps,
    );
    const out = await run(f, makePod('p', { requests: [{ cpu: '2' }] }));
    expect(out.type).toBe('FitError');
    if (out.type !== 'FitError') return;
    expect(out.error.message).toBe(
      '0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {key: value}.',
    );
    expect([...out.error.diagnosis.unschedulablePlugins].sort()).toEqual([
      'NodeResourcesFit',
      'TaintToleration',
    ]);
    expect(out.error.diagnosis.nodeToStatus.statuses.get('a')).toMatchObject({
      code: 'UnschedulableAndUnresolvable',
      plugin: 'NodeResourcesFit',
    });
  });
});

describe('node sampling and the round-robin start', () => {
  it('stops once enough feasible nodes are found and starts the next cycle after them', async () => {
    const nodes = names(...Array.from({ length: 1000 }, (_, i) => String(i + 1)));
    const f = fw({ filter: ['TrueFilter'], score: ['ScaledNumericMap'] }, nodes);
    const algorithm = newSchedulingAlgorithmState();
    const first = await schedulePod({ framework: f, state: newState(), pod: makePod('p'), algorithm });
    expect(first).toMatchObject({
      type: 'Scheduled',
      evaluatedNodes: 420,
      feasibleNodes: 420,
      suggestedHost: '420',
    });
    expect(algorithm.nextStartNodeIndex).toBe(420);
    const second = await schedulePod({ framework: f, state: newState(), pod: makePod('p'), algorithm });
    expect(second).toMatchObject({ suggestedHost: '840' });
    expect(algorithm.nextStartNodeIndex).toBe(840);
    const third = await schedulePod({ framework: f, state: newState(), pod: makePod('p'), algorithm });
    // wraps around: nodes 841..1000 then 1..260; the best of them is 1000.
    expect(third).toMatchObject({ suggestedHost: '1000', evaluatedNodes: 420 });
    expect(algorithm.nextStartNodeIndex).toBe(260);
  });

  it('counts rejected nodes as processed too', async () => {
    const nodes = names(...Array.from({ length: 200 }, (_, i) => String(i + 1)));
    const f = fw({ filter: ['NoPodsFilter'], score: ['ScaledNumericMap'] }, nodes);
    for (const n of nodes.slice(0, 50)) n.addPod(makePod(`on-${n.name}`, { nodeName: n.name }));
    const algorithm = newSchedulingAlgorithmState();
    const out = await schedulePod({ framework: f, state: newState(), pod: makePod('p'), algorithm });
    // 200 nodes → 100 to find; 50 rejected first, then nodes 51..150 feasible.
    expect(out).toMatchObject({
      type: 'Scheduled',
      evaluatedNodes: 150,
      feasibleNodes: 100,
      suggestedHost: '150',
    });
    expect(algorithm.nextStartNodeIndex).toBe(150);
  });

  it('takes the profile percentage over the global one', async () => {
    const nodes = names(...Array.from({ length: 1000 }, (_, i) => String(i + 1)));
    const f = fw({ filter: ['TrueFilter'], score: ['ScaledNumericMap'] }, nodes, registry, 30);
    const out = await schedulePod({
      framework: f,
      state: newState(),
      pod: makePod('p'),
      algorithm: newSchedulingAlgorithmState(),
      percentageOfNodesToScore: 70,
    });
    expect(out).toMatchObject({ feasibleNodes: 300 });
  });
});

describe('findNodesThatFitPod details', () => {
  it('records every failed node with the rejecting plugin (TestFindFitAllError)', async () => {
    const f = fw({ filter: ['TrueFilter', 'FalseFilter'], score: ['NumericMap'] }, names('1', '2', '3'));
    const out = await run(f, makePod('p'));
    expect(out.type).toBe('FitError');
    if (out.type !== 'FitError') return;
    const statuses = out.error.diagnosis.nodeToStatus.statuses;
    expect([...statuses.keys()]).toEqual(['1', '2', '3']);
    for (const s of statuses.values())
      expect(s).toEqual({ code: 'Unschedulable', reasons: [ERR_REASON_FAKE], plugin: 'FalseFilter' });
  });

  it('only the failed nodes are recorded (TestFindFitSomeError)', async () => {
    const f = fw({ filter: ['MatchFilter'], score: ['NumericMap'] }, names('1', '2', '3'));
    const out = await run(f, makePod('1'));
    expect(out).toMatchObject({ type: 'Scheduled', suggestedHost: '1', evaluatedNodes: 3, feasibleNodes: 1 });
  });

  it('without filter plugins the nodes are taken from the round-robin start', async () => {
    const nodes = names(...Array.from({ length: 200 }, (_, i) => String(i + 1)));
    const f = fw({ score: ['ScaledNumericMap'] }, nodes);
    const algorithm = { nextStartNodeIndex: 150 };
    const out = await schedulePod({ framework: f, state: newState(), pod: makePod('p'), algorithm });
    // 100 nodes from index 150: nodes 151..200 then 1..50; the best is 200.
    expect(out).toMatchObject({
      type: 'Scheduled',
      suggestedHost: '200',
      feasibleNodes: 100,
      evaluatedNodes: 100,
    });
    expect(algorithm.nextStartNodeIndex).toBe(50);
  });

  it('an extender answer in both maps counts as UnschedulableAndUnresolvable', async () => {
    const f = fw({ filter: ['TrueFilter'], score: ['NumericMap'] }, names('1', '2'));
    const ext: Extender = {
      name: () => 'ext',
      isFilter: () => true,
      isPrioritizer: () => false,
      isBinder: () => false,
      isInterested: () => true,
      isIgnorable: () => false,
      filter: async () => ({
        feasible: [],
        failed: { '1': 'soft', '2': 'soft' },
        failedAndUnresolvable: { '1': 'hard' },
      }),
      prioritize: async () => ({ scores: [], weight: 1 }),
      bind: async () => {},
    };
    const out = await run(f, makePod('p'), [ext]);
    expect(out.type).toBe('FitError');
    if (out.type !== 'FitError') return;
    expect(out.error.diagnosis.nodeToStatus.statuses.get('1')).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['hard'],
    });
    expect(out.error.diagnosis.nodeToStatus.statuses.get('2')).toEqual({
      code: 'Unschedulable',
      reasons: ['soft'],
    });
    expect(out.error.message).toBe('0/2 nodes are available: 1 hard, 1 soft.');
  });

  it('an uninterested extender is not asked', async () => {
    const f = fw({ filter: ['TrueFilter'], score: ['NumericMap'] }, names('1', '2'));
    let asked = 0;
    const ext: Extender = {
      name: () => 'ext',
      isFilter: () => true,
      isPrioritizer: () => true,
      isBinder: () => false,
      isInterested: () => false,
      isIgnorable: () => false,
      filter: async () => {
        asked++;
        return { feasible: [], failed: {}, failedAndUnresolvable: {} };
      },
      prioritize: async () => {
        asked++;
        return { scores: [], weight: 1 };
      },
      bind: async () => {},
    };
    expect(await run(f, makePod('p'), [ext])).toMatchObject({ type: 'Scheduled', suggestedHost: '2' });
    expect(asked).toBe(0);
  });
});

describe('numFeasibleNodesToFind', () => {
  it.each<[string, number | undefined, number, number, number]>([
    ['fewer than 100 nodes: all of them', undefined, 0, 10, 10],
    ['fewer than 100 nodes even with a profile percentage', 40, 0, 10, 10],
    ['adaptive at 100 nodes', undefined, 0, 100, 100],
    ['adaptive at 1000 nodes: 42%', undefined, 0, 1000, 420],
    ['profile 40% of 1000', 40, 0, 1000, 400],
    ['global 100% of 1000', undefined, 100, 1000, 1000],
    ['the profile wins over the global value', 40, 100, 1000, 400],
    ['global 10% of 1000', undefined, 10, 1000, 100],
    ['profile 10% of 1000', 10, 0, 1000, 100],
    ['never below 100', undefined, 1, 1000, 100],
    ['adaptive at 5000 nodes: 10%', undefined, 0, 5000, 500],
    ['adaptive at 6000 nodes: floored at 5%', undefined, 0, 6000, 300],
    ['adaptive at 15000 nodes', undefined, 0, 15000, 750],
    ['a profile value of 0 is adaptive too', 0, 50, 1000, 420],
  ])('%s', (_name, profile, global, n, want) => {
    expect(numFeasibleNodesToFind(profile, global, n)).toBe(want);
  });
});

describe('selectHost', () => {
  const s = (name: string, totalScore: number) => ({ name, scores: [], totalScore });
  it.each<[string, ReturnType<typeof s>[], (string | undefined)[]]>([
    ['unique, in order', [s('machine1.1', 1), s('machine2.1', 2)], ['machine2.1']],
    [
      'equal scores',
      [s('machine1.1', 1), s('machine1.2', 2), s('machine1.3', 2), s('machine2.1', 2)],
      ['machine1.2', 'machine1.3', 'machine2.1'],
    ],
    [
      'out of order scores',
      [s('machine1.1', 3), s('machine1.2', 3), s('machine2.1', 2), s('machine3.1', 1), s('machine1.3', 3)],
      ['machine1.1', 'machine1.2', 'machine1.3'],
    ],
    ['empty list', [], [undefined]],
  ])('%s', (_name, list, possible) => {
    for (const r of [0, 0.3, 0.6, 0.99]) expect(possible).toContain(selectHost(list, () => r));
  });

  it('the k-th tied node replaces the choice when the random draw is below 1/k', () => {
    const list = [s('a', 5), s('b', 5), s('c', 5)];
    expect(selectHost(list, () => 0)).toBe('c');
    expect(selectHost(list, () => 0.9)).toBe('a');
  });
});

describe('prioritizeNodes', () => {
  it('every node scores 1 without score plugins or extenders', async () => {
    const nodes = names('1', '2');
    const out = await prioritizeNodes(fw({ filter: ['TrueFilter'] }, nodes), newState(), makePod('p'), nodes);
    expect(out.scores.map((x) => [x.name, x.totalScore])).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
  });
});

describe('extenders', () => {
  const extender = (
    o: Partial<Extender> & { weight?: number; failFor?: string[]; scores?: Record<string, number> },
  ): Extender => ({
    name: () => 'ext',
    isFilter: () => Boolean(o.failFor),
    isPrioritizer: () => Boolean(o.scores),
    isBinder: () => false,
    isInterested: () => true,
    isIgnorable: () => false,
    filter: async (_p, nodes) => ({
      feasible: nodes.filter((n) => !o.failFor?.includes(n.name)),
      failed: Object.fromEntries((o.failFor ?? []).map((n) => [n, 'extender says no'])),
      failedAndUnresolvable: {},
    }),
    prioritize: async (_p, nodes) => ({
      scores: nodes.map((n) => ({ host: n.name, score: o.scores?.[n.name] ?? 0 })),
      weight: o.weight ?? 1,
    }),
    bind: async () => {},
    ...o,
  });

  it('a filtering extender rejects nodes and is recorded as the Extender plugin', async () => {
    const f = fw({ filter: ['TrueFilter'], score: ['NumericMap'] }, names('1', '2', '3'));
    const out = await run(f, makePod('p'), [extender({ failFor: ['1', '2', '3'] })]);
    expect(out.type).toBe('FitError');
    if (out.type !== 'FitError') return;
    expect(out.error.message).toBe('0/3 nodes are available: 3 extender says no.');
    expect([...out.error.diagnosis.unschedulablePlugins]).toEqual(['Extender']);
  });

  it("an extender's score × weight × 10 is added to the total", async () => {
    const f = fw({ filter: ['TrueFilter'], score: ['NumericMap'] }, names('1', '2', '3'));
    // NumericMap gives 3 to node 3; the extender gives node 1 score 1 × weight 2 × 10 = 20.
    const out = await run(f, makePod('p'), [extender({ scores: { '1': 1 }, weight: 2 })]);
    expect(out).toMatchObject({ type: 'Scheduled', suggestedHost: '1' });
  });

  it('an ignorable extender that fails is skipped; a failing one is an error', async () => {
    const failing = (ignorable: boolean) =>
      extender({
        failFor: [],
        isIgnorable: () => ignorable,
        filter: async () => {
          throw new Error('extender down');
        },
      });
    const f = fw({ filter: ['TrueFilter'], score: ['NumericMap'] }, names('1', '2'));
    expect(await run(f, makePod('p'), [failing(true)])).toMatchObject({
      type: 'Scheduled',
      suggestedHost: '2',
    });
    const out = await run(f, makePod('p'), [failing(false)]);
    expect(out.type).toBe('Error');
    if (out.type === 'Error') expect(statusMessage(out.status)).toBe('extender down');
  });
});
