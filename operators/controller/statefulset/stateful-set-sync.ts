// planStatefulSetSync: one sync of a stateful set as upstream's updateStatefulSet decides it — which pods to create, recreate, fix, delete for scale-down and delete for a rolling update, and the status.
import type { Pod } from '../../api/core-v1.ts';
import { isPodReady } from '../pod-deletion-order.ts';
import { isPodAvailable } from '../replicaset/replica-set-status.ts';
import { claimRetentionOwners } from './claim-retention.ts';
import {
  identityMatches,
  newStatefulPod,
  parentAndOrdinal,
  podRevision,
  statefulClaims,
  storageMatches,
  withIdentity,
  withStorage,
} from './stateful-pod-identity.ts';
import {
  allowsBurst,
  type PersistentVolumeClaimObject,
  type StatefulSet,
  type StatefulSetStatus,
  setReplicas,
  startOrdinal,
} from './stateful-set-types.ts';

/** One write the sync asks for, in order. */
export type StatefulSetAction =
  /** Create the pod's missing claims, then the pod. */
  | { type: 'create'; pod: Pod; claims: PersistentVolumeClaimObject[] }
  /** Create the claims a pending pod still lacks. */
  | { type: 'claims'; pod: Pod; claims: PersistentVolumeClaimObject[] }
  /** Set the claim's owner references as persistentVolumeClaimRetentionPolicy asks (a merge patch of them). */
  | { type: 'claimOwners'; pod: Pod; claim: PersistentVolumeClaimObject }
  /** Put the pod's identity labels and claim volumes back. */
  | { type: 'update'; pod: Pod }
  /** Delete the pod: it finished (recreated next sync), its ordinal is beyond replicas, or it is of an older revision. */
  | { type: 'delete'; pod: Pod; why: 'finished' | 'condemned' | 'update' };

/** What {@link planStatefulSetSync} is given. */
export interface StatefulSetSyncInput {
  /** The set as read. */
  set: StatefulSet;
  /** The pods it controls (claimed). */
  pods: readonly Pod[];
  /** The set with the current revision's template, and that revision's name. */
  currentSet: StatefulSet;
  currentRevision: string;
  /** The set with the update revision's template, and that revision's name. */
  updateSet: StatefulSet;
  updateRevision: string;
  /** The time in ms (availability for minReadySeconds). */
  now: number;
  /** The namespace's claims by name, for the retention policy's owner references; none: left alone. */
  claims?: ReadonlyMap<string, PersistentVolumeClaimObject>;
}

/** What one sync does. */
export interface StatefulSetSyncPlan {
  actions: StatefulSetAction[];
  /** The status to write (rolling update completed when every pod is updated and ready). */
  status: StatefulSetStatus;
  /** Look again after this many ms: a ready pod becomes available once minReadySeconds pass. */
  requeueAfter?: number;
}

const isFinished = (p: Pod) => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';
const isTerminating = (p: Pod) => Boolean(p.metadata.deletionTimestamp);
const isRunningAndReady = (p: Pod) => p.status?.phase === 'Running' && isPodReady(p);
const isHealthy = (p: Pod) => isRunningAndReady(p) && !isTerminating(p);

/**
 * Upstream's updateStatefulSet, as a plan. Pods with an ordinal in [start, start+replicas) fill their slot;
 * others are condemned (deleted highest first). Slots are processed in ordinal order: a finished pod is
 * deleted (its successor is created next sync), a missing pod is created (with the current revision's template
 * below the partition, else the update revision's), a pod whose identity or claims drifted is fixed. Under
 * OrderedReady (monotonic) the sync stops at the first creation, at a terminating pod and at a pod not yet
 * Running, Ready and available; scale-down waits until every remaining pod is healthy (the first unhealthy
 * pod may still go). Parallel creates and deletes everything at once. Then, unless the strategy is OnDelete,
 * the highest-ordinal pod at or above the partition that is not of the update revision is deleted, one per
 * sync, waiting for unhealthy pods. A set being deleted only gets its status.
 *
 * @param input the set, its pods, the current and update templates with their revision names, and the time
 * @returns the writes in order, the new status, a requeue delay for minReadySeconds
 */
