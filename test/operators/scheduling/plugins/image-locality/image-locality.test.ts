// ImageLocality tests ported in our own words from image_locality_test.go.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { newFramework } from '../../../../../operators/scheduling/framework/framework.ts';
import type { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import {
  calculatePriority,
  normalizedImageName,
} from '../../../../../operators/scheduling/plugins/image-locality/image-locality.ts';
import { inTreeRegistry } from '../../../../../operators/scheduling/plugins/registry.ts';
import { container, fakeDeps, makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

const MB = 1024 * 1024;
const withImages = (name: string, images: [string, number][]): Node => ({
  ...makeNode(name),
  status: {
    allocatable: { cpu: '4', memory: '32Gi', pods: '110' },
    images: images.map(([n, mb]) => ({ names: [n], sizeBytes: mb * MB })),
  },
});

/** NodeInfos with imageStates as the cache computes them: size, and on how many nodes the image is. */
function snapshotOf(nodes: Node[]): NodeInfo[] {
  const count = new Map<string, number>();
  for (const n of nodes)
    for (const img of n.status?.images ?? [])
      for (const name of img.names ?? []) count.set(name, (count.get(name) ?? 0) + 1);
  return nodes.map((n) => {
    const ni = nodeInfo(n);
    for (const img of n.status?.images ?? []) {
      for (const name of img.names ?? [])
        ni.imageStates[name] = { size: img.sizeBytes ?? 0, numNodes: count.get(name)! };
    }
    return ni;
  });
}

const withContainers = (...images: string[]): Pod =>
  makePod('p', { containers: images.map((image) => container(undefined, { image })) });

const node403002000 = withImages('node1', [
  ['gcr.io/40:latest', 40],
  ['gcr.io/300:latest', 300],
  ['gcr.io/2000:latest', 2000],
]);
const node25010 = withImages('node2', [
  ['gcr.io/250:latest', 250],
  ['gcr.io/10:v1', 10],
]);
const nodeWithNoImages = withImages('node3', []);

describe('ImageLocality', () => {
  it.each<[string, Pod, Node[], number[]]>([
    // node1: 40MB on 1 of 2 nodes → 20MB, below 23MB → 0; node2: 250MB × 1/2 = 125MB → (125-23)·100/1977 = 5
    [
      'two images spread over two nodes: the larger one wins',
      withContainers('gcr.io/40', 'gcr.io/250'),
      [node403002000, node25010],
      [0, 5],
    ],
    // node1: (40 + 300) × 1/2 = 170MB → (170-23)·100/1977 = 7
    ['two images on one node', withContainers('gcr.io/40', 'gcr.io/300'), [node403002000, node25010], [7, 0]],
    // node1: 2000MB × 1/3 = 666.67MB with one container, clamped to 1000MB max → (666.67-23)·100/977 = 65
    [
      'the score is clamped to 1000MB per container',
      withContainers('gcr.io/2000'),
      [node403002000, node25010, nodeWithNoImages],
      [65, 0, 0],
    ],
    ['a tagged image must match its tag', withContainers('gcr.io/10:v1'), [node403002000, node25010], [0, 0]],
    ['no containers, no score', makePod('p', { containers: [] }), [node403002000], [0]],
    [
      'init container images count',
      makePod('p', {
        containers: [container(undefined, { image: 'pause' })],
        spec: { initContainers: [container(undefined, { image: 'gcr.io/2000' })] },
      }),
      [node403002000],
      // 2000MB on 1 of 1 node; two containers → max 2000MB → 100
      [100],
    ],
  ])('%s', (_name, pod, nodes, want) => {
    const infos = snapshotOf(nodes);
    const { deps } = fakeDeps({ nodes: infos });
    const fw = newFramework(
      { schedulerName: 's', plugins: { score: [{ name: 'ImageLocality' }] }, pluginArgs: {} },
      inTreeRegistry,
      deps,
    );
    const out = fw.runScorePlugins(newState(), pod, infos);
    expect(out.status).toBeUndefined();
    expect(out.scores.map((s) => s.totalScore)).toEqual(want);
  });

  it.each<[string, string]>([
    ['gcr.io/40', 'gcr.io/40:latest'],
    ['gcr.io/40:v1', 'gcr.io/40:v1'],
    ['localhost:5000/img', 'localhost:5000/img:latest'],
    ['localhost:5000/img:1.0', 'localhost:5000/img:1.0'],
    ['nginx', 'nginx:latest'],
  ])('normalizedImageName(%s) = %s', (name, want) => {
    expect(normalizedImageName(name)).toBe(want);
  });

  it.each<[number, number, number]>([
    [0, 1, 0],
    [23 * MB, 1, 0],
    [1000 * MB, 1, 100],
    [5000 * MB, 2, 100],
    [0, 0, 0],
  ])('calculatePriority(%d, %d) = %d', (sum, containers, want) => {
    expect(calculatePriority(sum, containers)).toBe(want);
  });
});
