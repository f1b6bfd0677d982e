// matchPodFailurePolicy: which rule of a Job's podFailurePolicy a failed pod matches, and what it means for the job.
import type { ContainerStatus, Pod } from '../../api/core-v1.ts';
import type { PodFailurePolicyRule } from './job-types.ts';

/** What a failed pod means under the policy: a FailJob message, whether it counts towards backoffLimit, the action. */
export interface PodFailurePolicyMatch {
  failJobMessage?: string;
  countFailed: boolean;
  action?: PodFailurePolicyRule['action'];
}

function exitCodeMatch(
  rule: NonNullable<PodFailurePolicyRule['onExitCodes']>,
  statuses: ContainerStatus[] = [],
) {
  for (const s of statuses) {
    const code = s.state?.terminated?.exitCode;
    if (code === undefined || code === 0) continue;
    if (rule.containerName && rule.containerName !== s.name) continue;
    const listed = rule.values.includes(code);
    if (rule.operator === 'In' ? listed : !listed) return s;
  }
  return undefined;
}

/**
 * The first rule (in order) a failed pod matches, as upstream's matchPodFailurePolicy: `onExitCodes` looks
 * at terminated regular containers, then init containers, with a non-zero exit code (optionally of one
 * container; `In`/`NotIn`); `onPodConditions` at a pod condition of that type and status (default True).
 * FailJob gives the job's failure message; Ignore does not count the failure; Count and FailIndex count
 * it. No match counts it.
 *
 * @param rules the policy's rules
 * @param pod a pod considered failed
 */
export function matchPodFailurePolicy(
  rules: readonly PodFailurePolicyRule[],
  pod: Pod,
): PodFailurePolicyMatch {
  const podName = `${pod.metadata.namespace}/${pod.metadata.name}`;
  for (const [index, rule] of rules.entries()) {
    let detail: string | undefined;
    if (rule.onExitCodes) {
      const s =
        exitCodeMatch(rule.onExitCodes, pod.status?.containerStatuses) ??
        exitCodeMatch(rule.onExitCodes, pod.status?.initContainerStatuses);
      if (s)
        detail = `Container ${s.name} for pod ${podName} failed with exit code ${s.state?.terminated?.exitCode}`;
    } else if (rule.onPodConditions) {
      for (const want of rule.onPodConditions) {
        const c = pod.status?.conditions?.find(
          (x) => x.type === want.type && x.status === (want.status ?? 'True'),
        );
        if (c) {
          detail = `Pod ${podName} has condition ${c.type}`;
          break;
        }
      }
    }
    if (detail === undefined) continue;
    switch (rule.action) {
      case 'FailJob':
        return {
          failJobMessage: `${detail} matching FailJob rule at index ${index}`,
          countFailed: true,
          action: 'FailJob',
        };
      case 'Ignore':
        return { countFailed: false, action: 'Ignore' };
      default:
        return { countFailed: true, action: rule.action };
    }
  }
  return { countFailed: true };
}
