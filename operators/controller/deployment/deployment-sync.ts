// planDeploymentSync: one sync of the deployment controller (upstream's syncDeployment: sync, rolloutRolling, rolloutRecreate, syncRolloutStatus) as pure steps over copies of the Deployment and its ReplicaSets.
import type { Pod } from '../../api/core-v1.ts';
import type { LabelSelectorObject } from '../../label-selector.ts';
import { newControllerRef } from '../controller-ref.ts';
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import {
  desiredReplicasOf,
  maxRevision,
  replicasAnnotationsNeedUpdate,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './deployment-revision.ts';
import {
  calculateStatus,
  checkPausedConditions,
  deploymentComplete,
  deploymentStatusEqual,
  getDeploymentCondition,
  hasProgressDeadline,
  newDeploymentCondition,
  requeueStuckDeployment,
  rolloutStatus,
  setDeploymentCondition,
} from './deployment-status.ts';
import {
  DEPLOYMENT_GVK,
  DEPLOYMENT_PROGRESSING,
  DEPLOYMENT_REASONS,
  type Deployment,
  type DeploymentStatus,
  deploymentReplicas,
  POD_TEMPLATE_HASH_LABEL,
  REVISION_ANNOTATION,
  specReplicas,
} from './deployment-types.ts';
import { historyToCleanUp } from './history-cleanup.ts';
import { oldPodsRunning } from './old-pods-running.ts';
import { podTemplateHash } from './pod-template-hash.ts';
import { proportionalScale } from './proportional-scale.ts';
import { byCreation, filterActive, findNewReplicaSet } from './replica-set-order.ts';
import { maxSurge } from './rolling-fenceposts.ts';
import {
  cleanupUnhealthyReplicas,
  maxScaledDown,
  newRSNewReplicas,
  reconcileNewReplicaSetTarget,
  scaleDownOldReplicaSetsForRollingUpdate,
} from './rolling-update.ts';

/** An Event about the Deployment. */
export interface DeploymentEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * One write to a ReplicaSet, in order; its event is recorded once the write succeeded. Several updates of one
 * set may follow each other (each from the previous one's result, as upstream chains them).
 */
export type DeploymentWrite =
  | { type: 'create'; replicaSet: ReplicaSet; event?: DeploymentEvent }
  | { type: 'update'; replicaSet: ReplicaSet; event?: DeploymentEvent }
  | { type: 'delete'; replicaSet: ReplicaSet };

/** What one sync starts from. */
export interface DeploymentSyncInput {
  /** The Deployment as the informer has it. */
  deployment: Deployment;
  /** Its ReplicaSets after claiming (kept and adopted ones). */
  replicaSets: readonly ReplicaSet[];
  /** The pods controlled by those sets (Recreate waits for the old ones). */
  pods?: readonly Pod[];
  /** The clock, in ms. */
  now: number;
}

/** Which of upstream's branches the sync took. */
export type DeploymentSyncPath = 'selectingAll' | 'statusOnly' | 'sync' | 'recreate' | 'rolling';

/** What the controller does, in this order: writes (stop at the first failure), revision, status, events; then requeue. */
export interface DeploymentSyncPlan {
  path: DeploymentSyncPath;
  writes: DeploymentWrite[];
  /** The deployment.kubernetes.io/revision annotation to set on the Deployment, when it changes. */
  revision?: string;
  /** The status to write; undefined when it is unchanged. */
  status?: DeploymentStatus;
  /** Events not tied to a write (SelectingAll). */
  events: DeploymentEvent[];
  /** Look again after this many ms (the progress deadline check). */
  requeueAfter?: number;
  /** Look again after the rate limiter's delay (less than a second left before the deadline). */
  requeue?: boolean;
  /** A broken spec upstream returns as the sync's error (an unknown strategy type). */
  error?: string;
}

/** An empty (select-everything) selector: no matchLabels and no matchExpressions. */
export const selectsEverything = (s: LabelSelectorObject | undefined): boolean =>
  s !== undefined &&
  s !== null &&
  Object.keys(s.matchLabels ?? {}).length === 0 &&
  (s.matchExpressions ?? []).length === 0;

const scalingEvent = (rs: ReplicaSet, from: number, to: number): DeploymentEvent => ({
  type: 'Normal',
  reason: 'ScalingReplicaSet',
  message: `Scaled ${from < to ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${to}`,
});

/**
 * Plans one sync of a Deployment, following upstream's syncDeployment:
 * - an empty selector: a SelectingAll Warning, observedGeneration bumped, nothing else;
 * - being deleted: the status only;
 * - paused/resumed: the DeploymentPaused/DeploymentResumed Progressing condition; paused: only scaling and
 *   history cleanup;
 * - a scaling event (an active set's desired-replicas annotation ≠ replicas): proportional scaling;
 * - else Recreate (old sets to 0, wait for their pods, then the new set to full size) or RollingUpdate (create
 *   or find the new set, grow it within maxSurge, shrink old ones within maxUnavailable, clean up history once
 *   complete), then the rollout status with its Progressing condition and the deadline requeue.
 * The new set is named `<deployment>-<pod-template-hash>` and carries the hash label in its template and
 * selector, a controller reference and the revision annotations.
 *
 * ```
 * d:  --replicas 3, template B (old A at 3, surge 1, unavailable 0)--
 * w:  --B 0→1------A 3→2---B 1→2----A 2→1---B 2→3---A 1→0-----------
 * ```
 *
 * @example
 * const plan = planDeploymentSync({ deployment, replicaSets, pods, now: scheduler.now() });
 * // plan.writes: [{ type: 'create', replicaSet: web-5d8f…, event: Scaled up replica set … from 0 to 1 }]
 * @param input the Deployment, its claimed sets and their pods, the clock
 */
export function planDeploymentSync(input: DeploymentSyncInput): DeploymentSyncPlan {
  const { now } = input;
  const stored = input.deployment;
  const d: Deployment = structuredClone(stored);
  d.status ??= {};
  const rsList: ReplicaSet[] = input.replicaSets.map((rs) => structuredClone(rs));
  const plan: DeploymentSyncPlan = { path: 'rolling', writes: [], events: [] };
  const replicas = deploymentReplicas(d);

  const setRevision = (v: string) => {
    if (d.metadata.annotations?.[REVISION_ANNOTATION] === v) return;
    d.metadata.annotations = { ...(d.metadata.annotations ?? {}), [REVISION_ANNOTATION]: v };
    plan.revision = v;
  };

  /** Resizes a set (and refreshes its replica annotations); whether its size changed. */
  const scaleReplicaSet = (rs: ReplicaSet, to: number): boolean => {
    const max = replicas + maxSurge(d);
    const from = specReplicas(rs);
    const sizeChanges = from !== to;
    if (!sizeChanges && !replicasAnnotationsNeedUpdate(rs, replicas, max)) return false;
    rs.spec.replicas = to;
    setReplicasAnnotations(rs, replicas, max);
    plan.writes.push({
      type: 'update',
      replicaSet: structuredClone(rs),
      ...(sizeChanges ? { event: scalingEvent(rs, from, to) } : {}),
    });
    return sizeChanges;
  };
  const scaleAndRecord = (rs: ReplicaSet, to: number): boolean =>
    specReplicas(rs) === to ? false : scaleReplicaSet(rs, to);

  /** upstream's getAllReplicaSetsAndSyncRevision (with getNewReplicaSet). */
  const getAll = (
    create: boolean,
  ): { newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] } | { error: string } => {
    const existing = findNewReplicaSet(d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== existing).sort(byCreation);
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing) {
      const annotationsUpdated = setNewReplicaSetAnnotations(d, existing, newRevision, true);
      const minReady = d.spec.minReadySeconds ?? 0;
      if (annotationsUpdated || (existing.spec.minReadySeconds ?? 0) !== minReady) {
        existing.spec.minReadySeconds = minReady;
        plan.writes.push({ type: 'update', replicaSet: structuredClone(existing) });
        return { newRS: existing, oldRSs };
      }
      setRevision(existing.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
      if (hasProgressDeadline(d) && !getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING)) {
        setDeploymentCondition(
          d.status!,
          newDeploymentCondition(
            DEPLOYMENT_PROGRESSING,
            'True',
            DEPLOYMENT_REASONS.foundNewRS,
            `Found new replica set "${existing.metadata.name}"`,
            now,
          ),
        );
      }
      return { newRS: existing, oldRSs };
    }
    if (!create) return { newRS: undefined, oldRSs };
    const hash = podTemplateHash(d.spec.template, d.status?.collisionCount);
    const template = structuredClone(d.spec.template ?? {});
    const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
    template.metadata = { ...(template.metadata ?? {}), labels };
    const selector: LabelSelectorObject = {
      ...structuredClone(d.spec.selector ?? {}),
      matchLabels: { ...(d.spec.selector?.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash },
    };
    const newRS: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace ?? 'default',
        labels: { ...labels },
        ownerReferences: [newControllerRef(d, DEPLOYMENT_GVK)],
      },
      spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
    };
    const n = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    if (typeof n !== 'number') return n;
    newRS.spec.replicas = n;
    setNewReplicaSetAnnotations(d, newRS, newRevision, false);
    plan.writes.push({
      type: 'create',
      replicaSet: structuredClone(newRS),
      ...(n > 0 ? { event: scalingEvent(newRS, 0, n) } : {}),
    });
    newRS.status = { replicas: 0 };
    rsList.push(newRS);
    setRevision(String(newRevision));
    if (hasProgressDeadline(d)) {
      setDeploymentCondition(
        d.status!,
        newDeploymentCondition(
          DEPLOYMENT_PROGRESSING,
          'True',
          DEPLOYMENT_REASONS.newReplicaSet,
          `Created new replica set "${newRS.metadata.name}"`,
          now,
        ),
      );
    }
    return { newRS, oldRSs };
  };

  const finish = (next: DeploymentStatus, requeueCheck: boolean): DeploymentSyncPlan => {
    if (!deploymentStatusEqual(stored.status, next)) {
      plan.status = next;
      return plan;
    }
    if (requeueCheck) {
      const after = requeueStuckDeployment(d, next, now);
      if (after === 0) plan.requeue = true;
      // a second more, so the deadline has surely passed when it is looked at again
      else if (after > 0) plan.requeueAfter = after + 1000;
    }
    return plan;
  };
  const fail = (error: string): DeploymentSyncPlan => {
    plan.error = error;
    return plan;
  };

  const cleanup = (oldRSs: readonly ReplicaSet[]) => {
    for (const rs of historyToCleanUp(d, oldRSs)) plan.writes.push({ type: 'delete', replicaSet: rs });
  };

  /** Scaling (and, paused, nothing else): upstream's sync. */
  const sync = (): DeploymentSyncPlan => {
    plan.path = 'sync';
    const all = getAll(false);
    if ('error' in all) return fail(all.error);
    const { steps, refreshAnnotations } = proportionalScale(d, all.newRS, all.oldRSs);
    for (const s of steps) {
      if (refreshAnnotations) scaleReplicaSet(s.replicaSet, s.replicas);
      else scaleAndRecord(s.replicaSet, s.replicas);
    }
    cleanup(all.oldRSs);
    return finish(calculateStatus([...all.oldRSs, all.newRS], all.newRS, d, now), false);
  };

  if (selectsEverything(d.spec.selector)) {
    plan.path = 'selectingAll';
    plan.events.push({
      type: 'Warning',
      reason: 'SelectingAll',
      message: 'This deployment is selecting all pods. A non-empty selector is required.',
    });
    if ((stored.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0))
      plan.status = { ...(stored.status ?? {}), observedGeneration: d.metadata.generation ?? 0 };
    return plan;
  }
  if (d.metadata.deletionTimestamp) {
    plan.path = 'statusOnly';
    const all = getAll(false);
    if ('error' in all) return fail(all.error);
    return finish(calculateStatus([...all.oldRSs, all.newRS], all.newRS, d, now), false);
  }
  checkPausedConditions(d, now);
  if (d.spec.paused) return sync();

  const probe = getAll(false);
  if ('error' in probe) return fail(probe.error);
  const scaling = filterActive([...probe.oldRSs, probe.newRS]).some((rs) => {
    const desired = desiredReplicasOf(rs);
    return desired !== undefined && desired !== replicas;
  });
  if (scaling) return sync();

  const type = d.spec.strategy?.type ?? 'RollingUpdate';
  if (type === 'Recreate') {
    plan.path = 'recreate';
    let all = getAll(false);
    if ('error' in all) return fail(all.error);
    const allRSs = () => [...(all as { oldRSs: ReplicaSet[] }).oldRSs, (all as { newRS?: ReplicaSet }).newRS];
    let scaledDown = false;
    for (const rs of filterActive(all.oldRSs)) if (scaleAndRecord(rs, 0)) scaledDown = true;
    if (scaledDown || oldPodsRunning(all.newRS, all.oldRSs, input.pods ?? [])) {
      return finish(rolloutStatus(allRSs(), all.newRS, d, now), true);
    }
    if (!all.newRS) {
      all = getAll(true);
      if ('error' in all) return fail(all.error);
    }
    if (all.newRS) scaleAndRecord(all.newRS, replicas);
    if (deploymentComplete(d, d.status)) cleanup(all.oldRSs);
    return finish(rolloutStatus(allRSs(), all.newRS, d, now), true);
  }
  if (type !== 'RollingUpdate') return fail(`unexpected deployment strategy type: ${type}`);

  const all = getAll(true);
  if ('error' in all) return fail(all.error);
  const newRS = all.newRS!;
  const allRSs = [...all.oldRSs, newRS];
  const target = reconcileNewReplicaSetTarget(d, allRSs, newRS);
  if (typeof target === 'object') return fail(target.error);
  if (target !== undefined && scaleAndRecord(newRS, target)) {
    return finish(rolloutStatus(allRSs, newRS, d, now), true);
  }
  // reconcileOldReplicaSets
  const activeOld = filterActive(all.oldRSs);
  let scaledDown = 0;
  if (activeOld.reduce((n, rs) => n + specReplicas(rs), 0) > 0) {
    const max = maxScaledDown(d, allRSs, newRS);
    if (max > 0) {
      const cleaned = cleanupUnhealthyReplicas(activeOld, max);
      for (const s of cleaned.steps) scaleAndRecord(s.replicaSet, s.replicas);
      scaledDown += cleaned.total;
      if (cleaned.error) return fail(cleaned.error);
      const down = scaleDownOldReplicaSetsForRollingUpdate(d, [...activeOld, newRS], activeOld);
      for (const s of down.steps) scaleAndRecord(s.replicaSet, s.replicas);
      scaledDown += down.total;
    }
  }
  if (scaledDown > 0) return finish(rolloutStatus(allRSs, newRS, d, now), true);
  if (deploymentComplete(d, d.status)) cleanup(all.oldRSs);
  return finish(rolloutStatus(allRSs, newRS, d, now), true);
}

/**
 * The status after a hash collision (the name `<deployment>-<hash>` taken by a set with another template):
 * status.collisionCount + 1, so the next sync hashes to another name.
 */
export function collisionStatus(d: Deployment): DeploymentStatus {
  return { ...(d.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 };
}

/**
 * The status after creating the new set failed (other than a collision or a terminating namespace): with a
 * deadline, Progressing False ReplicaSetCreateError and the message; the same message goes in a Warning Event.
 */
export function replicaSetCreateFailed(
  d: Deployment,
  rsName: string,
  error: string,
  now: number,
): { status?: DeploymentStatus; event: DeploymentEvent } {
  const message = `Failed to create new replica set "${rsName}": ${error}`;
  const event: DeploymentEvent = { type: 'Warning', reason: DEPLOYMENT_REASONS.failedRSCreate, message };
  if (!hasProgressDeadline(d)) return { event };
  const status: DeploymentStatus = structuredClone(d.status ?? {});
  setDeploymentCondition(
    status,
    newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'False', DEPLOYMENT_REASONS.failedRSCreate, message, now),
  );
  return { status, event };
}
