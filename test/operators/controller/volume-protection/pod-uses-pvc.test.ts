// podUsesPvc and the protection finalizer rules: upstream's pvc_protection_controller_test.go and protectionutil cases, as tables.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  podClaimNames,
  podUsesPvc,
} from '../../../../operators/controller/volume-protection/pod-uses-pvc.ts';
import {
  isDeletionCandidate,
  needToAddFinalizer,
  PVC_PROTECTION_FINALIZER,
  withFinalizer,
} from '../../../../operators/controller/volume-protection/protection-finalizer.ts';
import type { KubeObject } from '../../../../operators/types.ts';

const pvc = (name: string, owner?: string): KubeObject => ({
  metadata: {
    namespace: 'ns',
    name,
    ...(owner
      ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: owner, controller: true }] }
      : {}),
  },
});
const pod = (over: { nodeName?: string; volumes?: unknown[]; deletion?: number }): Pod =>
  ({
    metadata: {
      namespace: 'ns',
      name: 'p',
      uid: 'pod-uid',
      ...(over.deletion !== undefined
        ? { deletionTimestamp: '2030-01-01T00:00:00Z', deletionGracePeriodSeconds: over.deletion }
        : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'i' }],
      ...(over.nodeName ? { nodeName: over.nodeName } : {}),
      volumes: over.volumes ?? [],
    },
  }) as Pod;
const claimVolume = { name: 'data', persistentVolumeClaim: { claimName: 'claim' } };
const ephemeralVolume = { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } };

describe('podUsesPvc', () => {
  it.each<[string, Pod, KubeObject, boolean]>([
    ['a scheduled pod naming the claim', pod({ nodeName: 'n', volumes: [claimVolume] }), pvc('claim'), true],
    ['an unscheduled pod naming the claim', pod({ volumes: [claimVolume] }), pvc('claim'), false],
    [
      'a scheduled pod naming another claim',
      pod({ nodeName: 'n', volumes: [claimVolume] }),
      pvc('other'),
      false,
    ],
    ['a pod with no volume', pod({ nodeName: 'n' }), pvc('claim'), false],
    [
      'a shut-down pod still naming the claim',
      pod({ nodeName: 'n', volumes: [claimVolume], deletion: 0 }),
      pvc('claim'),
      true,
    ],
    [
      'its ephemeral claim, owned by the pod',
      pod({ nodeName: 'n', volumes: [ephemeralVolume] }),
      pvc('p-scratch', 'pod-uid'),
      true,
    ],
    [
      'an ephemeral claim of that name owned by another pod',
      pod({ nodeName: 'n', volumes: [ephemeralVolume] }),
      pvc('p-scratch', 'x'),
      false,
    ],
    [
      'its ephemeral claim once the pod is shut down',
      pod({ nodeName: 'n', volumes: [ephemeralVolume], deletion: 0 }),
      pvc('p-scratch', 'pod-uid'),
      false,
    ],
    [
      'its ephemeral claim while the pod terminates gracefully',
      pod({ nodeName: 'n', volumes: [ephemeralVolume], deletion: 30 }),
      pvc('p-scratch', 'pod-uid'),
      true,
    ],
  ])('%s → %s', (_name, p, c, used) => {
    expect(podUsesPvc(p, c)).toBe(used);
  });

  it('lists the claims a pod references, ephemeral ones by their generated names', () => {
    expect(
      podClaimNames(pod({ volumes: [claimVolume, ephemeralVolume, { name: 'e', emptyDir: {} }] })),
    ).toEqual(['claim', 'p-scratch']);
  });
});

describe('protection finalizers', () => {
  const obj = (finalizers: string[], deleting: boolean): KubeObject => ({
    metadata: { name: 'x', finalizers, ...(deleting ? { deletionTimestamp: '2030-01-01T00:00:00Z' } : {}) },
  });
  it.each<[string, KubeObject, boolean, boolean]>([
    ['new, no finalizer: add', obj([], false), true, false],
    ['has it: nothing', obj([PVC_PROTECTION_FINALIZER], false), false, false],
    ['deleting with it: a deletion candidate', obj([PVC_PROTECTION_FINALIZER], true), false, true],
    ['deleting without it: nothing', obj(['other'], true), false, false],
  ])('%s', (_name, o, add, candidate) => {
    expect(needToAddFinalizer(o, PVC_PROTECTION_FINALIZER)).toBe(add);
    expect(isDeletionCandidate(o, PVC_PROTECTION_FINALIZER)).toBe(candidate);
  });

  it('adds once and removes only its own finalizer', () => {
    expect(
      withFinalizer(obj(['a', PVC_PROTECTION_FINALIZER], false), PVC_PROTECTION_FINALIZER, true),
    ).toEqual(['a', PVC_PROTECTION_FINALIZER]);
    expect(
      withFinalizer(obj(['a', PVC_PROTECTION_FINALIZER, 'b'], true), PVC_PROTECTION_FINALIZER, false),
    ).toEqual(['a', 'b']);
  });
});
