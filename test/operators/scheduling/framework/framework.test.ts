// Tests of the framework runner, ported in our own words from kube-scheduler's runtime/framework_test.go.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../../operators/errors.ts';
import {
  type ExtensionPoint,
  newFramework,
  type PluginRef,
} from '../../../../operators/scheduling/framework/framework.ts';
import {
  ActionType,
  type CycleState,
  type NodeScore,
  type Plugin,
  type PluginFactory,
  type PreFilterResult,
  type Registry,
} from '../../../../operators/scheduling/framework/interface.ts';
import { type NodeInfo, newPodInfo } from '../../../../operators/scheduling/framework/node-info.ts';
import { newStatus, type Status, statusMessage } from '../../../../operators/scheduling/framework/status.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { fakeDeps, makeNode, makePod, newState, nodeInfo } from './fixtures.ts';

/** What a configurable test plugin returns at each point; calls are recorded in `calls`. */
interface Injected {
  preFilter?: Status;
  preFilterResult?: PreFilterResult;
  filter?: Status | ((node: NodeInfo) => Status | undefined);
  postFilter?: Status;
  postFilterNominate?: string;
  preScore?: Status;
  score?: number | Status;
  normalize?: Status | ((scores: NodeScore[]) => void);
  reserve?: Status;
  permit?: Status;
  permitTimeoutMs?: number;
  preBind?: Status;
  bind?: Status;
  preEnqueue?: Status;
  throwAt?: string;
  events?: boolean;
}

function testPlugin(name: string, inj: Injected, calls: string[] = []): Plugin {
  const t = (point: string) => {
    calls.push(`${name}.${point}`);
    if (inj.throwAt === point) throw new Error(`${name} threw at ${point}`);
  };
  /** Records the call, then returns the injected value. */
  const at = <T>(point: string, value: T): T => {
    t(point);
    return value;
  };
  const p = {
    name,
    preEnqueue: () => at('preEnqueue', inj.preEnqueue),
    less: () => false,
    preFilter: () => at('preFilter', { result: inj.preFilterResult, status: inj.preFilter }),
    preFilterExtensions: () => ({
      addPod: (_s: CycleState, _p: Pod, added: { pod: Pod }) =>
        at(`addPod:${added.pod.metadata.name}`, undefined),
      removePod: () => at('removePod', undefined),
    }),
    filter: (_s: CycleState, _p: Pod, n: NodeInfo) => {
      t(`filter:${n.name}`);
      return typeof inj.filter === 'function' ? inj.filter(n) : inj.filter;
    },
    postFilter: async () => {
      t('postFilter');
      return {
        status: inj.postFilter,
        result: inj.postFilterNominate
          ? { nominatingInfo: { nominatedNodeName: inj.postFilterNominate, mode: 'Override' as const } }
          : undefined,
      };
    },
    preScore: () => at('preScore', inj.preScore),
    score: () => at('score', inj.score ?? 0),
    normalizeScore: (_s: CycleState, _p: Pod, scores: NodeScore[]) => {
      t('normalize');
      if (typeof inj.normalize === 'function') {
        inj.normalize(scores);
        return undefined;
      }
      return inj.normalize;
    },
    reserve: () => at('reserve', inj.reserve),
    unreserve: () => t('unreserve'),
    permit: () => at('permit', { status: inj.permit, timeoutMs: inj.permitTimeoutMs }),
    preBind: async () => at('preBind', inj.preBind),
    bind: async () => at('bind', inj.bind),
    postBind: () => t('postBind'),
    ...(inj.events
      ? { eventsToRegister: () => [{ event: { resource: 'Node' as const, action: ActionType.Add } }] }
      : {}),
  };
  return p as Plugin;
}

function setup(
  plugins: Partial<Record<ExtensionPoint, (string | PluginRef)[]>>,
  injected: Record<string, Injected>,
  opts: {
    nodes?: NodeInfo[];
    nominated?: Record<string, ReturnType<typeof newPodInfo>[]>;
    clock?: VirtualClock;
  } = {},
) {
  const calls: string[] = [];
  const registry: Record<string, PluginFactory> = {};
  for (const [name, inj] of Object.entries(injected)) registry[name] = () => testPlugin(name, inj, calls);
  const resolved: Partial<Record<ExtensionPoint, PluginRef[]>> = {};
  for (const [point, refs] of Object.entries(plugins)) {
    resolved[point as ExtensionPoint] = refs!.map((r) => (typeof r === 'string' ? { name: r } : r));
  }
  const { deps, api } = fakeDeps({ nodes: opts.nodes ?? [], nominated: opts.nominated });
  const fw = newFramework(
    { schedulerName: 'default-scheduler', plugins: resolved, pluginArgs: {} },
    registry,
    { ...deps, scheduler: opts.clock?.scheduler },
  );
  return { fw, calls, api };
}

