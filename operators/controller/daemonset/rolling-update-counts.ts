// rollingUpdateCounts: a daemon set's desired node count and its maxSurge and maxUnavailable resolved against it, as upstream's updatedDesiredNodeCounts.
import type { Node } from '../../api/core-v1.ts';
import { InvalidInputError } from '../../errors.ts';
import type { DaemonSet, IntOrPercent } from './daemon-set-types.ts';
import { nodeShouldRunDaemonPod } from './node-should-run-daemon-pod.ts';

const PERCENT = /^(\d+)%$/;

/** An int-or-percent of `total`, rounded up (upstream's GetScaledValueFromIntOrPercent with roundUp). */
function scaledUp(value: IntOrPercent, total: number, field: string): number {
  if (typeof value === 'number') return value;
  const m = PERCENT.exec(value);
  if (!m)
    throw new InvalidInputError(
      'daemonset',
      field,
      `invalid value for IntOrString: ${JSON.stringify(value)} is not a percentage`,
    );
  return Math.ceil((Number(m[1]) * total) / 100);
}

/**
 * How many nodes should run a pod, and the two limits: maxUnavailable (default 1) and maxSurge (default 0)
 * scaled against that count, rounding up; when both come out 0 with nodes to run on, maxUnavailable is 1.
 *
 * @throws InvalidInputError naming spec.updateStrategy.rollingUpdate.<field> when a string is not a percentage
 */
export function rollingUpdateCounts(
  ds: DaemonSet,
  nodes: readonly Node[],
): { desired: number; maxSurge: number; maxUnavailable: number } {
  let desired = 0;
  for (const n of nodes) if (nodeShouldRunDaemonPod(n, ds).shouldRun) desired++;
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  const path = 'spec.updateStrategy.rollingUpdate';
  let maxUnavailable = scaledUp(ru?.maxUnavailable ?? 1, desired, `${path}.maxUnavailable`);
  const maxSurge = scaledUp(ru?.maxSurge ?? 0, desired, `${path}.maxSurge`);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { desired, maxSurge, maxUnavailable };
}
