// A JSON merge patch (RFC 7386) that turns one JSON value into another: removed keys as null, arrays whole.
import { deepEqual } from '../../../operators/pod-config/deep-equal.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The merge patch from `from` to `to`: keys only in `from` become null, changed leaves and arrays are
 * sent whole, unchanged keys are left out; `undefined` counts as absent. Applying it to `from` gives `to`
 * (provided `to` holds no nulls, which merge patches cannot express).
 *
 * @param from the current object
 * @param to the wanted object
 * @returns the patch, or undefined when nothing changes
 */
export function mergePatchDiff(
  from: Record<string, unknown>,
  to: Record<string, unknown>,
): Record<string, Json> | undefined {
  const patch: Record<string, Json> = {};
  for (const key of Object.keys(from)) {
    if (from[key] !== undefined && (to[key] === undefined || !Object.hasOwn(to, key))) patch[key] = null;
  }
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const old = from[key];
    if (isObject(old) && isObject(value)) {
      const inner = mergePatchDiff(old, value);
      if (inner) patch[key] = inner;
    } else if (old === undefined || !deepEqual(old, value)) {
      patch[key] = JSON.parse(JSON.stringify(value)) as Json;
    }
  }
  return Object.keys(patch).length ? patch : undefined;
}
