// Nodes, with cases from upstream's TestValidateNode (taints, pod CIDRs).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateNode } from '../../../../../src/apiserver/builtin/validation/core-node-validation.ts';
import { causeLines } from './cause-lines.ts';

const node = (spec: object) => ({ metadata: { name: 'n' }, spec }) as KubeObject;

describe('validateNode', () => {
  it.each([
    ['no spec', {}, []],
    [
      'taints',
      {
        taints: [
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
          { key: 'dedicated', effect: 'NoExecute' },
        ],
      },
      [],
    ],
    ['dual-stack pod CIDRs', { podCIDRs: ['10.244.0.0/24', 'fd00::/64'] }, []],
    ['a taint without an effect', { taints: [{ key: 'k' }] }, ['spec.taints[0].effect: Required value']],
    [
      'a taint key with two slashes',
      { taints: [{ key: 'a/b/c', effect: 'NoSchedule' }] },
      [
        `spec.taints[0].key: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ],
    [
      'one taint twice',
      {
        taints: [
          { key: 'k', effect: 'NoSchedule' },
          { key: 'k', value: 'v', effect: 'NoSchedule' },
        ],
      },
      [
        'spec.taints[1]: Duplicate value: {"key":"k","value":"v","effect":"NoSchedule"}: taints must be unique by key and effect pair',
      ],
    ],
    [
      'a CIDR that does not parse',
      { podCIDRs: ['10.244.0.0/33'] },
      [
        'spec.podCIDRs[0]: Invalid value: "10.244.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
    [
      'two CIDRs of one family',
      { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] },
      [
        'spec.podCIDRs: Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one CIDR for each IP family',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateNode(node(spec)))).toEqual(expected);
  });
});
