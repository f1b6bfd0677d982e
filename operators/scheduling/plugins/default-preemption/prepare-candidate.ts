// prepareCandidate: evicts the chosen node's victims and clears lower-priority nominations to that node.
import type { Pod, PodCondition } from '../../../api/core-v1.ts';
import type { FrameworkHandle } from '../../framework/interface.ts';
import { asStatus, type Status } from '../../framework/status.ts';
import type { Candidate } from './pick-one-node-for-preemption.ts';
import { podPriority } from './pod-importance.ts';

function isNotFound(error: unknown): boolean {
  const e = error as { statusCode?: number; reason?: string } | undefined;
  return e?.statusCode === 404 || e?.reason === 'NotFound';
}

/**
 * The DisruptionTarget condition a victim gets before its deletion; with `now` (ms) it carries
 * lastTransitionTime, as upstream's UpdatePodCondition sets it on a new condition.
 */
export function preemptionCondition(preemptor: Pod, now?: number): PodCondition {
  return {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'PreemptionByScheduler',
    message: `${preemptor.spec.schedulerName ?? 'default-scheduler'}: preempting to accommodate a higher priority pod`,
    ...(now !== undefined
      ? { lastTransitionTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z') }
      : {}),
  };
}

function hasCondition(pod: Pod, c: PodCondition): boolean {
  return Boolean(
    pod.status?.conditions?.some(
      (x) => x.type === c.type && x.status === c.status && x.reason === c.reason && x.message === c.message,
    ),
  );
}

/** The message of the `Preempted` Event a victim gets, upstream's words. */
export function preemptedMessage(preemptor: Pod, nodeName: string): string {
  return `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${nodeName}`;
}

/**
 * Preempts one victim on `nodeName`: a pod waiting at Permit is rejected ("preempted"); any other gets
 * the DisruptionTarget condition (reason PreemptionByScheduler) and is deleted with its grace period (a
 * victim already gone is done, without an Event). Then the victim gets a Normal `Preempted` Event
 * (action Preempting) "Preempted by pod <preemptor uid> on node <node>".
 */
export async function preemptVictim(
  handle: FrameworkHandle,
  plugin: string,
  preemptor: Pod,
  victim: Pod,
  nodeName: string = victim.spec.nodeName ?? '',
): Promise<void> {
  const signal = new AbortController().signal;
  const waiting = Boolean(
    victim.metadata.uid && handle.rejectWaitingPod(victim.metadata.uid, plugin, 'preempted'),
  );
  if (!waiting) {
    const condition = preemptionCondition(preemptor, handle.scheduler.now());
    try {
      if (!hasCondition(victim, condition)) await handle.api.patchPodCondition(victim, condition, signal);
      await handle.api.deletePod(victim, signal);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      return;
    }
  }
  const record = handle.api.recordEvent;
  if (!record) return;
  await record
    .call(
      handle.api,
      victim,
      'Normal',
      'Preempted',
      'Preempting',
      preemptedMessage(preemptor, nodeName),
      preemptor.spec.schedulerName ?? 'default-scheduler',
      signal,
    )
    .catch((error: unknown) => {
      handle.logger.warn(
        { err: String(error), pod: `${victim.metadata.namespace}/${victim.metadata.name}` },
        'could not record event',
      );
    });
}

/**
 * Evicts every victim of the candidate, then clears the nomination of lower-priority pods nominated to
 * that node (they may no longer fit; failing to clear is logged, not returned).
 * @returns an Error status when evicting a victim failed
 */
export async function prepareCandidate(
  handle: FrameworkHandle,
  plugin: string,
  candidate: Candidate,
  preemptor: Pod,
): Promise<Status | undefined> {
  // A victim already being deleted needs no second deletion (nor an Event).
  const victims = candidate.victims.filter((v) => !v.metadata.deletionTimestamp);
  const results = await Promise.allSettled(
    victims.map((v) => preemptVictim(handle, plugin, preemptor, v, candidate.name)),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) return asStatus(failed.reason);
  const priority = podPriority(preemptor);
  const lower = handle
    .nominatedPodsForNode(candidate.name)
    .map((p) => p.pod)
    .filter((p) => podPriority(p) < priority);
  await clearNominatedNodeName(handle, lower);
  return undefined;
}

/** Clears status.nominatedNodeName of the pods that have one; errors are logged only. */
export async function clearNominatedNodeName(handle: FrameworkHandle, pods: readonly Pod[]): Promise<void> {
  const signal = new AbortController().signal;
  await Promise.all(
    pods
      .filter((p) => Boolean(p.status?.nominatedNodeName))
      .map((p) =>
        handle.api.setNominatedNodeName(p, '', signal).catch((error: unknown) => {
          handle.logger.error(
            { err: error, pod: `${p.metadata.namespace}/${p.metadata.name}` },
            "Cannot clear 'NominatedNodeName' field",
          );
        }),
      ),
  );
}
