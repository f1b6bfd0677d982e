// NodeResourcesBalancedAllocation tests ported in our own words from balanced_allocation_test.go.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, ResourceList } from '../../../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../../../operators/errors.ts';
import {
  type NodeResourcesBalancedAllocation,
  newNodeResourcesBalancedAllocation,
} from '../../../../../operators/scheduling/plugins/node-resources/node-resources-balanced-allocation.ts';
import {
  defaultNodeResourcesBalancedAllocationArgs,
  validateNodeResourcesBalancedAllocationArgs,
} from '../../../../../operators/scheduling/plugins/node-resources/node-resources-balanced-allocation-args.ts';
import type { ResourceSpec } from '../../../../../operators/scheduling/plugins/node-resources/node-resources-fit-args.ts';
import { balancedResourceScorer } from '../../../../../operators/scheduling/plugins/node-resources/resource-allocation-scorer.ts';
import { container, fakeDeps, makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

const pod = (name: string, ...requests: ResourceList[]) =>
  makePod(name, { containers: requests.map((r) => container(r)) });
const on = (nodeName: string, ...requests: ResourceList[]) =>
  makePod(`on-${nodeName}-${requests.length}-${Math.random()}`, {
    containers: requests.map((r) => container(r)),
    nodeName,
  });
const node = (name: string, allocatable: ResourceList) => makeNode(name, { allocatable });

function balanced(resources?: ResourceSpec[]) {
  const { deps } = fakeDeps();
  return newNodeResourcesBalancedAllocation({ resources }, deps as never) as NodeResourcesBalancedAllocation;
}

function scores(plugin: NodeResourcesBalancedAllocation, p: Pod, nodes: Node[], existing: Pod[] = []) {
  const state = newState();
  const pre = plugin.preScore(state, p);
  if (pre?.code === 'Skip') return 'Skip';
  return nodes.map((n) =>
    plugin.score(
      state,
      p,
      nodeInfo(
        n,
        existing.filter((e) => e.spec.nodeName === n.metadata.name),
      ),
    ),
  );
}

describe('NodeResourcesBalancedAllocation', () => {
  it.each<[string, Pod, Node[], Pod[], number[] | 'Skip', ResourceSpec[]?]>([
    [
      'a best-effort pod is skipped at PreScore',
      pod('p'),
      [node('node1', { cpu: '4000', memory: '10000' })],
      [],
      'Skip',
    ],
    [
      'a pod whose containers request nothing is best effort too',
      makePod('p'),
      [node('node1', { cpu: '4000', memory: '10000' })],
      [],
      'Skip',
    ],
    [
      'nothing scheduled, resources requested, differently sized nodes',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', { cpu: '4000', memory: '10000' }), node('node2', { cpu: '6000', memory: '10000' })],
      [],
      // node1 fractions 0.75 / 0.5 → std 0.125 → 87; node2 0.5 / 0.5 → 100
      [87, 100],
    ],
    [
      'resources requested, pods scheduled with resources',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', { cpu: '10000', memory: '20000' }), node('node2', { cpu: '10000', memory: '20000' })],
      [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      // node1 0.6 / 0.25 → 82; node2 0.6 / 0.5 → 95
      [82, 95],
    ],
    [
      'requests above capacity are capped at a fraction of 1',
      pod('p', { cpu: '5000', memory: '5000' }),
      [node('node1', { cpu: '4000', memory: '10000' })],
      [],
      // 1 / 0.5 → std 0.25 → 75
      [75],
    ],
    [
      'existing pods count with their actual requests (no non-zero defaults)',
      pod('p', { cpu: '1000' }),
      [node('node1', { cpu: '4000', memory: '10000' })],
      [on('node1')],
      // cpu 0.25, memory 0 (the existing container has no request) → std 0.125 → 87
      [87],
    ],
    [
      'a resource the node does not have is skipped',
      pod('p', { cpu: '1000', memory: '2000' }),
      [node('node1', { cpu: '4000' })],
      [],
      // only cpu is counted: one fraction, std 0 → 100
      [100],
    ],
    [
      'three resources use the population standard deviation',
      pod('p', { cpu: '1000', memory: '2000', 'nvidia.com/gpu': '1' }),
      [node('node1', { cpu: '4000', memory: '10000', 'nvidia.com/gpu': '4' })],
      [],
      // fractions 0.25, 0.2, 0.25 → mean 0.2333, std 0.02357 → 97
      [97],
      [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
        { name: 'nvidia.com/gpu', weight: 1 },
      ],
    ],
  ])('%s', (_name, p, nodes, existing, want, resources) => {
    expect(scores(balanced(resources), p, nodes, existing)).toEqual(want);
  });

  it.each<[number[], number[], number]>([
    [[1, 1], [2, 2], 100],
    [[1, 0], [2, 2], 75],
    [[0], [0], 100],
    [[5, 5], [0, 0], 100],
  ])('balancedResourceScorer(%j, %j) = %d', (requested, allocatable, want) => {
    expect(balancedResourceScorer(requested, allocatable)).toBe(want);
  });

  it('defaults to cpu and memory with weight 1', () => {
    expect(defaultNodeResourcesBalancedAllocationArgs(undefined)).toEqual({
      resources: [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
      ],
    });
  });

  it.each<[string, ResourceSpec[], string | undefined]>([
    ['valid', [{ name: 'cpu', weight: 1 }], undefined],
    [
      'a duplicate resource',
      [
        { name: 'cpu', weight: 1 },
        { name: 'cpu', weight: 1 },
      ],
      'args.resources[1].name',
    ],
    ['a weight other than 1', [{ name: 'cpu', weight: 2 }], 'args.resources[0].weight'],
  ])('validation: %s', (_name, resources, field) => {
    const run = () => validateNodeResourcesBalancedAllocationArgs({ resources }, 'args');
    if (!field) return expect(run).not.toThrow();
    expect(run).toThrow(InvalidConfigError);
    try {
      run();
    } catch (e) {
      expect((e as InvalidConfigError).field).toBe(field);
    }
  });
});
