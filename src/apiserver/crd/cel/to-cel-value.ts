// A JSON value as the CEL runtime value a rule sees: integers as int (bigint), objects with escaped field names.
import { isJsonObject, type JSONSchemaProps } from '../json-schema-props.ts';
import { celShapeOf } from './cel-object-fields.ts';

function untyped(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(untyped);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untyped(v)]));
  return value ?? null;
}

/**
 * Converts a JSON value to the value CEL rules see, as the schema types it: `integer` as int,
 * `number` as double, an object node's declared properties under their escaped names (others are
 * not visible), a map's and a list's members by their schema; untyped parts (int-or-string,
 * preserved unknown fields) take integers as int and other numbers as double.
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
      for (const [celName, f] of shape.fields)
        if (value[f.name] !== undefined && value[f.name] !== null)
          out[celName] = toCelValue(value[f.name], f.schema);
      return out;
    }
    default:
      return untyped(value);
  }
}