export function planStatefulSetSync(input: StatefulSetSyncInput): StatefulSetSyncPlan {
  const { set, pods, currentSet, updateSet, currentRevision, updateRevision, now } = input;
  const minReady = set.spec.minReadySeconds ?? 0;
  const available = (p: Pod) => p.status?.phase === 'Running' && isPodAvailable(p, minReady, now);
  const status = replicaStatus(input, available);
  const done = (actions: StatefulSetAction[]): StatefulSetSyncPlan => {
    const out: StatefulSetSyncPlan = { actions, status: completeRollingUpdate(set, status) };
    if (minReady > 0 && status.readyReplicas !== status.availableReplicas) out.requeueAfter = minReady * 1000;
    return out;
  };
  const start = startOrdinal(set);
  const count = setReplicas(set);
  const replicas: (Pod | undefined)[] = new Array(count).fill(undefined);
  const condemned: Pod[] = [];
  for (const pod of pods) {
    const { ordinal } = parentAndOrdinal(pod);
    if (ordinal >= start && ordinal < start + count) replicas[ordinal - start] = pod;
    else if (ordinal >= 0) condemned.push(pod);
  }
  condemned.sort((a, b) => parentAndOrdinal(b).ordinal - parentAndOrdinal(a).ordinal);
  if (set.metadata.deletionTimestamp) return done([]);

  const monotonic = !allowsBurst(set);
  const firstUnhealthy = [...replicas, ...[...condemned].reverse()].find(
    (p) => p !== undefined && !isHealthy(p),
  );
  const actions: StatefulSetAction[] = [];

  // the living replicas, lowest ordinal first
  for (let i = 0; i < count; i++) {
    const pod = replicas[i];
    const ordinal = start + i;
    if (pod && isFinished(pod)) {
      if (!isTerminating(pod)) actions.push({ type: 'delete', pod, why: 'finished' });
      if (monotonic) return done(actions);
      continue;
    }
    if (!pod) {
      const fromCurrent = usesCurrentRevision(currentSet, ordinal);
      const source = fromCurrent ? currentSet : updateSet;
      const created = newStatefulPod(source, ordinal, fromCurrent ? currentRevision : updateRevision);
      const claims = statefulClaims(set, ordinal).map((c) => {
        const owners = claimRetentionOwners(set, undefined, c, false);
        return owners?.length ? { ...c, metadata: { ...c.metadata, ownerReferences: owners } } : c;
      });
      actions.push({ type: 'create', pod: created, claims });
      if (monotonic) return done(actions);
      continue;
    }
    if (pod.status?.phase === 'Pending' && (set.spec.volumeClaimTemplates ?? []).length > 0) {
      actions.push({ type: 'claims', pod, claims: statefulClaims(set, ordinal) });
    }
    if (isTerminating(pod)) {
      if (monotonic) return done(actions);
      continue;
    }
    if (monotonic && (!isRunningAndReady(pod) || !available(pod))) return done(actions);
    actions.push(...retentionFixes(input, pod, ordinal, false));
    if (identityMatches(set, pod) && storageMatches(set, pod)) continue;
    actions.push({ type: 'update', pod: withStorage(updateSet, withIdentity(updateSet, pod)) });
  }

  // the claims of condemned pods first owned as whenScaled says, then the pods, highest ordinal first, once
  // every living replica is running and ready
  for (const pod of condemned)
    actions.push(...retentionFixes(input, pod, parentAndOrdinal(pod).ordinal, true));
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return done(actions);
      continue;
    }
    if (monotonic && pod !== firstUnhealthy && (!isRunningAndReady(pod) || !available(pod))) {
      return done(actions);
    }
    actions.push({ type: 'delete', pod, why: 'condemned' });
    if (monotonic) return done(actions);
  }

  if (set.spec.updateStrategy?.type === 'OnDelete') return done(actions);
  const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  const maxUnavailable = set.spec.updateStrategy?.rollingUpdate?.maxUnavailable;
  if (maxUnavailable !== undefined) {
    // upstream's updateStatefulSetAfterInvariantEstablished: up to maxUnavailable pods down at once
    const budget = scaledMaxUnavailable(maxUnavailable, count);
    const unavailable = replicas.filter((p) => p === undefined || !isHealthy(p) || !available(p)).length;
    let toDelete = budget - unavailable;
    for (let target = count - 1; target >= partition && toDelete > 0; target--) {
      const pod = replicas[target];
      if (!pod || podRevision(pod) === updateRevision || isTerminating(pod)) continue;
      actions.push({ type: 'delete', pod, why: 'update' });
      status.currentReplicas = (status.currentReplicas ?? 0) - 1;
      toDelete--;
    }
    return done(actions);
  }
  for (let target = count - 1; target >= partition; target--) {
    const pod = replicas[target];
    if (!pod) continue;
    if (podRevision(pod) !== updateRevision && !isTerminating(pod)) {
      actions.push({ type: 'delete', pod, why: 'update' });
      status.currentReplicas = (status.currentReplicas ?? 0) - 1;
      return done(actions);
    }
    if (!isHealthy(pod)) return done(actions);
  }
  return done(actions);
}