const pod = makePod('p', { requests: [{ cpu: '100m' }] });
const signal = new AbortController().signal;

describe('newFramework', () => {
  it.each([
    ['an unknown plugin', { filter: ['Missing'] }, 'plugins.filter[0].name: plugin "Missing" does not exist'],
    [
      'a plugin enabled twice at one point',
      { filter: ['A', 'A'] },
      'plugins.filter[1].name: plugin "A" already registered as "filter"',
    ],
    ['a negative weight', { score: [{ name: 'A', weight: -1 }] }, 'plugins.score[0].weight'],
    ['two queue sort plugins', { queueSort: ['A', 'B'] }, 'only one queue sort plugin can be enabled'],
  ])('rejects %s', (_name, plugins, message) => {
    expect(() => setup(plugins as never, { A: {}, B: {} })).toThrow(InvalidConfigError);
    expect(() => setup(plugins as never, { A: {}, B: {} })).toThrow(message);
  });

  it('rejects a plugin that does not implement the extension point it is enabled at', () => {
    const registry: Registry = { Bare: () => ({ name: 'Bare' }) };
    const { deps } = fakeDeps();
    expect(() =>
      newFramework(
        { schedulerName: 's', plugins: { filter: [{ name: 'Bare' }] }, pluginArgs: {} },
        registry,
        deps,
      ),
    ).toThrow('plugin "Bare" does not extend FilterPlugin plugin');
  });

  it('instantiates a plugin once however many points enable it, passing its args', () => {
    let made = 0;
    const seen: unknown[] = [];
    const registry: Registry = {
      A: (args) => {
        made++;
        seen.push(args);
        return testPlugin('A', {});
      },
    };
    const { deps } = fakeDeps();
    const fw = newFramework(
      {
        schedulerName: 's',
        plugins: { preFilter: [{ name: 'A' }], filter: [{ name: 'A' }], score: [{ name: 'A', weight: 2 }] },
        pluginArgs: { A: { x: 1 } },
      },
      registry,
      deps,
    );
    expect(made).toBe(1);
    expect(seen).toEqual([{ x: 1 }]);
    expect(fw.listPlugins('filter')).toEqual(['A']);
    expect(fw.hasScorePlugins()).toBe(true);
    expect(fw.hasPostFilterPlugins()).toBe(false);
  });

  it('registers a plugin without EnqueueExtensions for every resource with action All', () => {
    const { fw } = setup({ filter: ['A', 'B'] }, { A: {}, B: { events: true } });
    expect(fw.enqueueExtensions()).toEqual([
      { plugin: 'A', events: [{ event: { resource: '*', action: ActionType.All } }] },
      { plugin: 'B', events: [{ event: { resource: 'Node', action: ActionType.Add } }] },
    ]);
  });
});

