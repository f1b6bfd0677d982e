// A JSON value as the CEL runtime value a rule sees: integers as int (bigint), objects with escaped field names.
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { isJsonObject, type JSONSchemaProps } from '../json-schema-props.ts';
import { celShapeOf } from './cel-object-fields.ts';

const DURATION_UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** A Go duration string ("1h2m3.5s", "-300ms", "0") as a CEL duration, or undefined when it does not parse. */
function duration(text: string): Duration | undefined {
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(text);
  if (!m && text !== '0' && text !== '+0' && text !== '-0') return undefined;
  let nanos = 0n;
  for (const [, whole = '', fraction = '', unit = ''] of text.matchAll(
    /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/g,
  )) {
    const scale = DURATION_UNITS[unit]!;
    nanos += BigInt(whole || '0') * scale;
    if (fraction) nanos += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
  }
  if (m?.[1] === '-') nanos = -nanos;
  return new Duration(nanos / 1_000_000_000n, Number(nanos % 1_000_000_000n));
}

const FORMATTED: Record<string, (text: string) => unknown> = {
  timestamp: (text) => {
    const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
    return Number.isNaN(date.getTime()) ? undefined : date;
  },
  duration,
  bytes: (text) => new Uint8Array(Buffer.from(text, 'base64')),
};

function untyped(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(untyped);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untyped(v)]));
  return value ?? null;
}

/**
 * Converts a JSON value to the value CEL rules see, as the schema types it: `integer` as int,
 * `number` as double, strings of format date/date-time as timestamps, duration as durations and
 * byte as bytes (kept as strings when they do not parse); an object node's declared properties
 * under their escaped names, null ones left out (as absent), and with preserve-unknown-fields its
 * other fields too (they count in equality; the type checker keeps rules from naming them); a map's
 * and a list's members by their schema; untyped parts take integers as int, other numbers as double.
 * @param value the JSON value (null and undefined become null)
 * @param s its schema node
 * @param root whether the value is a whole resource (only metadata.name and generateName are kept)
 */
export function toCelValue(value: unknown, s: JSONSchemaProps | undefined, root = false): unknown {
  if (value === null || value === undefined) return null;
  const shape = celShapeOf(s, root);
  switch (shape.kind) {
    case 'scalar':
      if (shape.type === 'integer' && typeof value === 'number' && Number.isInteger(value))
        return BigInt(value);
      if (typeof value === 'string' && shape.type in FORMATTED) return FORMATTED[shape.type]!(value) ?? value;
      return value;
    case 'list':
      return Array.isArray(value) ? value.map((x) => toCelValue(x, shape.items)) : untyped(value);
    case 'map':
      return isJsonObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCelValue(v, shape.values)]))
        : untyped(value);
    case 'object': {
      if (!isJsonObject(value)) return untyped(value);
      const out: Record<string, unknown> = {};
      if (shape.preserveUnknown)
        for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = untyped(v);
      for (const [celName, f] of shape.fields) {
        if (celName !== f.name) delete out[f.name];
        if (value[f.name] !== undefined && value[f.name] !== null)
          out[celName] = toCelValue(value[f.name], f.schema);
      }
      return out;
    }
    default:
      return untyped(value);
  }
}
