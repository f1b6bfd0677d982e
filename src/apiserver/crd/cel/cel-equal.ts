// Equality of CEL runtime values as CEL defines it: numbers compare across int and double, lists and maps deeply.
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { Quantity } from './quantity-library.ts';
import { Url } from './url-library.ts';

function plainEntries(v: unknown): Map<unknown, unknown> | undefined {
  if (v instanceof Map) return v;
  if (v === null || typeof v !== 'object') return undefined;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null ? new Map(Object.entries(v)) : undefined;
}

/**
 * True when two CEL runtime values are equal: bigint and number by value, strings, booleans, null,
 * timestamps (Date), durations, bytes, quantities, URLs, lists in order, maps and objects by key.
 */
export function celEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = typeof a === 'bigint' || typeof a === 'number';
  const nb = typeof b === 'bigint' || typeof b === 'number';
  if (na && nb) return typeof a === typeof b ? a === b : Number(a) === Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Duration && b instanceof Duration) return a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => celEqual(x, b[i]));
  if (a instanceof Quantity && b instanceof Quantity) return a.nanos === b.nanos;
  if (a instanceof Url && b instanceof Url) return a.url.href === b.url.href;
  const ea = plainEntries(a);
  const eb = plainEntries(b);
  if (!ea || !eb || ea.size !== eb.size) return false;
  for (const [k, v] of ea) if (!eb.has(k) || !celEqual(v, eb.get(k))) return false;
  return true;
}
