// Rolling-update fenceposts: maxSurge and maxUnavailable resolved against replicas (int or percent, rounding as upstream), and the derived bounds.
import { InvalidInputError } from '../../errors.ts';
import {
  type Deployment,
  deploymentReplicas,
  type IntOrString,
  isRollingUpdate,
} from './deployment-types.ts';

const PERCENT = /^(-?\d+)%$/;

/**
 * An int-or-percent against a total (upstream's GetScaledValueFromIntOrPercent): an int as it is; `"N%"` as
 * N% of `total`, rounded up or down.
 *
 * @param field the field it came from, named in the error
 * @throws InvalidInputError when a string is not a percentage
 */
export function scaledValue(value: IntOrString, total: number, roundUp: boolean, field: string): number {
  if (typeof value === 'number') return value;
  const m = PERCENT.exec(value);
  if (!m)
    throw new InvalidInputError(
      'deployment',
      field,
      `invalid value for IntOrString: ${JSON.stringify(value)} is not a percentage`,
    );
  const scaled = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** The two fenceposts of a rolling update. */
export interface Fenceposts {
  surge: number;
  unavailable: number;
}

/**
 * maxSurge (percent rounded up) and maxUnavailable (percent rounded down) against `desired` replicas, absent
 * ones as 0; when both come to 0, maxUnavailable is 1 so a rollout can still move (upstream's ResolveFenceposts).
 *
 * @example
 * resolveFenceposts('25%', '25%', 10);   // → { surge: 3, unavailable: 2 }
 * resolveFenceposts('0%', '1%', 10);     // → { surge: 0, unavailable: 1 }
 * @throws InvalidInputError naming the field when one is not an int or a percentage
 */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): Fenceposts {
  const surge = scaledValue(maxSurge ?? 0, desired, true, 'spec.strategy.rollingUpdate.maxSurge');
  let unavailable = scaledValue(
    maxUnavailable ?? 0,
    desired,
    false,
    'spec.strategy.rollingUpdate.maxUnavailable',
  );
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** The rolling parameters with the API server's defaults for an absent rollingUpdate (25% and 25%). */
function fenceposts(d: Deployment): Fenceposts {
  const ru = d.spec.strategy?.rollingUpdate ?? { maxSurge: '25%', maxUnavailable: '25%' };
  try {
    return resolveFenceposts(ru.maxSurge, ru.maxUnavailable, deploymentReplicas(d));
  } catch {
    // validation refuses such values; upstream reads them as 0 here
    return { surge: 0, unavailable: 0 };
  }
}

/** The surge a rolling Deployment may take over its replicas; 0 for Recreate. */
export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? fenceposts(d).surge : 0;
}

/** The pods a rolling Deployment may have unavailable, at most its replicas; 0 for Recreate or 0 replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(fenceposts(d).unavailable, replicas);
}

/** replicas − maxUnavailable for a rolling Deployment; 0 for Recreate. */
export function minAvailable(d: Deployment): number {
  return isRollingUpdate(d) ? deploymentReplicas(d) - maxUnavailable(d) : 0;
}
