// NodeTree: cases in the spirit of upstream's node_tree_test.go (zones interleaved, add, remove, update).
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../../operators/api/core-v1.ts';
import { NodeTree, zoneKey } from '../../../../src/scheduler/cache/node-tree.ts';

const node = (name: string, region?: string, zone?: string): Node => ({
  metadata: {
    name,
    labels: {
      ...(region ? { 'topology.kubernetes.io/region': region } : {}),
      ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}),
    },
  },
  spec: {},
});

const NODES = [
  node('node-0', 'region-1', 'zone-1'),
  node('node-1', 'region-1', 'zone-2'),
  node('node-2', 'region-2', 'zone-2'),
  node('node-3', 'region-2', 'zone-2'),
  node('node-4', 'region-2', 'zone-2'),
  node('node-5', 'region-1', 'zone-1'),
  node('node-6'),
];

const treeOf = (nodes: Node[]) => {
  const t = new NodeTree();
  for (const n of nodes) t.addNode(n);
  return t;
};

describe('NodeTree', () => {
  it.each([
    ['one node', NODES.slice(0, 1), ['node-0']],
    ['three zones, one node each', NODES.slice(0, 3), ['node-0', 'node-1', 'node-2']],
    [
      'uneven zones interleave until each runs out',
      NODES,
      ['node-0', 'node-1', 'node-2', 'node-6', 'node-5', 'node-3', 'node-4'],
    ],
  ] as [string, Node[], string[]][])('lists %s', (_name, nodes, expected) => {
    const t = treeOf(nodes);
    expect(t.list()).toEqual(expected);
    expect(t.numNodes).toBe(expected.length);
  });

  it('adding the same node twice counts it once', () => {
    const t = treeOf([NODES[0]!, NODES[0]!]);
    expect(t.numNodes).toBe(1);
  });

  it.each([
    [
      'a node of a shared zone (the zone’s last node takes its place)',
      ['node-2'],
      ['node-0', 'node-1', 'node-4', 'node-6', 'node-5', 'node-3'],
    ],
    [
      'the only node of a zone drops the zone',
      ['node-1', 'node-6'],
      ['node-0', 'node-2', 'node-5', 'node-3', 'node-4'],
    ],
    ['every node', NODES.map((n) => n.metadata.name!), []],
  ])('removes %s', (_name, removed, expected) => {
    const t = treeOf(NODES);
    for (const name of removed) expect(t.removeNode(NODES.find((n) => n.metadata.name === name)!)).toBe(true);
    expect(t.list()).toEqual(expected);
  });

  it('removing an unknown node changes nothing', () => {
    const t = treeOf(NODES.slice(0, 2));
    expect(t.removeNode(node('nope', 'region-1', 'zone-1'))).toBe(false);
    expect(t.list()).toEqual(['node-0', 'node-1']);
  });

  it('moves a node whose zone changed and keeps one whose zone did not', () => {
    const t = treeOf(NODES.slice(0, 3));
    t.updateNode(NODES[0], { ...NODES[0]!, metadata: { ...NODES[0]!.metadata, annotations: { a: 'b' } } });
    expect(t.list()).toEqual(['node-0', 'node-1', 'node-2']);
    t.updateNode(NODES[0], node('node-0', 'region-2', 'zone-2'));
    expect(t.list()).toEqual(['node-1', 'node-2', 'node-0']);
  });

  it('keys zones by region and zone, with the legacy labels as fallback', () => {
    expect(zoneKey(node('a'))).toBe('');
    expect(zoneKey(node('a', 'r', 'z'))).toBe('r:\u0000:z');
    expect(
      zoneKey({
        metadata: { name: 'a', labels: { 'failure-domain.beta.kubernetes.io/zone': 'old' } },
        spec: {},
      }),
    ).toBe(':\u0000:old');
  });
});