describe('RunPreFilterPlugins', () => {
  it.each<
    [
      string,
      Record<string, Injected>,
      { code?: string; message?: string; plugin?: string; skip?: string[]; nodes?: string[] },
    ]
  >([
    ['all succeed', { A: {}, B: {} }, {}],
    ['Skip puts the plugin in the skip set', { A: { preFilter: newStatus('Skip') }, B: {} }, { skip: ['A'] }],
    [
      'UnschedulableAndUnresolvable returns at once with the plugin stamped',
      {
        A: { preFilter: newStatus('UnschedulableAndUnresolvable', 'no way') },
        B: { preFilter: newStatus('Unschedulable', 'b') },
      },
      { code: 'UnschedulableAndUnresolvable', message: 'no way', plugin: 'A' },
    ],
    [
      'Unschedulable is remembered while the rest still run',
      { A: { preFilter: newStatus('Unschedulable', 'a') }, B: {} },
      { code: 'Unschedulable', message: 'a', plugin: 'A' },
    ],
    [
      'an Error is wrapped with the plugin name',
      { A: { preFilter: newStatus('Error', 'injected') }, B: {} },
      { code: 'Error', message: 'running PreFilter plugin "A": injected', plugin: 'A' },
    ],
    [
      'a throw is an Error',
      { A: { throwAt: 'preFilter' }, B: {} },
      { code: 'Error', message: 'running PreFilter plugin "A": A threw at preFilter', plugin: 'A' },
    ],
    [
      'node sets are intersected',
      {
        A: { preFilterResult: { nodeNames: new Set(['n1', 'n2']) } },
        B: { preFilterResult: { nodeNames: new Set(['n2', 'n3']) } },
      },
      { nodes: ['n2'] },
    ],
    [
      'an empty intersection of two plugins is UnschedulableAndUnresolvable naming both',
      {
        A: { preFilterResult: { nodeNames: new Set(['n1']) } },
        B: { preFilterResult: { nodeNames: new Set(['n2']) } },
      },
      {
        code: 'UnschedulableAndUnresolvable',
        message: "node(s) didn't satisfy plugin(s) [A B] simultaneously",
      },
    ],
    [
      'an empty set from one plugin names it alone',
      { A: {}, B: { preFilterResult: { nodeNames: new Set() } } },
      { code: 'UnschedulableAndUnresolvable', message: "node(s) didn't satisfy plugin B" },
    ],
  ])('%s', (_name, injected, want) => {
    const { fw, calls } = setup({ preFilter: Object.keys(injected) }, injected);
    const state = newState();
    const out = fw.runPreFilterPlugins(state, pod);
    expect(out.status?.code ?? 'Success').toBe(want.code ?? 'Success');
    if (want.message) expect(statusMessage(out.status)).toBe(want.message);
    expect(out.status?.plugin).toBe(want.plugin);
    expect([...state.skipFilterPlugins]).toEqual(want.skip ?? []);
    if (want.nodes) expect([...(out.result?.nodeNames ?? [])]).toEqual(want.nodes);
    if (want.code === 'UnschedulableAndUnresolvable' && want.plugin === 'A')
      expect(calls).toEqual(['A.preFilter']);
  });
});

describe('RunFilterPlugins', () => {
  const n1 = nodeInfo(makeNode('n1'));
  it.each<
    [string, Record<string, Injected>, { code: string; message?: string; plugin?: string; calls: string[] }]
  >([
    ['success', { A: {}, B: {} }, { code: 'Success', calls: ['A.filter:n1', 'B.filter:n1'] }],
    [
      'the first rejection wins and stops the run',
      {
        A: { filter: newStatus('Unschedulable', 'a says no') },
        B: { filter: newStatus('Unschedulable', 'b') },
      },
      { code: 'Unschedulable', message: 'a says no', plugin: 'A', calls: ['A.filter:n1'] },
    ],
    [
      'UnschedulableAndUnresolvable is kept as is',
      { A: {}, B: { filter: newStatus('UnschedulableAndUnresolvable', 'b') } },
      {
        code: 'UnschedulableAndUnresolvable',
        message: 'b',
        plugin: 'B',
        calls: ['A.filter:n1', 'B.filter:n1'],
      },
    ],
    [
      'an Error is wrapped',
      { A: { filter: newStatus('Error', 'injected filter status') } },
      {
        code: 'Error',
        message: 'running "A" filter plugin: injected filter status',
        plugin: 'A',
        calls: ['A.filter:n1'],
      },
    ],
    [
      'a Wait from a filter is not a rejection: an Error',
      { A: { filter: newStatus('Wait', 'w') } },
      { code: 'Error', message: 'running "A" filter plugin: w', plugin: 'A', calls: ['A.filter:n1'] },
    ],
  ])('%s', (_name, injected, want) => {
    const { fw, calls } = setup({ filter: Object.keys(injected) }, injected);
    const s = fw.runFilterPlugins(newState(), pod, n1);
    expect(s?.code ?? 'Success').toBe(want.code);
    if (want.message) expect(statusMessage(s)).toBe(want.message);
    expect(s?.plugin).toBe(want.plugin);
    expect(calls).toEqual(want.calls);
  });

  it('skips the plugins whose PreFilter returned Skip', () => {
    const { fw, calls } = setup(
      { preFilter: ['A'], filter: ['A', 'B'] },
      { A: { preFilter: newStatus('Skip'), filter: newStatus('Unschedulable', 'x') }, B: {} },
    );
    const state = newState();
    fw.runPreFilterPlugins(state, pod);
    expect(fw.runFilterPlugins(state, pod, n1)).toBeUndefined();
    expect(calls).toEqual(['A.preFilter', 'B.filter:n1']);
  });
});

