// claimRetentionOwners: persistentVolumeClaimRetentionPolicy as owner references, upstream's claim-ownership cases in our words, and the sync's claim actions.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { claimRetentionOwners } from '../../../../operators/controller/statefulset/claim-retention.ts';
import { statefulClaims } from '../../../../operators/controller/statefulset/stateful-pod-identity.ts';
import { planStatefulSetSync } from '../../../../operators/controller/statefulset/stateful-set-sync.ts';
import type {
  PersistentVolumeClaimObject,
  StatefulSet,
} from '../../../../operators/controller/statefulset/stateful-set-types.ts';
import type { OwnerReference } from '../../../../operators/types.ts';
import { makeSet, runningPod } from './fixtures.ts';

const SET_REF: OwnerReference = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid' };
const POD_REF: OwnerReference = { apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'pod-uid' };
const OTHER: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'keep', uid: 'cm-uid' };
const policySet = (whenDeleted: string, whenScaled: string): StatefulSet =>
  makeSet(1, {
    persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }],
  });
const claimWith = (refs: OwnerReference[]): PersistentVolumeClaimObject => ({
  metadata: { name: 'data-web-1', ...(refs.length ? { ownerReferences: refs } : {}) },
});
const pod: Pod = { metadata: { name: 'web-1', uid: 'pod-uid' }, spec: { containers: [] } };

describe('claimRetentionOwners', () => {
  it.each<[string, string, boolean, OwnerReference[], OwnerReference[] | undefined]>([
    ['Retain', 'Retain', false, [], undefined],
    ['Retain', 'Retain', false, [SET_REF, OTHER], [OTHER]],
    ['Delete', 'Retain', false, [], [SET_REF]],
    ['Delete', 'Retain', false, [SET_REF], undefined],
    ['Delete', 'Retain', true, [SET_REF], undefined],
    ['Retain', 'Delete', false, [], undefined],
    ['Retain', 'Delete', true, [], [POD_REF]],
    ['Delete', 'Delete', true, [SET_REF], [POD_REF]],
    ['Delete', 'Delete', false, [POD_REF], [SET_REF]],
    ['Retain', 'Delete', true, [OTHER, POD_REF], undefined],
  ])(
    'whenDeleted %s, whenScaled %s, condemned %s: %j becomes %j',
    (deleted, scaled, condemned, refs, want) => {
      expect(claimRetentionOwners(policySet(deleted, scaled), pod, claimWith(refs), condemned)).toEqual(want);
    },
  );
});

describe('the sync and the retention policy', () => {
  it('creates claims owned by the set when whenDeleted is Delete', () => {
    const set = policySet('Delete', 'Retain');
    const plan = planStatefulSetSync({
      set,
      pods: [],
      currentSet: set,
      currentRevision: 'r',
      updateSet: set,
      updateRevision: 'r',
      now: 0,
    });
    const create = plan.actions[0];
    expect(create?.type === 'create' && create.claims[0]?.metadata.ownerReferences).toEqual([SET_REF]);
  });

  it('gives a condemned pod its claims before deleting it when whenScaled is Delete', () => {
    const set = {
      ...policySet('Retain', 'Delete'),
      spec: { ...policySet('Retain', 'Delete').spec, replicas: 1 },
    };
    const pods = [
      runningPod(set, 0, 'r'),
      { ...runningPod(set, 1, 'r'), metadata: { ...runningPod(set, 1, 'r').metadata, uid: 'pod-uid' } },
    ];
    const claims = new Map(
      [...statefulClaims(set, 0), ...statefulClaims(set, 1)].map((c) => [c.metadata.name ?? '', c]),
    );
    const plan = planStatefulSetSync({
      set,
      pods,
      currentSet: set,
      currentRevision: 'r',
      updateSet: set,
      updateRevision: 'r',
      now: 0,
      claims,
    });
    expect(
      plan.actions.map(
        (a) => `${a.type} ${a.type === 'claimOwners' ? a.claim.metadata.name : a.pod.metadata.name}`,
      ),
    ).toEqual(['claimOwners data-web-1', 'delete web-1']);
    const fix = plan.actions[0];
    expect(fix?.type === 'claimOwners' && fix.claim.metadata.ownerReferences).toEqual([POD_REF]);
  });
});
