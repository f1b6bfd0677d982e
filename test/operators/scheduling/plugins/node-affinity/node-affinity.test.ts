// NodeAffinity tests ported in our own words from node_affinity_test.go (Filter, PreFilterResult, Score, args, hints).
import { describe, expect, it } from 'vitest';
import type {
  Affinity,
  Node,
  NodeAffinity,
  NodeSelectorTerm,
  Pod,
} from '../../../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../../../operators/errors.ts';
import type { NodeScore } from '../../../../../operators/scheduling/framework/interface.ts';
import {
  ERR_REASON_CONFLICT,
  ERR_REASON_ENFORCED,
  ERR_REASON_POD,
  NodeAffinityPlugin,
  newNodeAffinity,
} from '../../../../../operators/scheduling/plugins/node-affinity/node-affinity.ts';
import { validateNodeAffinityArgs } from '../../../../../operators/scheduling/plugins/node-affinity/node-affinity-args.ts';
import { fakeDeps, makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

const required = (...terms: NodeSelectorTerm[]): Affinity => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
});
const expr = (key: string, operator: string, ...values: string[]) => ({ key, operator, values });
const nameIn = (...values: string[]) => ({ key: 'metadata.name', operator: 'In', values });

interface Case {
  name: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  labels?: Record<string, string>;
  nodeName?: string;
  added?: NodeAffinity;
  /** undefined: fits; otherwise the Filter reason */
  reason?: string;
  preFilterNodes?: string[];
  preFilterStatus?: string;
  skip?: boolean;
}

