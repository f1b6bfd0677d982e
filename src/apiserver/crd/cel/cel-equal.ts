// Equality of CEL runtime values as CEL defines it: numbers compare across int and double, lists and maps deeply.

/** True when two CEL runtime values (bigint, number, string, boolean, null, arrays, plain objects, Maps) are equal. */
export function celEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = typeof a === 'bigint' || typeof a === 'number';
  const nb = typeof b === 'bigint' || typeof b === 'number';
  if (na && nb) return typeof a === typeof b ? a === b : Number(a) === Number(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => celEqual(x, b[i]));
  const ea = entriesOf(a);
  const eb = entriesOf(b);
  if (!ea || !eb || ea.size !== eb.size) return false;
  for (const [k, v] of ea) if (!eb.has(k) || !celEqual(v, eb.get(k))) return false;
  return true;
}

function entriesOf(v: unknown): Map<unknown, unknown> | undefined {
  if (v instanceof Map) return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array))
    return new Map(Object.entries(v));
  return undefined;
}
