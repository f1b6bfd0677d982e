// TaintToleration tests ported in our own words from taint_toleration_test.go.
import { describe, expect, it } from 'vitest';
import type { Node, Taint, Toleration } from '../../../../../operators/api/core-v1.ts';
import { ActionType, type NodeScore } from '../../../../../operators/scheduling/framework/interface.ts';
import {
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodTolerationChange,
  TaintToleration,
} from '../../../../../operators/scheduling/plugins/taint-toleration/taint-toleration.ts';
import { makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

const tainted = (name: string, taints: Taint[]) => makeNode(name, { spec: { taints } });
const tolerating = (tolerations: Toleration[]) => makePod('p', { spec: { tolerations } });
const pns = (key: string, value: string): Taint => ({ key, value, effect: 'PreferNoSchedule' });

describe('TaintToleration Score', () => {
  it.each<[string, Toleration[], Node[], number[]]>([
    [
      'a node whose taints the pod tolerates scores higher than one with intolerable taints',
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      [tainted('nodeA', [pns('foo', 'bar')]), tainted('nodeB', [pns('foo', 'blah')])],
      [100, 0],
    ],
    [
      'nodes whose taints are all tolerated score the same, however many taints they have',
      [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
      ],
      [
        tainted('nodeA', []),
        tainted('nodeB', [pns('cpu-type', 'arm64')]),
        tainted('nodeC', [pns('cpu-type', 'arm64'), pns('disk-type', 'ssd')]),
      ],
      [100, 100, 100],
    ],
    [
      'the more intolerable taints, the lower the score',
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      [
        tainted('nodeA', []),
        tainted('nodeB', [pns('cpu-type', 'arm64')]),
        tainted('nodeC', [pns('cpu-type', 'arm64'), pns('disk-type', 'ssd')]),
      ],
      [100, 50, 0],
    ],
    [
      'only PreferNoSchedule taints and tolerations (or tolerations without an effect) count',
      [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd' },
      ],
      [
        tainted('nodeA', []),
        tainted('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]),
        tainted('nodeC', [pns('cpu-type', 'arm64'), pns('disk-type', 'ssd')]),
      ],
      [100, 100, 0],
    ],
    [
      'no tolerations: the untainted node wins',
      [],
      [tainted('nodeA', []), tainted('nodeB', [pns('cpu-type', 'arm64')])],
      [100, 0],
    ],
  ])('%s', (_name, tolerations, nodes, want) => {
    const plugin = new TaintToleration();
    const pod = tolerating(tolerations);
    const state = newState();
    plugin.preScore(state, pod);
    const scores: NodeScore[] = nodes.map((n) => ({
      name: n.metadata.name!,
      score: plugin.score(state, pod, nodeInfo(n)) as number,
    }));
    plugin.normalizeScore(state, pod, scores);
    expect(scores.map((s) => s.score)).toEqual(want);
  });
});

describe('TaintToleration Filter', () => {
  const ns = (key: string, value?: string): Taint => ({
    key,
    ...(value !== undefined ? { value } : {}),
    effect: 'NoSchedule',
  });
  it.each<[string, Toleration[], Taint[], string | undefined]>([
    [
      'a pod without tolerations cannot land on a tainted node',
      [],
      [ns('dedicated', 'user1')],
      '{dedicated: user1}',
    ],
    [
      'a pod tolerating the dedicated taint',
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      [ns('dedicated', 'user1')],
      undefined,
    ],
    [
      'a pod tolerating another value',
      [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      [ns('dedicated', 'user1')],
      '{dedicated: user1}',
    ],
    [
      'an Exists toleration',
      [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
      [ns('foo', 'bar')],
      undefined,
    ],
    [
      'several tolerations, several taints, all tolerated',
      [
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ],
      [ns('dedicated', 'user2'), ns('foo')],
      undefined,
    ],
    [
      'key and value match but the (non-empty) effect does not',
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      [ns('foo', 'bar')],
      '{foo: bar}',
    ],
    [
      'a toleration without an effect tolerates every effect',
      [{ key: 'foo', operator: 'Equal', value: 'bar' }],
      [ns('foo', 'bar')],
      undefined,
    ],
    [
      'a PreferNoSchedule taint never blocks',
      [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
      undefined,
    ],
    [
      'no toleration, only a PreferNoSchedule taint',
      [],
      [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
      undefined,
    ],
    ['a NoExecute taint blocks too', [], [{ key: 'k', value: 'v', effect: 'NoExecute' }], '{k: v}'],
    ['a taint without a value prints an empty value', [], [ns('gpu')], '{gpu: }'],
    [
      'an empty key with Exists tolerates everything',
      [{ operator: 'Exists' }],
      [ns('a', 'b'), { key: 'c', effect: 'NoExecute' }],
      undefined,
    ],
    ['the first untolerated taint is reported', [], [ns('first', '1'), ns('second', '2')], '{first: 1}'],
  ])('%s', (_name, tolerations, taints, want) => {
    const s = new TaintToleration().filter(
      newState(),
      tolerating(tolerations),
      nodeInfo(tainted('n', taints)),
    );
    if (want === undefined) return expect(s).toBeUndefined();
    expect(s).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: [`node(s) had untolerated taint ${want}`],
    });
  });
});

describe('TaintToleration queueing hints', () => {
  const pod = tolerating([{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]);
  const withTaint = (value: string) => tainted('n', [{ key: 'foo', value, effect: 'NoSchedule' }]);
  it.each<[string, Node | undefined, Node, string]>([
    ['a node added with a tolerated taint', undefined, withTaint('bar'), 'Queue'],
    ['a node added with an untolerated taint', undefined, withTaint('baz'), 'QueueSkip'],
    ['a node whose taint became tolerated', withTaint('baz'), withTaint('bar'), 'Queue'],
    ['a node whose taint stays untolerated', withTaint('baz'), withTaint('qux'), 'QueueSkip'],
    ['a node that was already tolerated', withTaint('bar'), tainted('n', []), 'QueueSkip'],
  ])('%s', (_name, oldObj, newObj, want) => {
    expect(isSchedulableAfterNodeChange(pod, oldObj, newObj)).toBe(want);
  });

  it('queues on the pod’s own toleration change only', () => {
    expect(isSchedulableAfterPodTolerationChange(pod, pod, pod)).toBe('Queue');
    expect(isSchedulableAfterPodTolerationChange(pod, undefined, makePod('other'))).toBe('QueueSkip');
  });

  it('registers node adds and taint updates, and pod toleration updates', () => {
    expect(new TaintToleration().eventsToRegister().map((e) => e.event)).toEqual([
      { resource: 'Node', action: ActionType.Add | ActionType.UpdateNodeTaint },
      { resource: 'Pod', action: ActionType.UpdatePodToleration },
    ]);
  });
});
