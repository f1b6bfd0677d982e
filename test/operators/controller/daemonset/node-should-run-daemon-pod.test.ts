// Tests of nodeShouldRunDaemonPod: upstream's TestNodeShouldRunDaemonPod and taint cases in our words — selector, affinity, nodeName, taints and the automatic tolerations.
import { describe, expect, it } from 'vitest';
import type { PodSpec, Taint } from '../../../../operators/api/core-v1.ts';
import { nodeShouldRunDaemonPod } from '../../../../operators/controller/daemonset/node-should-run-daemon-pod.ts';
import { daemonSet, node } from './daemon-set-world.ts';

const withSpec = (spec: Partial<PodSpec>) =>
  daemonSet({
    template: {
      metadata: { labels: { name: 'simple-daemon' } },
      spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100' } } }], ...spec },
    },
  });
const taint = (key: string, effect: string): Taint => ({ key, effect });
const affinityIn = (key: string, values: string[]) => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }],
    },
  },
});

describe('nodeShouldRunDaemonPod', () => {
  it.each<
    [string, Partial<PodSpec>, { labels?: Record<string, string>; taints?: Taint[] }, [boolean, boolean]]
  >([
    ['a plain daemon set runs everywhere', {}, {}, [true, true]],
    ['requests beyond the node are not checked (the scheduler decides)', {}, {}, [true, true]],
    ['a template nodeName naming this node', { nodeName: 'node-0' }, {}, [true, true]],
    ['a template nodeName naming another node', { nodeName: 'other' }, {}, [false, false]],
    [
      'a nodeSelector the node matches',
      { nodeSelector: { disk: 'ssd' } },
      { labels: { disk: 'ssd' } },
      [true, true],
    ],
    ['a nodeSelector the node does not match', { nodeSelector: { disk: 'ssd' } }, {}, [false, false]],
    [
      'a required node affinity the node matches',
      { affinity: affinityIn('disk', ['ssd']) },
      { labels: { disk: 'ssd' } },
      [true, true],
    ],
    [
      'a required node affinity the node fails',
      { affinity: affinityIn('disk', ['ssd']) },
      { labels: { disk: 'hdd' } },
      [false, false],
    ],
    [
      'an untolerated NoSchedule taint: no new pod, the old one stays',
      {},
      { taints: [taint('dedicated', 'NoSchedule')] },
      [false, true],
    ],
    [
      'an untolerated NoExecute taint: neither',
      {},
      { taints: [taint('dedicated', 'NoExecute')] },
      [false, false],
    ],
    [
      'a tolerated NoExecute taint',
      { tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }] },
      { taints: [taint('dedicated', 'NoExecute')] },
      [true, true],
    ],
    ['PreferNoSchedule is ignored', {}, { taints: [taint('dedicated', 'PreferNoSchedule')] }, [true, true]],
    [
      'not-ready NoExecute is tolerated automatically',
      {},
      { taints: [taint('node.kubernetes.io/not-ready', 'NoExecute')] },
      [true, true],
    ],
    [
      'unreachable NoExecute is tolerated automatically',
      {},
      { taints: [taint('node.kubernetes.io/unreachable', 'NoExecute')] },
      [true, true],
    ],
    [
      'disk-pressure NoSchedule is tolerated automatically',
      {},
      { taints: [taint('node.kubernetes.io/disk-pressure', 'NoSchedule')] },
      [true, true],
    ],
    [
      'memory-pressure NoSchedule is tolerated automatically',
      {},
      { taints: [taint('node.kubernetes.io/memory-pressure', 'NoSchedule')] },
      [true, true],
    ],
    [
      'pid-pressure NoSchedule is tolerated automatically',
      {},
      { taints: [taint('node.kubernetes.io/pid-pressure', 'NoSchedule')] },
      [true, true],
    ],
    [
      'an unschedulable (cordoned) node still runs daemon pods',
      {},
      { taints: [taint('node.kubernetes.io/unschedulable', 'NoSchedule')] },
      [true, true],
    ],
    [
      'network-unavailable stops a pod-network daemon',
      {},
      { taints: [taint('node.kubernetes.io/network-unavailable', 'NoSchedule')] },
      [false, true],
    ],
    [
      'network-unavailable is tolerated by a hostNetwork daemon',
      { hostNetwork: true },
      { taints: [taint('node.kubernetes.io/network-unavailable', 'NoSchedule')] },
      [true, true],
    ],
    [
      'an unschedulable taint with NoExecute is not among the automatic ones',
      {},
      { taints: [taint('node.kubernetes.io/unschedulable', 'NoExecute')] },
      [false, false],
    ],
  ])('%s', (_name, spec, n, [shouldRun, shouldContinueRunning]) => {
    expect(nodeShouldRunDaemonPod(node('node-0', n), withSpec(spec))).toEqual({
      shouldRun,
      shouldContinueRunning,
    });
  });
});