describe('NodeAffinity Filter', () => {
  it.each<Case>([
    { name: 'no affinity and no selector: PreFilter skips', skip: true },
    { name: 'an affinity without node affinity: PreFilter skips', affinity: { podAffinity: {} }, skip: true },
    { name: 'missing labels', nodeSelector: { foo: 'bar' }, reason: ERR_REASON_POD },
    { name: 'same labels', nodeSelector: { foo: 'bar' }, labels: { foo: 'bar' } },
    { name: 'node labels are a superset', nodeSelector: { foo: 'bar' }, labels: { foo: 'bar', baz: 'blah' } },
    {
      name: 'node labels are a subset',
      nodeSelector: { foo: 'bar', baz: 'blah' },
      labels: { foo: 'bar' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'In matches',
      affinity: required({ matchExpressions: [expr('foo', 'In', 'bar', 'value2')] }),
      labels: { foo: 'bar' },
    },
    {
      name: 'Gt matches a larger integer label',
      affinity: required({ matchExpressions: [expr('kernel-version', 'Gt', '0204')] }),
      labels: { 'kernel-version': '0206' },
    },
    {
      name: 'Gt does not match a smaller one',
      affinity: required({ matchExpressions: [expr('kernel-version', 'Gt', '0204')] }),
      labels: { 'kernel-version': '0203' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'Lt matches a smaller integer label',
      affinity: required({ matchExpressions: [expr('cores', 'Lt', '8')] }),
      labels: { cores: '4' },
    },
    {
      name: 'Lt against a label that is not an integer',
      affinity: required({ matchExpressions: [expr('cores', 'Lt', '8')] }),
      labels: { cores: 'four' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'NotIn matches',
      affinity: required({ matchExpressions: [expr('mem-type', 'NotIn', 'DDR', 'DDR2')] }),
      labels: { 'mem-type': 'DDR3' },
    },
    {
      name: 'Exists matches',
      affinity: required({ matchExpressions: [expr('GPU', 'Exists')] }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
    },
    {
      name: 'DoesNotExist fails when the label is there',
      affinity: required({ matchExpressions: [expr('GPU', 'DoesNotExist')] }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'In with values that do not match',
      affinity: required({ matchExpressions: [expr('foo', 'In', 'value1', 'value2')] }),
      labels: { foo: 'bar' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'an empty term selects nothing',
      affinity: required({ matchExpressions: [] }),
      labels: { foo: 'bar' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'no terms at all select nothing',
      affinity: required(),
      labels: { foo: 'bar' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'expressions of a term are ANDed: both match',
      affinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', 'AMD', 'INTER')] }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
    },
    {
      name: 'expressions of a term are ANDed: one fails',
      affinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', 'AMD', 'INTER')] }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'terms are ORed',
      affinity: required(
        { matchExpressions: [expr('foo', 'In', 'bar', 'value2')] },
        { matchExpressions: [expr('diffkey', 'In', 'wrong', 'value2')] },
      ),
      labels: { foo: 'bar' },
    },
    {
      name: 'affinity and nodeSelector both satisfied',
      nodeSelector: { foo: 'bar' },
      affinity: required({ matchExpressions: [expr('foo', 'Exists')] }),
      labels: { foo: 'bar' },
    },
    {
      name: 'affinity satisfied but nodeSelector not',
      nodeSelector: { foo: 'bar' },
      affinity: required({ matchExpressions: [expr('foo', 'Exists')] }),
      labels: { foo: 'barrrrrr' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'an invalid value drops the term',
      affinity: required({ matchExpressions: [expr('foo', 'NotIn', 'invalid value: ___@#$%^')] }),
      labels: { foo: 'bar' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'matchFields In matches the node name, and restricts PreFilter to it',
      affinity: required({ matchFields: [nameIn('node1')] }),
      nodeName: 'node1',
      preFilterNodes: ['node1'],
    },
    {
      name: 'matchFields In does not match',
      affinity: required({ matchFields: [nameIn('node1')] }),
      nodeName: 'node2',
      preFilterNodes: ['node1'],
      reason: ERR_REASON_POD,
    },
    {
      name: 'two terms: the fields term fails but the expressions term matches',
      affinity: required(
        { matchFields: [nameIn('node1')] },
        { matchExpressions: [expr('foo', 'In', 'bar')] },
      ),
      nodeName: 'node2',
      labels: { foo: 'bar' },
    },
    {
      name: 'one term: fields fail though expressions match',
      affinity: required({ matchFields: [nameIn('node1')], matchExpressions: [expr('foo', 'In', 'bar')] }),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      preFilterNodes: ['node1'],
      reason: ERR_REASON_POD,
    },
    {
      name: 'one term: fields and expressions match',
      affinity: required({ matchFields: [nameIn('node1')], matchExpressions: [expr('foo', 'In', 'bar')] }),
      nodeName: 'node1',
      labels: { foo: 'bar' },
      preFilterNodes: ['node1'],
    },
    {
      name: 'two terms: neither matches',
      affinity: required(
        { matchFields: [nameIn('node1')] },
        { matchExpressions: [expr('foo', 'In', 'not-match-to-bar')] },
      ),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      reason: ERR_REASON_POD,
    },
    {
      name: 'two terms naming nodes: PreFilter takes their union',
      affinity: required({ matchFields: [nameIn('node1')] }, { matchFields: [nameIn('node2')] }),
      nodeName: 'node2',
      preFilterNodes: ['node1', 'node2'],
    },
    {
      name: 'two conflicting node names in one term',
      affinity: required({ matchFields: [nameIn('node1'), nameIn('node2')] }),
      nodeName: 'node2',
      preFilterStatus: ERR_REASON_CONFLICT,
    },
    {
      name: 'a NotIn field requirement',
      affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node1'] }] }),
      nodeName: 'node2',
    },
    {
      name: 'addedAffinity and the pod selector both match',
      nodeSelector: { foo: 'bar' },
      added: required({ matchExpressions: [expr('zone', 'In', 'foo')] }).nodeAffinity,
      labels: { foo: 'bar', zone: 'foo' },
    },
    {
      name: 'addedAffinity does not match',
      nodeSelector: { foo: 'bar' },
      added: required({ matchExpressions: [expr('zone', 'In', 'foo')] }).nodeAffinity,
      labels: { foo: 'bar', zone: 'bar' },
      reason: ERR_REASON_ENFORCED,
    },
    {
      name: 'a pod without affinity still meets addedAffinity',
      added: required({ matchExpressions: [expr('zone', 'In', 'foo')] }).nodeAffinity,
      labels: { zone: 'bar' },
      reason: ERR_REASON_ENFORCED,
    },
  ])('$name', (tc) => {
    const { deps } = fakeDeps();
    const plugin = newNodeAffinity(
      tc.added ? { addedAffinity: tc.added } : {},
      deps as never,
    ) as NodeAffinityPlugin;
    const pod = makePod('p', {
      spec: {
        ...(tc.nodeSelector ? { nodeSelector: tc.nodeSelector } : {}),
        ...(tc.affinity ? { affinity: tc.affinity } : {}),
      },
    });
    const node = makeNode(tc.nodeName ?? 'node1', { labels: tc.labels ?? {} });
    const state = newState();
    const pre = plugin.preFilter(state, pod);
    if (tc.skip) return expect(pre?.status?.code).toBe('Skip');
    if (tc.preFilterStatus) {
      expect(pre?.status).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [tc.preFilterStatus] });
      return;
    }
    expect(pre?.status).toBeUndefined();
    expect(pre?.result?.nodeNames ? [...pre.result.nodeNames].sort() : undefined).toEqual(tc.preFilterNodes);
    const s = plugin.filter(state, pod, nodeInfo(node));
    if (tc.reason === undefined) expect(s).toBeUndefined();
    else expect(s).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [tc.reason] });
  });
});

describe('NodeAffinity Score', () => {
  const preferred = (...terms: [number, NodeSelectorTerm][]): Affinity => ({
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: terms.map(([weight, preference]) => ({
        weight,
        preference,
      })),
    },
  });
  const affinity1 = preferred([2, { matchExpressions: [expr('foo', 'In', 'bar')] }]);
  const affinity2 = preferred(
    [2, { matchExpressions: [expr('foo', 'In', 'bar')] }],
    [4, { matchExpressions: [expr('key', 'In', 'value')] }],
    [
      5,
      { matchExpressions: [expr('foo', 'In', 'bar'), expr('key', 'In', 'value'), expr('az', 'In', 'az1')] },
    ],
  );
  const label1 = { foo: 'bar' };
  const label2 = { key: 'value' };
  const label3 = { az: 'az1' };
  const label5 = { foo: 'bar', key: 'value', az: 'az1' };

  it.each<[string, Affinity | undefined, Record<string, string>[], number[] | 'Skip', NodeAffinity?]>([
    ['no preferred terms: PreScore skips', { nodeAffinity: {} }, [label1, label2, label3], 'Skip'],
    ['no node matches the preferred terms', affinity1, [label2, label3, {}], [0, 0, 0]],
    ['only node1 matches', affinity1, [label1, label2, label3], [100, 0, 0]],
    ['every node matches, with different weights', affinity2, [label1, label5, label2], [18, 100, 36]],
    [
      'an empty preference and a weight of 0 are ignored',
      preferred([0, { matchExpressions: [expr('foo', 'Exists')] }], [3, {}]),
      [label1],
      [0],
    ],
    [
      'addedAffinity preferred terms score too',
      affinity1,
      [label1, label2, label5],
      // node1: 2; node2: 4 (added); node3: 2 + 4 = 6 → 33, 66, 100
      [33, 66, 100],
      preferred([4, { matchExpressions: [expr('key', 'In', 'value')] }]).nodeAffinity,
    ],
  ])('%s', (_name, affinity, labels, want, added) => {
    const { deps } = fakeDeps();
    const plugin = newNodeAffinity(
      added ? { addedAffinity: added } : {},
      deps as never,
    ) as NodeAffinityPlugin;
    const pod = makePod('p', affinity ? { spec: { affinity } } : {});
    const state = newState();
    const pre = plugin.preScore(state, pod);
    if (want === 'Skip') return expect(pre?.code).toBe('Skip');
    const scores: NodeScore[] = labels.map((l, i) => {
      const ni = nodeInfo(makeNode(`node${i + 1}`, { labels: l }));
      return { name: ni.name, score: plugin.score(state, pod, ni) as number };
    });
    plugin.normalizeScore(state, pod, scores);
    expect(scores.map((s) => s.score)).toEqual(want);
  });

  it('a malformed preferred term is an Error at PreScore', () => {
    const plugin = new NodeAffinityPlugin();
    const pod = makePod('p', {
      spec: { affinity: preferred([1, { matchExpressions: [expr('foo', 'Gt', 'x')] }]) },
    });
    expect(plugin.preScore(newState(), pod)?.code).toBe('Error');
  });
});

describe('NodeAffinityArgs', () => {
  it.each<[string, NodeAffinity, string | undefined]>([
    ['valid', required({ matchExpressions: [expr('foo', 'In', 'bar')] }).nodeAffinity!, undefined],
    [
      'a bad operator',
      required({ matchExpressions: [expr('foo', 'Near', 'bar')] }).nodeAffinity!,
      'args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator',
    ],
    [
      'In without values',
      required({}, { matchExpressions: [expr('foo', 'In')] }).nodeAffinity!,
      'args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[0].values',
    ],
    [
      'a matchFields with two values',
      required({ matchFields: [nameIn('a', 'b')] }).nodeAffinity!,
      'args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values',
    ],
    [
      'a bad preferred term',
      {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, preference: { matchExpressions: [expr('foo', 'Lt', 'x')] } },
        ],
      },
      'args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]',
    ],
  ])('%s', (_name, addedAffinity, field) => {
    const run = () => validateNodeAffinityArgs({ addedAffinity }, 'args');
    if (!field) return expect(run).not.toThrow();
    let caught: unknown;
    try {
      run();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidConfigError);
    expect((caught as InvalidConfigError).field).toBe(field);
  });
});

describe('NodeAffinity queueing hint', () => {
  const pod: Pod = makePod('p', {
    spec: { affinity: required({ matchExpressions: [expr('foo', 'In', 'bar')] }) },
  });
  const n = (labels: Record<string, string>) => makeNode('n', { labels });
  it.each<[string, Node | undefined, Node, string, NodeAffinity?]>([
    ['a matching node added', undefined, n({ foo: 'bar' }), 'Queue'],
    ['a node added that does not match', undefined, n({ foo: 'baz' }), 'QueueSkip'],
    ['a node relabelled to match', n({ foo: 'baz' }), n({ foo: 'bar' }), 'Queue'],
    ['a node that already matched', n({ foo: 'bar' }), n({ foo: 'bar', x: 'y' }), 'QueueSkip'],
    [
      'a matching node outside the added affinity',
      undefined,
      n({ foo: 'bar' }),
      'QueueSkip',
      required({ matchExpressions: [expr('zone', 'Exists')] }).nodeAffinity,
    ],
  ])('%s', (_name, oldObj, newObj, want, added) => {
    const plugin = new NodeAffinityPlugin(added ? { addedAffinity: added } : {});
    expect(plugin.isSchedulableAfterNodeChange(pod, oldObj, newObj)).toBe(want);
  });
});
