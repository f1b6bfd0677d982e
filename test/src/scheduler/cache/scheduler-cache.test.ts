// SchedulerCache: cases in the spirit of upstream's cache_test.go and snapshot tests (assumed pods, state errors, ghost nodes, images, snapshots).
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import { SchedulerCache } from '../../../../src/scheduler/cache/scheduler-cache.ts';
import { Snapshot } from '../../../../src/scheduler/cache/snapshot.ts';

const pod = (name: string, nodeName: string, cpu = '100m', mem = '500', hostPort?: number): Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}` },
  spec: {
    nodeName,
    containers: [
      {
        name: 'c',
        resources: { requests: { cpu, memory: mem } },
        ...(hostPort ? { ports: [{ containerPort: 80, hostPort }] } : {}),
      },
    ],
  },
});

const node = (name: string, zone?: string, images: { names: string[]; sizeBytes: number }[] = []): Node => ({
  metadata: { name, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} },
  spec: {},
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' }, images },
});

/** The last of its arguments, evaluated in order (steps of one case). */
const last = (...steps: unknown[]): unknown => steps[steps.length - 1];

const requested = (cache: SchedulerCache, n: string) => {
  const info = cache.nodeInfo(n);
  return info
    ? { cpu: info.requested.milliCPU, mem: info.requested.memory, pods: info.pods.length }
    : undefined;
};

describe('SchedulerCache pod states', () => {
  it('counts assumed pods on their node, ports included (AssumePodScheduled)', () => {
    const cache = new SchedulerCache();
    expect(cache.assumePod(pod('a', 'n1', '100m', '500', 80))).toBeUndefined();
    expect(cache.assumePod(pod('b', 'n1', '200m', '1k'))).toBeUndefined();
    expect(requested(cache, 'n1')).toEqual({ cpu: 300, mem: 1500, pods: 2 });
    expect(cache.nodeInfo('n1')!.usedPorts.conflicts({ ip: '0.0.0.0', protocol: 'TCP', port: 80 })).toBe(
      true,
    );
    expect(cache.isAssumedPod(pod('a', 'n1'))).toBe(true);
  });

  it('confirms an assumed pod when the informer adds it, leaving the others assumed (AddPodWillConfirm)', () => {
    const cache = new SchedulerCache();
    cache.assumePod(pod('a', 'n1'));
    cache.assumePod(pod('b', 'n1'));
    expect(cache.addPod(pod('a', 'n1'))).toBeUndefined();
    expect(cache.isAssumedPod(pod('a', 'n1'))).toBe(false);
    expect(cache.isAssumedPod(pod('b', 'n1'))).toBe(true);
    expect(requested(cache, 'n1')).toEqual({ cpu: 200, mem: 1000, pods: 2 });
  });

  it('moves an assumed pod that was bound to another node (AddPodWillReplaceAssumed)', () => {
    const cache = new SchedulerCache();
    cache.assumePod(pod('a', 'n1', '1'));
    expect(cache.addPod(pod('a', 'n2', '1'))).toBeUndefined();
    expect(cache.nodeInfo('n1')).toBeUndefined();
    expect(requested(cache, 'n2')).toEqual({ cpu: 1000, mem: 500, pods: 1 });
  });

  it('updates a bound pod’s requests (UpdatePod)', () => {
    const cache = new SchedulerCache();
    cache.addPod(pod('a', 'n1', '100m'));
    expect(cache.updatePod(pod('a', 'n1', '100m'), pod('a', 'n1', '2'))).toBeUndefined();
    expect(requested(cache, 'n1')).toEqual({ cpu: 2000, mem: 500, pods: 1 });
    expect(cache.getPod(pod('a', 'n1'))!.spec.containers[0]!.resources!.requests!.cpu).toBe('2');
  });

  it('forgets an assumed pod and gives its resources back (ForgetPod)', () => {
    const cache = new SchedulerCache();
    cache.addNode(node('n1'));
    cache.assumePod(pod('a', 'n1', '1'));
    cache.finishBinding(pod('a', 'n1', '1'));
    expect(cache.isBindingFinished(pod('a', 'n1'))).toBe(true);
    expect(cache.forgetPod(pod('a', 'n1', '1'))).toBeUndefined();
    expect(requested(cache, 'n1')).toEqual({ cpu: 0, mem: 0, pods: 0 });
    expect(cache.podCount()).toBe(0);
    expect(cache.forgetPod(pod('a', 'n1'))).toBeUndefined();
  });

  it('removes a bound pod (RemovePod) and drops a pod-only NodeInfo with it', () => {
    const cache = new SchedulerCache();
    cache.addPod(pod('a', 'n1'));
    expect(cache.removePod(pod('a', 'n1'))).toBeUndefined();
    expect(cache.nodeInfo('n1')).toBeUndefined();
  });

  it.each([
    [
      'assuming a pod twice',
      (c: SchedulerCache) => last(c.assumePod(pod('a', 'n1')), c.assumePod(pod('a', 'n1'))),
      "pod ns/a(uid-a) is in the cache, so can't be assumed",
    ],
    [
      'adding a pod twice',
      (c: SchedulerCache) => last(c.addPod(pod('a', 'n1')), c.addPod(pod('a', 'n1'))),
      'pod ns/a(uid-a) was already in added state',
    ],
    [
      'updating an assumed pod',
      (c: SchedulerCache) => last(c.assumePod(pod('a', 'n1')), c.updatePod(pod('a', 'n1'), pod('a', 'n1'))),
      'pod ns/a(uid-a) is not added to scheduler cache, so cannot be updated',
    ],
    [
      'updating a pod onto another node',
      (c: SchedulerCache) => last(c.addPod(pod('a', 'n1')), c.updatePod(pod('a', 'n1'), pod('a', 'n2'))),
      'cache corrupted',
    ],
    [
      'removing an unknown pod',
      (c: SchedulerCache) => c.removePod(pod('a', 'n1')),
      'pod ns/a(uid-a) is not found in scheduler cache, so cannot be removed from it',
    ],
    [
      'forgetting a pod that was added, not assumed',
      (c: SchedulerCache) => last(c.addPod(pod('a', 'n1')), c.forgetPod(pod('a', 'n1'))),
      "pod ns/a(uid-a) wasn't assumed so cannot be forgotten",
    ],
    [
      'forgetting a pod assumed on another node',
      (c: SchedulerCache) => last(c.assumePod(pod('a', 'n1')), c.forgetPod(pod('a', 'n2'))),
      'pod ns/a(uid-a) was assumed on n2 but assigned to n1',
    ],
    ['removing an unknown node', (c: SchedulerCache) => c.removeNode(node('n9')), 'node n9 is not found'],
  ] as [string, (c: SchedulerCache) => unknown, string][])('refuses %s', (_name, act, message) => {
    const error = act(new SchedulerCache()) as Error | undefined;
    expect(error?.message).toContain(message);
    expect(error).toMatchObject({ code: 'KUBE_RX_SCHEDULER_CACHE' });
  });
});

describe('SchedulerCache nodes', () => {
  it('keeps a removed node with pods as a ghost until its last pod goes (NodeOperators)', () => {
    const cache = new SchedulerCache();
    cache.addNode(node('n1'));
    cache.addPod(pod('a', 'n1'));
    expect(cache.removeNode(node('n1'))).toBeUndefined();
    expect(cache.nodeInfo('n1')!.node).toBeUndefined();
    expect(cache.nodeCount()).toBe(0);
    const snap = new Snapshot();
    cache.updateSnapshot(snap);
    expect(snap.list()).toEqual([]);
    expect(snap.get('n1')).toBeUndefined();
    cache.removePod(pod('a', 'n1'));
    expect(cache.nodeInfo('n1')).toBeUndefined();
  });

  it('a node added after its pods picks them up', () => {
    const cache = new SchedulerCache();
    cache.addPod(pod('a', 'n1', '1'));
    cache.addNode(node('n1'));
    expect(cache.nodeInfo('n1')!.node!.metadata.name).toBe('n1');
    expect(requested(cache, 'n1')).toEqual({ cpu: 1000, mem: 500, pods: 1 });
    expect(cache.nodeInfo('n1')!.allocatable.milliCPU).toBe(4000);
  });

  it('counts how many nodes have each image', () => {
    const cache = new SchedulerCache();
    const img = { names: ['nginx:1', 'nginx@sha'], sizeBytes: 100 };
    cache.addNode(node('n1', undefined, [img]));
    cache.addNode(node('n2', undefined, [img, { names: ['redis'], sizeBytes: 50 }]));
    const snap = new Snapshot();
    cache.updateSnapshot(snap);
    expect(snap.get('n1')!.imageStates['nginx:1']).toEqual({ size: 100, numNodes: 2 });
    expect(snap.get('n2')!.imageStates.redis).toEqual({ size: 50, numNodes: 1 });
    cache.removeNode(node('n2'));
    cache.updateSnapshot(snap);
    expect(snap.get('n1')!.imageStates['nginx:1']).toEqual({ size: 100, numNodes: 1 });
    expect(cache.imageStates().has('redis')).toBe(false);
  });
});

describe('SchedulerCache.updateSnapshot', () => {
  it('lists nodes interleaved across zones and affinity nodes apart', () => {
    const cache = new SchedulerCache();
    for (const [n, z] of [
      ['a1', 'a'],
      ['a2', 'a'],
      ['b1', 'b'],
      ['b2', 'b'],
      ['c1', 'c'],
    ])
      cache.addNode(node(n!, z));
    const affine: Pod = {
      ...pod('aff', 'b2'),
      spec: {
        ...pod('aff', 'b2').spec,
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {} }],
          },
        },
      },
    };
    cache.addPod(affine);
    const snap = new Snapshot();
    cache.updateSnapshot(snap);
    expect(snap.list().map((i) => i.name)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2']);
    expect(snap.havePodsWithAffinityList().map((i) => i.name)).toEqual(['b2']);
    expect(snap.havePodsWithRequiredAntiAffinityList().map((i) => i.name)).toEqual(['b2']);
  });

  it('copies only changed nodes, keeps NodeInfo identity, and never shares state with the cache', () => {
    const cache = new SchedulerCache();
    cache.addNode(node('n1'));
    cache.addNode(node('n2'));
    const snap = new Snapshot();
    cache.updateSnapshot(snap);
    const [n1, n2] = [snap.get('n1')!, snap.get('n2')!];
    const n2Generation = n2.generation;
    cache.addPod(pod('a', 'n1', '1'));
    expect(snap.get('n1')!.pods).toHaveLength(0);
    cache.updateSnapshot(snap);
    expect(snap.get('n1')).toBe(n1);
    expect(n1.pods).toHaveLength(1);
    expect(n1).not.toBe(cache.nodeInfo('n1'));
    expect(n2.generation).toBe(n2Generation);
    expect(snap.generation).toBe(cache.nodeInfo('n1')!.generation);
  });

  it.each([
    ['add nodes then pods', (c: SchedulerCache) => last(c.addNode(node('x')), c.addPod(pod('p', 'x')))],
    ['remove a node', (c: SchedulerCache) => c.removeNode(node('n1'))],
    [
      'assume then forget',
      (c: SchedulerCache) => last(c.assumePod(pod('q', 'n2')), c.forgetPod(pod('q', 'n2'))),
    ],
    [
      'update a node into another zone',
      (c: SchedulerCache) => c.updateNode(node('n2', 'b'), node('n2', 'z')),
    ],
    [
      'remove a pod from a ghost',
      (c: SchedulerCache) =>
        last(c.addPod(pod('g', 'n1')), c.removeNode(node('n1')), c.removePod(pod('g', 'n1'))),
    ],
  ] as [string, (c: SchedulerCache) => void][])(
    'after "%s" the incremental snapshot equals a fresh one',
    (_name, op) => {
      const cache = new SchedulerCache();
      cache.addNode(node('n1', 'a'));
      cache.addNode(node('n2', 'b'));
      cache.addPod(pod('base', 'n2'));
      const snap = new Snapshot();
      cache.updateSnapshot(snap);
      op(cache);
      cache.updateSnapshot(snap);
      const fresh = new Snapshot();
      cache.updateSnapshot(fresh);
      const view = (s: Snapshot) =>
        s.list().map((i) => [i.name, i.pods.map((p) => p.pod.metadata.name), i.requested.milliCPU]);
      expect(view(snap)).toEqual(view(fresh));
      expect([...snap.nodeInfoMap.keys()].sort()).toEqual([...fresh.nodeInfoMap.keys()].sort());
    },
  );
});