describe('RunFilterPluginsWithNominatedPods', () => {
  const node = makeNode('n1', { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } });
  const big = (name: string, priority: number) =>
    newPodInfo(makePod(name, { priority, requests: [{ cpu: '800m' }] }));
  // A filter that fails when the node has less than 300m cpu left.
  const fitsFilter = (n: NodeInfo) =>
    n.allocatable.milliCPU - n.requested.milliCPU >= 300
      ? undefined
      : newStatus('Unschedulable', 'Insufficient cpu');

  it.each<[string, number, ReturnType<typeof newPodInfo>[], string, string[]]>([
    ['no nominated pods: one pass', 0, [], 'Success', ['A.filter:n1']],
    [
      'an equal-priority nominated pod counts as running: the pod does not fit',
      5,
      [big('nom', 5)],
      'Unschedulable',
      ['A.addPod:nom', 'A.filter:n1'],
    ],
    ['a lower-priority nominated pod is ignored', 5, [big('low', 1)], 'Success', ['A.filter:n1']],
    [
      'a higher-priority nominated pod that leaves room: both passes run',
      5,
      [newPodInfo(makePod('small', { priority: 9, requests: [{ cpu: '100m' }] }))],
      'Success',
      ['A.addPod:small', 'A.filter:n1', 'A.filter:n1'],
    ],
  ])('%s', (_name, priority, nominated, code, calls) => {
    const { fw, calls: got } = setup(
      { preFilter: ['A'], filter: ['A'] },
      { A: { filter: fitsFilter } },
      { nominated: { n1: nominated } },
    );
    const p = makePod('p', { priority, requests: [{ cpu: '100m' }] });
    const s = fw.runFilterPluginsWithNominatedPods(newState(), p, nodeInfo(node));
    expect(s?.code ?? 'Success').toBe(code);
    expect(got).toEqual(calls);
  });

  it('does not count the pod itself among the nominated pods', () => {
    const p = makePod('p', { priority: 5, requests: [{ cpu: '800m' }] });
    const { fw } = setup(
      { filter: ['A'] },
      { A: { filter: fitsFilter } },
      { nominated: { n1: [newPodInfo(p)] } },
    );
    expect(fw.runFilterPluginsWithNominatedPods(newState(), p, nodeInfo(node))).toBeUndefined();
  });
});

describe('RunPostFilterPlugins', () => {
  const statuses = { statuses: new Map<string, Status>() };
  it.each<
    [
      string,
      Record<string, Injected>,
      { code: string; reasons?: string[]; plugin?: string; nominated?: string },
    ]
  >([
    [
      'a Success ends the run',
      { A: { postFilter: newStatus('Success') }, B: { postFilter: newStatus('Unschedulable', 'b') } },
      { code: 'Success' },
    ],
    [
      'an Unschedulable then a Success is a Success',
      { A: { postFilter: newStatus('Unschedulable', 'a') }, B: { postFilter: newStatus('Success') } },
      { code: 'Success' },
    ],
    [
      'UnschedulableAndUnresolvable ends the run, stamped',
      {
        A: { postFilter: newStatus('UnschedulableAndUnresolvable', 'a') },
        B: { postFilter: newStatus('Success') },
      },
      { code: 'UnschedulableAndUnresolvable', reasons: ['a'], plugin: 'A' },
    ],
    [
      'an Error ends the run',
      { A: { postFilter: newStatus('Error', 'boom') } },
      { code: 'Error', reasons: ['boom'], plugin: 'A' },
    ],
    [
      'all Unschedulable: their reasons together, the first plugin named, the last nomination kept',
      {
        A: { postFilter: newStatus('Unschedulable', 'a'), postFilterNominate: 'n1' },
        B: { postFilter: newStatus('Unschedulable', 'b'), postFilterNominate: 'n2' },
      },
      { code: 'Unschedulable', reasons: ['a', 'b'], plugin: 'A', nominated: 'n2' },
    ],
  ])('%s', async (_name, injected, want) => {
    const { fw } = setup({ postFilter: Object.keys(injected) }, injected);
    const out = await fw.runPostFilterPlugins(newState(), pod, statuses);
    expect(out.status?.code ?? 'Success').toBe(want.code);
    if (want.reasons) expect(out.status?.reasons).toEqual(want.reasons);
    expect(out.status?.plugin).toBe(want.plugin);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe(want.nominated);
  });
});

