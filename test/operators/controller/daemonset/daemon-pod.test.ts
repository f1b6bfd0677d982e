// Tests of the daemon pod's making: upstream's TestReplaceDaemonSetPodNodeNameNodeAffinity, TestGetTargetNodeName, TestCreatePodTemplate and AddOrUpdateDaemonPodTolerations, in our words.
import { describe, expect, it } from 'vitest';
import type { Affinity, Pod } from '../../../../operators/api/core-v1.ts';
import { daemonPod } from '../../../../operators/controller/daemonset/daemon-pod.ts';
import {
  daemonPodTargetNode,
  replaceDaemonPodNodeNameAffinity,
} from '../../../../operators/controller/daemonset/daemon-pod-node-affinity.ts';
import { daemonPodTolerations } from '../../../../operators/controller/daemonset/daemon-pod-tolerations.ts';
import { daemonSet } from './daemon-set-world.ts';

const nameIs = (...values: string[]) => ({ key: 'metadata.name', operator: 'In', values });
const pinned = (host: string): Affinity => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [nameIs(host)] }] },
  },
});
const hostnameTerm = {
  matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['host_1'] }],
};

describe('replaceDaemonPodNodeNameAffinity', () => {
  it.each<[string, Affinity | undefined, Affinity]>([
    ['no affinity: one term naming the node', undefined, pinned('host_1')],
    [
      'a hostname expression is replaced',
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [hostnameTerm] },
        },
      },
      pinned('host_1'),
    ],
    [
      'preferred terms are kept beside the new required term',
      {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: hostnameTerm }],
        },
      },
      {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: hostnameTerm }],
          requiredDuringSchedulingIgnoredDuringExecution:
            pinned('host_1').nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!,
        },
      },
    ],
    [
      'a name list of two becomes the one node',
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [nameIs('host_1', 'host_2')] }],
          },
        },
      },
      pinned('host_1'),
    ],
    [
      'several terms become one',
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [hostnameTerm, { matchFields: [nameIs('host_2')] }],
          },
        },
      },
      pinned('host_1'),
    ],
    [
      'a NotIn on the name is replaced',
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['host_2'] }] },
            ],
          },
        },
      },
      pinned('host_1'),
    ],
    [
      'an unknown field key is replaced',
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.foo', operator: 'In', values: ['bar'] }] }],
          },
        },
      },
      pinned('host_1'),
    ],
  ])('%s', (_name, affinity, want) => {
    const before = structuredClone(affinity);
    expect(replaceDaemonPodNodeNameAffinity(affinity, 'host_1')).toEqual(want);
    expect(affinity).toEqual(before);
  });
});

describe('daemonPodTargetNode', () => {
  const pod = (spec: Partial<Pod['spec']>) =>
    ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } }) as Pod;
  it.each<[string, Pod, string | undefined]>([
    ['bound: spec.nodeName', pod({ nodeName: 'node-1' }), 'node-1'],
    ['the metadata.name affinity', pod({ affinity: pinned('node-1') }), 'node-1'],
    [
      'two names: none',
      pod({
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [nameIs('node-1', 'node-2')] }],
            },
          },
        },
      }),
      undefined,
    ],
    ['neither: none', pod({}), undefined],
  ])('%s', (_name, p, want) => {
    expect(daemonPodTargetNode(p)).toBe(want);
  });
});

describe('daemonPodTolerations', () => {
  const auto = (hostNetwork: boolean) => [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ...(hostNetwork
      ? [{ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' }]
      : []),
  ];
  it.each([
    ['a pod without tolerations gets the six automatic ones', { containers: [] }, auto(false)],
    [
      'a hostNetwork pod also tolerates network-unavailable',
      { containers: [], hostNetwork: true },
      auto(true),
    ],
    [
      "the user's own tolerations come first and stay",
      { containers: [], tolerations: [{ key: 'gpu', operator: 'Exists' }] },
      [{ key: 'gpu', operator: 'Exists' }, ...auto(false)],
    ],
    [
      'a matching not-ready toleration with tolerationSeconds is replaced in place (no eviction after 300 s)',
      {
        containers: [],
        tolerations: [
          {
            key: 'node.kubernetes.io/not-ready',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 300,
          },
        ],
      },
      auto(false),
    ],
  ])('%s', (_name, spec, want) => {
    expect(daemonPodTolerations(spec as Pod['spec'])).toEqual(want);
  });
});

describe('daemonPod', () => {
  it('carries the template, the revision labels, the tolerations, the node affinity and the controller reference, unbound', () => {
    const ds = daemonSet();
    ds.metadata.generation = 2;
    const pod = daemonPod(ds, 'node-1', '3242341807');
    expect(pod.metadata).toEqual({
      generateName: 'foo-',
      namespace: 'default',
      labels: {
        name: 'simple-daemon',
        'pod-template-generation': '2',
        'controller-revision-hash': '3242341807',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: 'foo',
          uid: 'ds-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(pod.spec.nodeName).toBeUndefined();
    expect(pod.spec.affinity).toEqual(pinned('node-1'));
    expect(pod.spec.tolerations).toHaveLength(6);
    expect(ds.spec.template?.spec?.tolerations).toBeUndefined();
  });

  it.each([
    ['without a hash: only the generation label (upstream TestCreatePodTemplate)', '', undefined],
    ['with a hash: the controller-revision-hash label too', '3242341807', '3242341807'],
  ])('%s', (_name, hash, label) => {
    const pod = daemonPod(daemonSet(), 'n', hash);
    expect(pod.metadata.labels?.['pod-template-generation']).toBe('1');
    expect(pod.metadata.labels?.['controller-revision-hash']).toBe(label);
  });
});
