// Node selector matching tests, after component-helpers' nodeaffinity tests: operators, ORed terms, matchFields, lazy errors.
import { describe, expect, it } from 'vitest';
import type { Node, NodeSelectorTerm } from '../../../../../operators/api/core-v1.ts';
import {
  CompiledNodeSelector,
  matchesNodeSelectorLabels,
  PreferredSchedulingTerms,
  RequiredNodeAffinity,
} from '../../../../../operators/scheduling/plugins/helpers/node-selector.ts';
import { makeNode, makePod } from '../../framework/fixtures.ts';

const node: Node = makeNode('node-a', { labels: { zone: 'us-east-1a', cores: '16', tier: 'gold' } });

describe('CompiledNodeSelector', () => {
  it.each<[string, NodeSelectorTerm[], boolean, number?]>([
    ['In', [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['us-east-1a', 'b'] }] }], true],
    [
      'NotIn on an absent label matches',
      [{ matchExpressions: [{ key: 'gpu', operator: 'NotIn', values: ['x'] }] }],
      true,
    ],
    ['Exists', [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }], true],
    ['DoesNotExist', [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }], false],
    ['Gt', [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] }], true],
    ['Lt', [{ matchExpressions: [{ key: 'cores', operator: 'Lt', values: ['8'] }] }], false],
    ['Gt on an absent label', [{ matchExpressions: [{ key: 'ram', operator: 'Gt', values: ['8'] }] }], false],
    [
      'Gt with two values is invalid: the term is dropped',
      [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] }],
      false,
      1,
    ],
    [
      'an unknown operator is invalid',
      [{ matchExpressions: [{ key: 'cores', operator: 'Near', values: ['1'] }] }],
      false,
      1,
    ],
    [
      'an invalid term does not stop a valid one',
      [
        { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['x'] }] },
        { matchExpressions: [{ key: 'zone', operator: 'Exists' }] },
      ],
      true,
      1,
    ],
    [
      'matchFields metadata.name In',
      [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }],
      true,
    ],
    [
      'matchFields metadata.name NotIn',
      [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-a'] }] }],
      false,
    ],
    [
      'matchFields on another field never equals',
      [{ matchFields: [{ key: 'spec.foo', operator: 'In', values: ['x'] }] }],
      false,
    ],
    [
      'matchFields Exists is invalid',
      [{ matchFields: [{ key: 'metadata.name', operator: 'Exists' }] }],
      false,
      1,
    ],
    [
      'expressions and fields in one term are ANDed',
      [
        {
          matchExpressions: [{ key: 'zone', operator: 'Exists' }],
          matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-b'] }],
        },
      ],
      false,
    ],
    ['an empty term matches nothing', [{}], false],
    ['no terms match nothing', [], false],
  ])('%s', (_name, terms, want, problems = 0) => {
    const sel = new CompiledNodeSelector({ nodeSelectorTerms: terms });
    expect(sel.match(node)).toBe(want);
    expect(sel.problems.length).toBe(problems);
  });

  it('never matches an absent node', () => {
    expect(
      new CompiledNodeSelector({
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }],
      }).match(undefined),
    ).toBe(false);
  });
});

describe('RequiredNodeAffinity and matchesNodeSelectorLabels', () => {
  it('ANDs spec.nodeSelector with the required terms', () => {
    const pod = makePod('p', {
      spec: {
        nodeSelector: { tier: 'gold' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }],
            },
          },
        },
      },
    });
    expect(new RequiredNodeAffinity(pod).match(node)).toBe(true);
    expect(new RequiredNodeAffinity(pod).match(makeNode('x', { labels: { zone: 'z' } }))).toBe(false);
    expect(new RequiredNodeAffinity(makePod('q')).match(node)).toBe(true);
  });

  it.each<[Record<string, string>, Record<string, string> | undefined, boolean]>([
    [{}, undefined, true],
    [{ a: 'b' }, undefined, false],
    [{ a: 'b' }, { a: 'b', c: 'd' }, true],
    [{ a: 'b' }, { a: 'c' }, false],
  ])('matchesNodeSelectorLabels(%j, %j) = %s', (sel, labels, want) => {
    expect(matchesNodeSelectorLabels(sel, labels)).toBe(want);
  });
});

describe('PreferredSchedulingTerms', () => {
  it('sums the weights of matching terms, skipping weight 0 and empty preferences', () => {
    const terms = new PreferredSchedulingTerms([
      { weight: 3, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
      { weight: 5, preference: { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] } },
      { weight: 7, preference: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] } },
      { weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
      { weight: 11, preference: {} },
    ]);
    expect(terms.score(node)).toBe(8);
    expect(terms.problems).toEqual([]);
  });
});