describe('RunPreScorePlugins and RunScorePlugins', () => {
  const nodes = [nodeInfo(makeNode('n1')), nodeInfo(makeNode('n2'))];

  it.each<[string, (string | PluginRef)[], Record<string, Injected>, number[] | string]>([
    ['no score plugins: empty per-plugin scores, total 0', [], {}, [0, 0]],
    ['one plugin, weight unset → 1', ['A'], { A: { score: 7 } }, [7, 7]],
    [
      'weights multiply',
      [
        { name: 'A', weight: 2 },
        { name: 'B', weight: 3 },
      ],
      { A: { score: 10 }, B: { score: 20 } },
      [80, 80],
    ],
    ['weight 0 counts as 1', [{ name: 'A', weight: 0 }], { A: { score: 9 } }, [9, 9]],
    [
      'normalize rewrites the scores',
      ['A'],
      {
        A: {
          score: 3,
          normalize: (s) =>
            s.forEach((x) => {
              x.score = 50;
            }),
        },
      },
      [50, 50],
    ],
    [
      'a score error',
      ['A'],
      { A: { score: newStatus('Error', 'bad') } },
      'running Score plugins: plugin "A" failed with: bad',
    ],
    [
      'a normalize error',
      ['A'],
      { A: { score: 1, normalize: newStatus('Error', 'nope') } },
      'running Normalize on Score plugins: plugin "A" failed with: nope',
    ],
    [
      'a score above 100 after normalize',
      ['A'],
      { A: { score: 101 } },
      'plugin "A" returns an invalid score 101, it should in the range of [0, 100] after normalizing',
    ],
    ['a negative score', ['A'], { A: { score: -1 } }, 'plugin "A" returns an invalid score -1'],
  ])('%s', (_name, refs, injected, want) => {
    const { fw } = setup({ preScore: Object.keys(injected), score: refs }, injected);
    const state = newState();
    expect(fw.runPreScorePlugins(state, pod, nodes)).toBeUndefined();
    const out = fw.runScorePlugins(state, pod, nodes);
    if (typeof want === 'string') {
      expect(out.status?.code).toBe('Error');
      expect(statusMessage(out.status)).toContain(want);
    } else {
      expect(out.status).toBeUndefined();
      expect(out.scores.map((s) => s.totalScore)).toEqual(want);
      expect(out.scores.map((s) => s.name)).toEqual(['n1', 'n2']);
    }
  });

  it('a PreScore Skip leaves that plugin out of Score', () => {
    const { fw, calls } = setup(
      { preScore: ['A', 'B'], score: ['A', 'B'] },
      { A: { preScore: newStatus('Skip'), score: 100 }, B: { score: 4 } },
    );
    const state = newState();
    fw.runPreScorePlugins(state, pod, nodes);
    const out = fw.runScorePlugins(state, pod, nodes);
    expect(out.scores.map((s) => s.totalScore)).toEqual([4, 4]);
    expect(out.scores[0]!.scores).toEqual([{ name: 'B', score: 4 }]);
    expect(calls.filter((c) => c.startsWith('A.score'))).toEqual([]);
  });

  it('a PreScore error is wrapped', () => {
    const { fw } = setup({ preScore: ['A'] }, { A: { preScore: newStatus('Error', 'x') } });
    expect(statusMessage(fw.runPreScorePlugins(newState(), pod, nodes))).toBe(
      'running PreScore plugin "A": x',
    );
  });
});

