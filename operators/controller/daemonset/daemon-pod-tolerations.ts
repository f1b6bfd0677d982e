// daemonPodTolerations: the tolerations the daemon set controller adds to every daemon pod, as upstream's AddOrUpdateDaemonPodTolerations.
import type { PodSpec, Toleration } from '../../api/core-v1.ts';

const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });

/**
 * The automatic tolerations: not-ready and unreachable (NoExecute, no tolerationSeconds, so node problems
 * never evict a daemon pod), disk-, memory- and pid-pressure and unschedulable (NoSchedule), and, for a
 * hostNetwork pod, network-unavailable (NoSchedule).
 */
export function automaticDaemonTolerations(spec: Pick<PodSpec, 'hostNetwork'>): Toleration[] {
  return [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
    ...(spec.hostNetwork ? [exists('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
}

/** Same key, operator, value and effect (upstream's Toleration.MatchToleration). */
const sameToleration = (a: Toleration, b: Toleration) =>
  (a.key ?? '') === (b.key ?? '') &&
  (a.operator ?? '') === (b.operator ?? '') &&
  (a.value ?? '') === (b.value ?? '') &&
  (a.effect ?? '') === (b.effect ?? '');

/**
 * The spec's tolerations with each automatic one added, or replacing a matching one (so a user's
 * not-ready toleration with tolerationSeconds loses its seconds, as upstream's AddOrUpdateTolerationInPodSpec).
 *
 * @param spec the pod spec (not modified)
 * @returns the new tolerations list
 */
export function daemonPodTolerations(spec: PodSpec): Toleration[] {
  const out = [...(spec.tolerations ?? [])];
  for (const t of automaticDaemonTolerations(spec)) {
    const i = out.findIndex((x) => sameToleration(x, t));
    if (i >= 0) out[i] = t;
    else out.push(t);
  }
  return out;
}
