// validateProbe: a liveness, readiness or startup probe as upstream validates it (one handler, non-negative timings).
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { validateHandler } from './handler-validation.ts';
import { shape } from './json-shape.ts';

const TIMINGS = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
];

/**
 * A probe: exactly one handler, non-negative timings and thresholds, a positive probe-level
 * terminationGracePeriodSeconds; liveness and startup probes succeed after exactly one success.
 * @param probe the probe object (absent probes are not passed here)
 * @param path its field path, e.g. `spec.containers[0].livenessProbe`
 * @param kind which probe: a readiness probe may succeed after several successes
 * @returns the causes, empty when valid
 */
export function validateProbe(
  probe: unknown,
  path: string,
  kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe',
): StatusCause[] {
  const p = shape.obj(probe);
  const out = validateHandler(p, path, undefined);
  for (const field of TIMINGS) out.push(...fieldError.nonNegative(`${path}.${field}`, p[field]));
  const grace = shape.num(p.terminationGracePeriodSeconds);
  if (kind === 'readinessProbe' && grace !== undefined)
    out.push(
      fieldError.invalid(
        `${path}.terminationGracePeriodSeconds`,
        grace,
        'must not be set for readinessProbes',
      ),
    );
  else if (grace !== undefined && grace <= 0)
    out.push(fieldError.invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  if (kind !== 'readinessProbe' && shape.defaulted(p.successThreshold, 1, true) !== 1)
    out.push(fieldError.invalid(`${path}.successThreshold`, p.successThreshold, 'must be 1'));
  return out;
}
