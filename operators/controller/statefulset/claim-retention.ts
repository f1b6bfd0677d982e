// claimRetentionOwners: the owner references persistentVolumeClaimRetentionPolicy asks a stateful pod's claim to carry, so the garbage collector deletes it with the set (whenDeleted) or with its scaled-away pod (whenScaled).
import type { Pod } from '../../api/core-v1.ts';
import type { OwnerReference } from '../../types.ts';
import {
  type PersistentVolumeClaimObject,
  STATEFUL_SET_GVK,
  type StatefulSet,
} from './stateful-set-types.ts';

const isSetRef = (set: StatefulSet, r: OwnerReference) =>
  r.kind === STATEFUL_SET_GVK.kind && r.uid === set.metadata.uid;
const isPodRef = (r: OwnerReference) => r.kind === 'Pod' && r.apiVersion === 'v1';

/**
 * The claim's owner references under the set's retention policy, or undefined when they are right already:
 * whenDeleted Delete makes the set an owner; whenScaled Delete makes the pod of a condemned ordinal (one the
 * set no longer wants) the owner instead; Retain (the default) removes what the policy would have added.
 * Other owners are kept as they are.
 *
 * @param set the set
 * @param pod the claim's pod (needed for its uid when condemned)
 * @param claim the claim as it is
 * @param condemned whether the pod's ordinal is beyond the set's replicas
 */
export function claimRetentionOwners(
  set: StatefulSet,
  pod: Pod | undefined,
  claim: PersistentVolumeClaimObject,
  condemned: boolean,
): OwnerReference[] | undefined {
  const policy = set.spec.persistentVolumeClaimRetentionPolicy ?? {};
  const refs = claim.metadata.ownerReferences ?? [];
  const others = refs.filter((r) => !isSetRef(set, r) && !isPodRef(r));
  const wanted: OwnerReference[] = [];
  if (condemned && policy.whenScaled === 'Delete' && pod?.metadata.uid) {
    wanted.push({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid });
  } else if (policy.whenDeleted === 'Delete') {
    wanted.push({
      apiVersion: STATEFUL_SET_GVK.apiVersion,
      kind: STATEFUL_SET_GVK.kind,
      name: set.metadata.name ?? '',
      uid: set.metadata.uid ?? '',
    });
  }
  const next = [...others, ...wanted];
  const key = (r: OwnerReference) => `${r.kind}/${r.uid}`;
  const same =
    next.length === refs.length &&
    next.every((r) => refs.some((x) => key(x) === key(r) && x.name === r.name));
  return same ? undefined : next;
}