describe('Reserve, Permit, PreBind, Bind, PostBind', () => {
  it('Reserve stops at the first failure; Unreserve runs every plugin in reverse order', () => {
    const { fw, calls } = setup(
      { reserve: ['A', 'B', 'C'] },
      { A: {}, B: { reserve: newStatus('Unschedulable', 'full') }, C: {} },
    );
    const state = newState();
    const s = fw.runReservePluginsReserve(state, pod, 'n1');
    expect(s).toMatchObject({ code: 'Unschedulable', plugin: 'B' });
    fw.runReservePluginsUnreserve(state, pod, 'n1');
    expect(calls).toEqual(['A.reserve', 'B.reserve', 'C.unreserve', 'B.unreserve', 'A.unreserve']);
  });

  it('a Reserve error is wrapped', () => {
    const { fw } = setup({ reserve: ['A'] }, { A: { reserve: newStatus('Error', 'x') } });
    expect(statusMessage(fw.runReservePluginsReserve(newState(), pod, 'n1'))).toBe(
      'running Reserve plugin "A": x',
    );
  });

  it.each<[string, Record<string, Injected>, string, string | undefined]>([
    ['all allow', { A: {}, B: {} }, 'Success', undefined],
    [
      'a rejection stops at once',
      { A: { permit: newStatus('Unschedulable', 'no') }, B: { permit: newStatus('Wait') } },
      'Unschedulable',
      'no',
    ],
    ['an error', { A: { permit: newStatus('Error', 'x') } }, 'Error', 'running Permit plugin "A": x'],
    [
      'a wait',
      { A: { permit: newStatus('Wait'), permitTimeoutMs: 1000 }, B: {} },
      'Wait',
      'one or more plugins asked to wait and no plugin rejected pod "p"',
    ],
  ])('Permit: %s', (_name, injected, code, message) => {
    const { fw } = setup({ permit: Object.keys(injected) }, injected, { clock: new VirtualClock() });
    const s = fw.runPermitPlugins(newState(), pod, 'n1');
    expect(s?.code ?? 'Success').toBe(code);
    if (message) expect(statusMessage(s)).toBe(message);
    expect(fw.willWaitOnPermit(pod)).toBe(code === 'Wait');
  });

  it('a waiting pod is allowed once every waiting plugin allows it', async () => {
    const clock = new VirtualClock();
    const { fw } = setup(
      { permit: ['A', 'B'] },
      {
        A: { permit: newStatus('Wait'), permitTimeoutMs: 5000 },
        B: { permit: newStatus('Wait'), permitTimeoutMs: 5000 },
      },
      { clock },
    );
    fw.runPermitPlugins(newState(), pod, 'n1');
    const waited = fw.waitOnPermit(pod);
    const wp = fw.getWaitingPod('uid-p')!;
    expect(wp.pendingPlugins().sort()).toEqual(['A', 'B']);
    wp.allow('A');
    expect(wp.settled).toBe(false);
    wp.allow('B');
    expect(await waited).toBeUndefined();
    expect(fw.willWaitOnPermit(pod)).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it('a waiting pod times out at the shortest plugin timeout, capped at 15 minutes', async () => {
    const clock = new VirtualClock();
    const { fw } = setup(
      { permit: ['A', 'B'] },
      {
        A: { permit: newStatus('Wait'), permitTimeoutMs: 60 * 60 * 1000 },
        B: { permit: newStatus('Wait'), permitTimeoutMs: 20 * 60 * 1000 },
      },
      { clock },
    );
    fw.runPermitPlugins(newState(), pod, 'n1');
    const waited = fw.waitOnPermit(pod);
    clock.advance(15 * 60 * 1000 - 1);
    expect(fw.getWaitingPod('uid-p')!.settled).toBe(false);
    clock.advance(1);
    const s = await waited;
    expect(s).toMatchObject({ code: 'Unschedulable', plugin: 'A' });
    expect(statusMessage(s)).toBe('rejected due to timeout after waiting 15m0s at plugin A');
    expect(clock.pending).toBe(0);
  });

  it('rejectWaitingPod rejects a waiting pod; false for a pod that is not waiting', async () => {
    const { fw } = setup(
      { permit: ['A'] },
      { A: { permit: newStatus('Wait'), permitTimeoutMs: 1000 } },
      { clock: new VirtualClock() },
    );
    expect(fw.rejectWaitingPod('uid-p', 'DefaultPreemption', 'preempted')).toBe(false);
    fw.runPermitPlugins(newState(), pod, 'n1');
    const waited = fw.waitOnPermit(pod);
    expect(fw.rejectWaitingPod('uid-p', 'DefaultPreemption', 'preempted')).toBe(true);
    expect(await waited).toMatchObject({
      code: 'Unschedulable',
      plugin: 'DefaultPreemption',
      reasons: ['preempted'],
    });
  });

  it('waitOnPermit of a pod that is not waiting resolves to Success at once', async () => {
    const { fw } = setup({ permit: ['A'] }, { A: {} });
    expect(await fw.waitOnPermit(pod)).toBeUndefined();
  });

  it.each<[string, Record<string, Injected>, string, string[]]>([
    ['no binder: Skip', {}, 'Skip', []],
    [
      'Skip tries the next binder',
      { A: { bind: newStatus('Skip') }, B: {} },
      'Success',
      ['A.bind', 'B.bind'],
    ],
    ['the first non-Skip is final', { A: {}, B: {} }, 'Success', ['A.bind']],
    ['an error is wrapped', { A: { bind: newStatus('Error', 'x') } }, 'Error', ['A.bind']],
    ['every binder skips: Skip', { A: { bind: newStatus('Skip') } }, 'Skip', ['A.bind']],
  ])('Bind: %s', async (_name, injected, code, calls) => {
    const { fw, calls: got } = setup({ bind: Object.keys(injected) }, injected);
    const s = await fw.runBindPlugins(newState(), pod, 'n1', signal);
    expect(s?.code ?? 'Success').toBe(code);
    if (code === 'Error') expect(statusMessage(s)).toBe('running Bind plugin "A": x');
    expect(got).toEqual(calls);
  });

  it('PreBind: a rejection is stamped, an error wrapped', async () => {
    const r = setup({ preBind: ['A'] }, { A: { preBind: newStatus('Unschedulable', 'no') } });
    expect(await r.fw.runPreBindPlugins(newState(), pod, 'n1', signal)).toMatchObject({
      code: 'Unschedulable',
      plugin: 'A',
    });
    const e = setup({ preBind: ['A'] }, { A: { preBind: newStatus('Error', 'x') } });
    expect(statusMessage(await e.fw.runPreBindPlugins(newState(), pod, 'n1', signal))).toBe(
      'running PreBind plugin "A": x',
    );
  });

  it('PostBind runs every plugin and swallows throws', () => {
    const { fw, calls } = setup({ postBind: ['A', 'B'] }, { A: { throwAt: 'postBind' }, B: {} });
    fw.runPostBindPlugins(newState(), pod, 'n1');
    expect(calls).toEqual(['A.postBind', 'B.postBind']);
  });
});

describe('PreEnqueue and QueueSort', () => {
  it('the first non-success PreEnqueue gates the pod, stamped with the plugin', () => {
    const { fw, calls } = setup(
      { preEnqueue: ['A', 'B', 'C'] },
      { A: {}, B: { preEnqueue: newStatus('UnschedulableAndUnresolvable', 'gated') }, C: {} },
    );
    expect(fw.runPreEnqueuePlugins(pod)).toMatchObject({ code: 'UnschedulableAndUnresolvable', plugin: 'B' });
    expect(calls).toEqual(['A.preEnqueue', 'B.preEnqueue']);
  });

  it('queueSortLess uses the one QueueSort plugin; none enabled is a config error', () => {
    const { fw } = setup({ queueSort: ['A'] }, { A: {} });
    expect(fw.queueSortLess({ pod, timestamp: 0 }, { pod, timestamp: 1 })).toBe(false);
    const none = setup({}, {});
    expect(() => none.fw.queueSortLess({ pod, timestamp: 0 }, { pod, timestamp: 1 })).toThrow(
      'no queue sort plugin is enabled',
    );
  });
});

describe('the handle', () => {
  it('runs PreFilterExtensions AddPod/RemovePod of non-skipped plugins and wraps failures', () => {
    const { fw, calls } = setup({ preFilter: ['A', 'B'] }, { A: { preFilter: newStatus('Skip') }, B: {} });
    const state = newState();
    fw.runPreFilterPlugins(state, pod);
    const other = newPodInfo(makePod('o'));
    const ni = nodeInfo(makeNode('n1'));
    expect(fw.runPreFilterExtensionAddPod(state, pod, other, ni)).toBeUndefined();
    expect(fw.runPreFilterExtensionRemovePod(state, pod, other, ni)).toBeUndefined();
    expect(calls).toEqual(['A.preFilter', 'B.preFilter', 'B.addPod:o', 'B.removePod']);
  });

  it('reads the snapshot and the deps at call time', () => {
    const n = nodeInfo(makeNode('n1'));
    const { fw } = setup({}, {}, { nodes: [n] });
    expect(fw.snapshot().get('n1')).toBe(n);
    expect(fw.nominatedPodsForNode('n1')).toEqual([]);
    expect(fw.podDisruptionBudgets()).toEqual([]);
    expect(fw.parallelism).toBe(16);
    expect(fw.profileName).toBe('default-scheduler');
  });
});