/** maxUnavailable as a number of pods: a percentage of replicas rounded down, at least 1 (upstream's getStatefulSetMaxUnavailable). */
export function scaledMaxUnavailable(value: number | string, replicas: number): number {
  const m = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
  const n = m ? Math.floor((Number(m[1]) * replicas) / 100) : Number(value);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

/** The owner-reference changes the retention policy asks of the existing claims of `pod`. */
function retentionFixes(
  input: StatefulSetSyncInput,
  pod: Pod,
  ordinal: number,
  condemned: boolean,
): StatefulSetAction[] {
  if (!input.claims) return [];
  const out: StatefulSetAction[] = [];
  for (const wanted of statefulClaims(input.set, ordinal)) {
    const claim = input.claims.get(wanted.metadata.name ?? '');
    if (!claim || claim.metadata.deletionTimestamp) continue;
    const owners = claimRetentionOwners(input.set, pod, claim, condemned);
    if (owners)
      out.push({
        type: 'claimOwners',
        pod,
        claim: { ...claim, metadata: { ...claim.metadata, ownerReferences: owners } },
      });
  }
  return out;
}

/** Whether a pod created now for `ordinal` takes the current revision's template (upstream's newVersionedStatefulSetPod). */
function usesCurrentRevision(currentSet: StatefulSet, ordinal: number): boolean {
  const strategy = currentSet.spec.updateStrategy;
  const rolling = (strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  const start = startOrdinal(currentSet);
  if (strategy?.rollingUpdate === undefined) {
    return rolling && ordinal < start + (currentSet.status?.currentReplicas ?? 0);
  }
  return ordinal < start + (strategy.rollingUpdate.partition ?? 0);
}

/** Counts over the set's pods (upstream's computeReplicaStatus) with the revisions and the observed generation. */
function replicaStatus(input: StatefulSetSyncInput, available: (p: Pod) => boolean): StatefulSetStatus {
  const { set, pods, currentRevision, updateRevision } = input;
  const status: StatefulSetStatus = {
    ...(set.metadata.generation !== undefined ? { observedGeneration: set.metadata.generation } : {}),
    replicas: 0,
    readyReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    availableReplicas: 0,
    currentRevision,
    updateRevision,
    collisionCount: set.status?.collisionCount ?? 0,
  };
  const add = (k: 'readyReplicas' | 'currentReplicas' | 'updatedReplicas' | 'availableReplicas') => {
    status[k] = (status[k] ?? 0) + 1;
  };
  for (const pod of pods) {
    status.replicas++;
    if (isRunningAndReady(pod)) {
      add('readyReplicas');
      if (available(pod)) add('availableReplicas');
    }
    if (isTerminating(pod)) continue;
    if (podRevision(pod) === currentRevision) add('currentReplicas');
    if (podRevision(pod) === updateRevision) add('updatedReplicas');
  }
  return status;
}

/** Once every pod is of the update revision and ready, the update revision becomes current (upstream's completeRollingUpdate). */
function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): StatefulSetStatus {
  const rolling = (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  if (rolling && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    return {
      ...status,
      currentReplicas: status.updatedReplicas ?? 0,
      currentRevision: status.updateRevision ?? '',
    };
  }
  return status;
}
