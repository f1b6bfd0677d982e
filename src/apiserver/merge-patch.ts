// JSON merge patch (RFC 7386): objects merge key by key, null removes a key, anything else replaces.

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Applies an RFC 7386 merge patch to `target` and returns the result; neither input is mutated.
 *
 * Example: `mergePatch({a: 1, b: {c: 2}}, {b: {c: null, d: 3}})` is `{a: 1, b: {d: 3}}`.
 * @param target the document being patched
 * @param patch the merge patch
 * @returns the patched document
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}
