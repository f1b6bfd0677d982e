// NodeResourcesFit tests ported in our own words from fit_test.go, least_allocated_test.go, most_allocated_test.go and requested_to_capacity_ratio_test.go.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, ResourceList } from '../../../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../../../operators/errors.ts';
import { ActionType } from '../../../../../operators/scheduling/framework/interface.ts';
import type { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { statusMessage } from '../../../../../operators/scheduling/framework/status.ts';
import {
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodEvent,
  type NodeResourcesFit,
  newNodeResourcesFit,
} from '../../../../../operators/scheduling/plugins/node-resources/node-resources-fit.ts';
import {
  defaultNodeResourcesFitArgs,
  type NodeResourcesFitArgs,
  type ResourceSpec,
  validateNodeResourcesFitArgs,
} from '../../../../../operators/scheduling/plugins/node-resources/node-resources-fit-args.ts';
import { buildBrokenLinearFunction } from '../../../../../operators/scheduling/plugins/node-resources/resource-allocation-scorer.ts';
import { container, fakeDeps, makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

/** A pod with one container per request list (none → no containers at all, as upstream's st.MakePod()). */
const pod = (name: string, ...requests: ResourceList[]) =>
  makePod(name, { containers: requests.map((r) => container(r)) });
const on = (nodeName: string, ...requests: ResourceList[]) =>
  makePod(`on-${nodeName}-${Math.random()}`, { containers: requests.map((r) => container(r)), nodeName });
const node = (name: string, allocatable: ResourceList) => makeNode(name, { allocatable });

function fitPlugin(args: NodeResourcesFitArgs = {}) {
  const { deps } = fakeDeps();
  return newNodeResourcesFit(args, deps as never) as NodeResourcesFit;
}

function scoresOf(plugin: NodeResourcesFit, p: Pod, nodes: Node[], existing: Pod[] = []): number[] {
  const infos: NodeInfo[] = nodes.map((n) =>
    nodeInfo(
      n,
      existing.filter((e) => e.spec.nodeName === n.metadata.name),
    ),
  );
  const state = newState();
  plugin.preScore(state, p);
  return infos.map((ni) => plugin.score(state, p, ni) as number);
}

const leastArgs = (resources?: ResourceSpec[]): NodeResourcesFitArgs => ({
  scoringStrategy: { type: 'LeastAllocated', resources },
});

describe('NodeResourcesFit Filter', () => {
  // Node: 10m cpu, 20 bytes memory, 32 pods, 5 example.com/aaa, 20 bytes storage, 5 hugepages-2Mi.
  const allocatable = {
    cpu: '10m',
    memory: '20',
    pods: '32',
    'example.com/aaa': '5',
    'ephemeral-storage': '20',
    'hugepages-2Mi': '5',
  };
  it.each<[string, Pod, Pod[], string, string[], ResourceList?, NodeResourcesFitArgs?]>([
    ['no resources requested always fits', pod('p'), [on('n', { cpu: '10m', memory: '20' })], 'Success', []],
    [
      'too many resources fails',
      pod('p', { cpu: '1m', memory: '1' }),
      [on('n', { cpu: '10m', memory: '20' })],
      'Unschedulable',
      ['Insufficient cpu', 'Insufficient memory'],
    ],
    [
      'too many resources fails due to an init container cpu',
      makePod('p', {
        containers: [container({ cpu: '1m', memory: '1' })],
        spec: { initContainers: [container({ cpu: '3m', memory: '1' })] },
      }),
      [on('n', { cpu: '8m', memory: '19' })],
      'Unschedulable',
      ['Insufficient cpu'],
    ],
    [
      'too many resources fails due to the highest init container cpu',
      makePod('p', {
        containers: [container({ cpu: '1m', memory: '1' })],
        spec: {
          initContainers: [container({ cpu: '3m', memory: '1' }), container({ cpu: '2m', memory: '1' })],
        },
      }),
      [on('n', { cpu: '8m', memory: '19' })],
      'Unschedulable',
      ['Insufficient cpu'],
    ],
    [
      'init containers fit when their max is below what is left',
      makePod('p', {
        containers: [container({ cpu: '1m', memory: '1' })],
        spec: { initContainers: [container({ cpu: '1m', memory: '1' })] },
      }),
      [on('n', { cpu: '9m', memory: '19' })],
      'Success',
      [],
    ],
    [
      'both resources fit',
      pod('p', { cpu: '1m', memory: '1' }),
      [on('n', { cpu: '5m', memory: '5' })],
      'Success',
      [],
    ],
    [
      'one resource memory fits',
      pod('p', { cpu: '2m', memory: '1' }),
      [on('n', { cpu: '9m', memory: '5' })],
      'Unschedulable',
      ['Insufficient cpu'],
    ],
    [
      'one resource cpu fits',
      pod('p', { cpu: '1m', memory: '2' }),
      [on('n', { cpu: '5m', memory: '19' })],
      'Unschedulable',
      ['Insufficient memory'],
    ],
    [
      'equal edge case',
      pod('p', { cpu: '5m', memory: '1' }),
      [on('n', { cpu: '5m', memory: '19' })],
      'Success',
      [],
    ],
    [
      'extended resource fits',
      pod('p', { 'example.com/aaa': '1' }),
      [on('n', { 'example.com/aaa': '0' })],
      'Success',
      [],
    ],
    [
      'extended resource capacity enforced',
      pod('p', { 'example.com/aaa': '10' }),
      [on('n', { 'example.com/aaa': '0' })],
      'UnschedulableAndUnresolvable',
      ['Insufficient example.com/aaa'],
    ],
    [
      'extended resource allocatable enforced',
      pod('p', { 'example.com/aaa': '1' }),
      [on('n', { 'example.com/aaa': '5' })],
      'Unschedulable',
      ['Insufficient example.com/aaa'],
    ],
    [
      'extended resource allocatable enforced for multiple containers',
      pod('p', { 'example.com/aaa': '2' }, { 'example.com/aaa': '2' }),
      [on('n', { 'example.com/aaa': '2' })],
      'Unschedulable',
      ['Insufficient example.com/aaa'],
    ],
    [
      'an unknown extended resource the node lacks',
      pod('p', { 'example.com/bbb': '1' }),
      [],
      'UnschedulableAndUnresolvable',
      ['Insufficient example.com/bbb'],
    ],
    [
      'an ignored extended resource is not checked',
      pod('p', { 'example.com/bbb': '1' }),
      [],
      'Success',
      [],
      undefined,
      { ignoredResources: ['example.com/bbb'] },
    ],
    [
      'an ignored resource group is not checked',
      pod('p', { 'example.com/bbb': '1' }),
      [],
      'Success',
      [],
      undefined,
      { ignoredResourceGroups: ['example.com'] },
    ],
    [
      'hugepages are native: they cannot be ignored',
      pod('p', { 'hugepages-2Mi': '10' }),
      [],
      'UnschedulableAndUnresolvable',
      ['Insufficient hugepages-2Mi'],
      undefined,
      { ignoredResources: ['hugepages-2Mi'] },
    ],
    ['hugepages fit', pod('p', { 'hugepages-2Mi': '3' }), [on('n', { 'hugepages-2Mi': '2' })], 'Success', []],
    [
      'ephemeral storage is checked',
      pod('p', { 'ephemeral-storage': '10' }),
      [on('n', { 'ephemeral-storage': '15' })],
      'Unschedulable',
      ['Insufficient ephemeral-storage'],
    ],
    [
      'a request above the whole allocatable cannot be helped by preemption',
      pod('p', { cpu: '11m' }),
      [],
      'UnschedulableAndUnresolvable',
      ['Insufficient cpu'],
    ],
    [
      'too many pods',
      pod('p', { cpu: '1m' }),
      [on('n'), on('n')],
      'Unschedulable',
      ['Too many pods'],
      { cpu: '10m', memory: '20', pods: '2' },
    ],
    [
      'too many pods and too much cpu: every reason, pods first',
      pod('p', { cpu: '5m' }),
      [on('n', { cpu: '8m' })],
      'Unschedulable',
      ['Too many pods', 'Insufficient cpu'],
      { cpu: '10m', memory: '20', pods: '1' },
    ],
    [
      'a pod requesting nothing still counts against the pod limit',
      pod('p'),
      [on('n')],
      'Unschedulable',
      ['Too many pods'],
      { cpu: '10m', memory: '20', pods: '1' },
    ],
    [
      'pod overhead is added to the request',
      makePod('p', { containers: [container({ cpu: '1m' })], spec: { overhead: { cpu: '3m' } } }),
      [on('n', { cpu: '7m' })],
      'Unschedulable',
      ['Insufficient cpu'],
    ],
  ])('%s', (_name, p, existing, code, reasons, alloc, args) => {
    const plugin = fitPlugin(args);
    const state = newState();
    plugin.preFilter(state, p);
    const s = plugin.filter(state, p, nodeInfo(node('n', alloc ?? allocatable), existing));
    expect(s?.code ?? 'Success').toBe(code);
    expect(s?.reasons ?? []).toEqual(reasons);
  });

  it('Filter without PreFilter is an Error', () => {
    const s = fitPlugin().filter(newState(), pod('p'), nodeInfo(node('n', allocatable)));
    expect(s?.code).toBe('Error');
    expect(statusMessage(s)).toContain('PreFilterNodeResourcesFit');
  });
});

describe('LeastAllocated', () => {
  // Upstream's capacities are whole cores ("4000" cpus); only the ratios matter.
  const cap = (cpu: string, memory: string, extra: ResourceList = {}) => ({ cpu, memory, ...extra });
  it.each<[string, Pod, Node[], Pod[], number[], ResourceSpec[]?]>([
    [
      'nothing scheduled, nothing requested',
      pod('p'),
      [node('node1', cap('4000', '10000')), node('node2', cap('4000', '10000'))],
      [],
      [100, 100],
    ],
    [
      'nothing scheduled, resources requested, differently sized nodes',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', cap('4000', '10000')), node('node2', cap('6000', '10000'))],
      [],
      [37, 50],
    ],
    [
      'no resources requested, pods scheduled',
      pod('p'),
      [node('node1', cap('4000', '10000')), node('node2', cap('4000', '10000'))],
      [on('node1'), on('node1'), on('node2'), on('node2')].map((x) => ({
        ...x,
        spec: { ...x.spec, containers: [] },
      })),
      [100, 100],
    ],
    [
      'no resources requested, pods scheduled with resources',
      pod('p'),
      [node('node1', cap('10000', '20000')), node('node2', cap('10000', '20000'))],
      [
        on('node1', { cpu: '3000', memory: '0' }),
        on('node1', { cpu: '3000', memory: '0' }),
        on('node2', { cpu: '3000', memory: '0' }),
        on('node2', { cpu: '3000', memory: '5000' }),
      ],
      [70, 57],
    ],
    [
      'resources requested, pods scheduled with resources',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', cap('10000', '20000')), node('node2', cap('10000', '20000'))],
      [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      [57, 45],
    ],
    [
      'resources requested, pods scheduled with resources, differently sized nodes',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', cap('10000', '20000')), node('node2', cap('10000', '50000'))],
      [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      [57, 60],
    ],
    [
      'requested resources exceed node capacity',
      pod('p', { cpu: '3000', memory: '0' }),
      [node('node1', cap('4000', '10000')), node('node2', cap('4000', '10000'))],
      [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      [50, 25],
    ],
    [
      'zero node resources, pods scheduled with resources',
      pod('p'),
      [node('node1', {}), node('node2', {})],
      [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      [0, 0],
    ],
    [
      'different weights on cpu and memory, differently sized nodes',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', cap('4000', '10000')), node('node2', cap('6000', '10000'))],
      [],
      [41, 50],
      [
        { name: 'memory', weight: 2 },
        { name: 'cpu', weight: 1 },
      ],
    ],
    [
      'an extended resource the pod does not request is bypassed',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', cap('6000', '10000')), node('node2', cap('6000', '10000', { 'abc.com/xyz': '4' }))],
      [],
      [50, 50],
      [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
        { name: 'abc.com/xyz', weight: 1 },
      ],
    ],
    [
      'an extended resource the pod requests is honoured',
      pod('p', { cpu: '1000', memory: '2000', 'abc.com/xyz': '2' }, { cpu: '2000', memory: '3000' }),
      [
        node('node1', cap('6000', '10000', { 'abc.com/xyz': '4' })),
        node('node2', cap('6000', '10000', { 'abc.com/xyz': '10' })),
      ],
      [],
      [50, 60],
      [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
        { name: 'abc.com/xyz', weight: 1 },
      ],
    ],
    [
      'a container without requests counts 100m cpu and 200Mi memory',
      makePod('p'),
      [node('node1', { cpu: '1', memory: '1Gi' })],
      [],
      // cpu (1000-100)*100/1000 = 90; memory (1024-200)*100/1024 = 80 → 85
      [85],
    ],
  ])('%s', (_name, p, nodes, existing, want, resources) => {
    expect(scoresOf(fitPlugin(leastArgs(resources)), p, nodes, existing)).toEqual(want);
  });

  it.each<[string, ResourceSpec[], string]>([
    [
      'a negative weight',
      [
        { name: 'memory', weight: -1 },
        { name: 'cpu', weight: 1 },
      ],
      'args.scoringStrategy.resources[0].weight',
    ],
    [
      'a weight above 100',
      [
        { name: 'memory', weight: 1 },
        { name: 'cpu', weight: 101 },
      ],
      'args.scoringStrategy.resources[1].weight',
    ],
  ])('rejects %s', (_name, resources, field) => {
    expect(() => fitPlugin(leastArgs(resources))).toThrow(InvalidConfigError);
    try {
      fitPlugin(leastArgs(resources));
    } catch (e) {
      expect((e as InvalidConfigError).field).toBe(field);
    }
  });

  it('upstream example: 4 cpu / 32Gi node, pod 100m / 500Mi → 97', () => {
    expect(scoresOf(fitPlugin(), pod('p', { cpu: '100m', memory: '500Mi' }), [makeNode('n')])).toEqual([97]);
  });
});

describe('MostAllocated', () => {
  const most = (resources?: ResourceSpec[]) =>
    fitPlugin({ scoringStrategy: { type: 'MostAllocated', resources } });
  it.each<[string, Pod, Node[], Pod[], number[], ResourceSpec[]?]>([
    [
      'nothing scheduled, nothing requested',
      pod('p'),
      [node('node1', { cpu: '4000', memory: '10000' }), node('node2', { cpu: '4000', memory: '10000' })],
      [],
      [0, 0],
    ],
    [
      'nothing scheduled, resources requested, differently sized nodes',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', { cpu: '4000', memory: '10000' }), node('node2', { cpu: '6000', memory: '10000' })],
      [],
      // node1 cpu 75, memory 50 → 62; node2 cpu 50, memory 50 → 50
      [62, 50],
    ],
    [
      'resources requested, pods scheduled with resources',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', { cpu: '10000', memory: '20000' }), node('node2', { cpu: '10000', memory: '20000' })],
      [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      // node1 cpu 60, memory 25 → 42; node2 cpu 60, memory 50 → 55
      [42, 55],
    ],
    [
      'requested resources above capacity are capped at capacity',
      pod('p', { cpu: '5000', memory: '9000' }),
      [node('node1', { cpu: '4000', memory: '10000' })],
      [],
      // cpu capped 100, memory 90 → 95
      [95],
    ],
    [
      'different weights',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', { cpu: '4000', memory: '10000' }), node('node2', { cpu: '6000', memory: '10000' })],
      [],
      // node1 (75*1 + 50*2)/3 = 58; node2 (50 + 100)/3 = 50
      [58, 50],
      [
        { name: 'memory', weight: 2 },
        { name: 'cpu', weight: 1 },
      ],
    ],
    ['zero node resources', pod('p', { cpu: '1' }), [node('node1', {})], [], [0]],
  ])('%s', (_name, p, nodes, existing, want, resources) => {
    expect(scoresOf(most(resources), p, nodes, existing)).toEqual(want);
  });
});

describe('RequestedToCapacityRatio', () => {
  const rtcr = (shape: { utilization: number; score: number }[], resources?: ResourceSpec[]) =>
    fitPlugin({
      scoringStrategy: { type: 'RequestedToCapacityRatio', resources, requestedToCapacityRatio: { shape } },
    });
  const leastShape = [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
  const binPacking = [
    { utilization: 0, score: 0 },
    { utilization: 100, score: 1 },
  ];
  const foo = (n: string, foo: string) => node(n, { cpu: '4', memory: '10000Mi', 'intel.com/foo': foo });

  it.each<[string, Pod, Node[], Pod[], number[], { utilization: number; score: number }[], ResourceSpec[]?]>([
    [
      'nothing scheduled, nothing requested: least requested shape',
      pod('p'),
      [node('node1', { cpu: '4000', memory: '10000' }), node('node2', { cpu: '4000', memory: '10000' })],
      [on('node1'), on('node1')].map((x) => ({ ...x, spec: { ...x.spec, containers: [] } })),
      [100, 100],
      leastShape,
    ],
    [
      'resources requested, differently sized nodes: rounded mean',
      pod('p', { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      [node('node1', { cpu: '4000', memory: '10000' }), node('node2', { cpu: '6000', memory: '10000' })],
      [],
      [38, 50],
      leastShape,
    ],
    [
      'no resources requested, pods scheduled with resources',
      pod('p'),
      [node('node1', { cpu: '4000', memory: '10000' }), node('node2', { cpu: '6000', memory: '10000' })],
      [on('node1', { cpu: '3000', memory: '5000' }), on('node2', { cpu: '3000', memory: '5000' })],
      [38, 50],
      leastShape,
    ],
    [
      'bin packing one extended resource, nothing requested',
      pod('p'),
      [foo('node1', '8'), foo('node2', '4')],
      [],
      [0, 0],
      binPacking,
      [{ name: 'intel.com/foo', weight: 1 }],
    ],
    [
      'bin packing, pods scheduled with less resources',
      pod('p', { 'intel.com/foo': '2' }),
      [foo('node1', '8'), foo('node2', '4')],
      [],
      [2, 5],
      binPacking,
      [{ name: 'intel.com/foo', weight: 1 }],
    ],
    [
      'bin packing, on a node with an existing pod',
      pod('p', { 'intel.com/foo': '2' }),
      [foo('node1', '8'), foo('node2', '4')],
      [on('node2', { 'intel.com/foo': '2' })],
      [2, 10],
      binPacking,
      [{ name: 'intel.com/foo', weight: 1 }],
    ],
    [
      'bin packing, pods scheduled with more resources',
      pod('p', { 'intel.com/foo': '4' }),
      [foo('node1', '8'), foo('node2', '4')],
      [],
      [5, 10],
      binPacking,
      [{ name: 'intel.com/foo', weight: 1 }],
    ],
    [
      'bin packing two extended resources with weights 3 and 5',
      pod('p', { 'intel.com/foo': '2', 'intel.com/bar': '2' }),
      [
        node('node1', { cpu: '4', memory: '10000Mi', 'intel.com/foo': '8', 'intel.com/bar': '4' }),
        node('node2', { cpu: '4', memory: '10000Mi', 'intel.com/foo': '4', 'intel.com/bar': '8' }),
      ],
      [],
      // node1: (2*3 + 5*5)/8 = 3.875 → 4; node2: (5*3 + 2*5)/8 = 3.125 → 3
      [4, 3],
      binPacking,
      [
        { name: 'intel.com/foo', weight: 3 },
        { name: 'intel.com/bar', weight: 5 },
      ],
    ],
  ])('%s', (_name, p, nodes, existing, want, shape, resources) => {
    expect(scoresOf(rtcr(shape, resources), p, nodes, existing)).toEqual(want);
  });

  it.each<[{ utilization: number; score: number }[], [number, number][]]>([
    [
      [
        { utilization: 10, score: 1 },
        { utilization: 90, score: 9 },
      ],
      [
        [-10, 1],
        [0, 1],
        [9, 1],
        [10, 1],
        [15, 1],
        [19, 1],
        [20, 2],
        [89, 8],
        [90, 9],
        [99, 9],
        [100, 9],
        [110, 9],
      ],
    ],
    [
      [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 10 },
        { utilization: 100, score: 0 },
      ],
      [
        [-10, 2],
        [0, 2],
        [20, 6],
        [30, 8],
        [40, 10],
        [70, 5],
        [100, 0],
        [110, 0],
      ],
    ],
    [
      [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 2 },
        { utilization: 100, score: 2 },
      ],
      [
        [-10, 2],
        [0, 2],
        [40, 2],
        [110, 2],
      ],
    ],
  ])('the broken linear function through %j', (shape, points) => {
    const f = buildBrokenLinearFunction(shape);
    for (const [p, want] of points) expect(f(p)).toBe(want);
  });
});

describe('NodeResourcesFitArgs', () => {
  it('defaults to LeastAllocated on cpu and memory with weight 1', () => {
    expect(defaultNodeResourcesFitArgs(undefined)).toEqual({
      scoringStrategy: {
        type: 'LeastAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 },
        ],
      },
    });
    expect(
      defaultNodeResourcesFitArgs({
        scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu' }] },
      }),
    ).toEqual({
      scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] },
    });
  });

  const path = 'profiles[0].pluginConfig[1].args';
  it.each<[string, NodeResourcesFitArgs, string | undefined]>([
    ['valid defaults', defaultNodeResourcesFitArgs({}), undefined],
    ['an invalid ignored resource name', { ignoredResources: ['-bad'] }, `${path}.ignoredResources[0]`],
    [
      'a resource group with a slash',
      { ignoredResourceGroups: ['example.com/aaa'] },
      `${path}.ignoredResourceGroups[0]`,
    ],
    [
      'an unknown strategy type',
      { scoringStrategy: { type: 'Nope', resources: [] } },
      `${path}.scoringStrategy.type`,
    ],
    [
      'a weight of 0 (after defaulting it cannot be)',
      { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 0 }] } },
      `${path}.scoringStrategy.resources[0].weight`,
    ],
    [
      'an empty shape',
      {
        scoringStrategy: {
          type: 'RequestedToCapacityRatio',
          resources: [],
          requestedToCapacityRatio: { shape: [] },
        },
      },
      `${path}.scoringStrategy.shape`,
    ],
    [
      'utilizations not increasing',
      {
        scoringStrategy: {
          type: 'RequestedToCapacityRatio',
          requestedToCapacityRatio: {
            shape: [
              { utilization: 10, score: 1 },
              { utilization: 10, score: 2 },
            ],
          },
        },
      },
      `${path}.scoringStrategy.shape[1].utilization`,
    ],
    [
      'a utilization above 100',
      {
        scoringStrategy: {
          type: 'RequestedToCapacityRatio',
          requestedToCapacityRatio: { shape: [{ utilization: 101, score: 1 }] },
        },
      },
      `${path}.scoringStrategy.shape[0].utilization`,
    ],
    [
      'a score above 10',
      {
        scoringStrategy: {
          type: 'RequestedToCapacityRatio',
          requestedToCapacityRatio: { shape: [{ utilization: 10, score: 11 }] },
        },
      },
      `${path}.scoringStrategy.shape[0].score`,
    ],
    [
      'RequestedToCapacityRatio without a shape',
      { scoringStrategy: { type: 'RequestedToCapacityRatio' } },
      `${path}.scoringStrategy.requestedToCapacityRatio`,
    ],
  ])('%s', (_name, args, field) => {
    if (!field) {
      expect(() => validateNodeResourcesFitArgs(args, path)).not.toThrow();
      return;
    }
    let caught: unknown;
    try {
      validateNodeResourcesFitArgs(args, path);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidConfigError);
    expect((caught as InvalidConfigError).field).toBe(field);
    expect((caught as InvalidConfigError).message.startsWith(`${field}: `)).toBe(true);
  });
});

describe('NodeResourcesFit queueing hints', () => {
  it('registers pod deletes and scale-downs, node adds and allocatable changes', () => {
    expect(
      fitPlugin()
        .eventsToRegister()
        .map((e) => e.event),
    ).toEqual([
      { resource: 'Pod', action: ActionType.Delete | ActionType.UpdatePodScaleDown },
      { resource: 'Node', action: ActionType.Add | ActionType.UpdateNodeAllocatable },
    ]);
  });

  const target = pod('target', { cpu: '2' });
  it.each<[string, Pod | undefined, Pod | undefined, string]>([
    ['an unscheduled pod deleted', pod('x', { cpu: '1' }), undefined, 'QueueSkip'],
    ['an assigned pod deleted', on('n1', { cpu: '1' }), undefined, 'Queue'],
    ['a nominated pod deleted', makePod('x', { status: { nominatedNodeName: 'n1' } }), undefined, 'Queue'],
    ['the target itself scaled down', target, pod('target', { cpu: '1' }), 'Queue'],
    [
      'an assigned pod scaled down in cpu the target requests',
      makePod('a', { containers: [container({ cpu: '2' })], nodeName: 'n1' }),
      makePod('a', { containers: [container({ cpu: '1' })], nodeName: 'n1' }),
      'Queue',
    ],
    [
      'an assigned pod scaled down in memory only',
      makePod('a', { containers: [container({ memory: '2Gi' })], nodeName: 'n1' }),
      makePod('a', { containers: [container({ memory: '1Gi' })], nodeName: 'n1' }),
      'QueueSkip',
    ],
    ['an unscheduled pod scaled down', pod('x', { cpu: '2' }), pod('x', { cpu: '1' }), 'QueueSkip'],
  ])('pod event: %s', (_name, oldObj, newObj, want) => {
    expect(isSchedulableAfterPodEvent(target, oldObj, newObj)).toBe(want);
  });

  it.each<[string, Node | undefined, Node, string]>([
    ['a node added that fits', undefined, node('n', { cpu: '4', memory: '1Gi', pods: '10' }), 'Queue'],
    [
      'a node added that is too small',
      undefined,
      node('n', { cpu: '1', memory: '1Gi', pods: '10' }),
      'QueueSkip',
    ],
    [
      'a node whose cpu grew so the pod fits',
      node('n', { cpu: '1', memory: '1Gi', pods: '10' }),
      node('n', { cpu: '4', memory: '1Gi', pods: '10' }),
      'Queue',
    ],
    [
      'a node that fits but gained only memory',
      node('n', { cpu: '4', memory: '1Gi', pods: '10' }),
      node('n', { cpu: '4', memory: '2Gi', pods: '10' }),
      'QueueSkip',
    ],
    [
      'a node that allows more pods',
      node('n', { cpu: '4', memory: '1Gi', pods: '10' }),
      node('n', { cpu: '4', memory: '1Gi', pods: '20' }),
      'Queue',
    ],
  ])('node event: %s', (_name, oldObj, newObj, want) => {
    expect(isSchedulableAfterNodeChange(target, oldObj, newObj)).toBe(want);
  });
});
