// Structural equality of JSON-like values, as the kubelet compares pod specs, labels and statuses.

/**
 * True when `a` and `b` are structurally equal JSON-like values. A key whose value is `undefined`
 * counts as absent; `null`, a missing value and an empty object or array are all different, as
 * in Go's reflect.DeepEqual on decoded objects.
 * @param a one value
 * @param b the other value
 * @returns whether they are equal
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  const aIsArray = Array.isArray(a);
  if (aIsArray !== Array.isArray(b)) return false;
  if (aIsArray) {
    const bArray = b as unknown[];
    if (a.length !== bArray.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bArray[i])) return false;
    return true;
  }
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  let aKeys = 0;
  for (const key in aRecord) {
    if (!Object.hasOwn(aRecord, key) || aRecord[key] === undefined) continue;
    aKeys++;
    if (!Object.hasOwn(bRecord, key) || !deepEqual(aRecord[key], bRecord[key])) return false;
  }
  let bKeys = 0;
  for (const key in bRecord) {
    if (Object.hasOwn(bRecord, key) && bRecord[key] !== undefined) bKeys++;
  }
  return aKeys === bKeys;
}
