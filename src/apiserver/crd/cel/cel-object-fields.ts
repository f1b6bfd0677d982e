// The fields CEL sees on an object node of a CRD schema: declared properties by their escaped names, plus apiVersion, kind and metadata.name/generateName at a resource root.
import { isJsonObject, type JSONSchemaProps } from '../json-schema-props.ts';
import { escapePropertyName } from './escape-property-name.ts';

const STRING: JSONSchemaProps = { type: 'string' };
const META: JSONSchemaProps = { type: 'object', properties: { name: STRING, generateName: STRING } };

/** One field of an object node: its name in the object, its name in CEL, and its schema. */
export interface CelObjectField {
  name: string;
  schema: JSONSchemaProps;
}

/**
 * How CEL sees a schema node: `object` (a typed object with fields by CEL name; with
 * preserve-unknown-fields its other fields count in equality but cannot be named), `map` (string keys,
 * values of one schema), `list`, `scalar` (string, integer, number, boolean; strings of format date or
 * date-time as timestamps, duration as durations, byte as bytes), `dyn` (int-or-string) or `none`
 * (no type, or a list or map of such: rules cannot name it, as upstream).
 */
export type CelShape =
  | { kind: 'object'; fields: Map<string, CelObjectField>; preserveUnknown: boolean }
  | { kind: 'map'; values: JSONSchemaProps | undefined }
  | { kind: 'list'; items: JSONSchemaProps | undefined }
  | { kind: 'scalar'; type: 'string' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'duration' | 'bytes' }
  | { kind: 'dyn' }
  | { kind: 'none' };

/** String formats CEL sees as other types, as upstream: date and date-time as timestamps, duration, byte as bytes. */
const STRING_FORMATS: Record<string, 'timestamp' | 'duration' | 'bytes'> = {
  date: 'timestamp',
  'date-time': 'timestamp',
  duration: 'duration',
  byte: 'bytes',
};

const shapes = new WeakMap<JSONSchemaProps, { root?: CelShape; inner?: CelShape }>();

function computeShape(s: JSONSchemaProps, root: boolean): CelShape {
  if (s['x-kubernetes-int-or-string']) return { kind: 'dyn' };
  switch (s.type) {
    case 'string':
      return { kind: 'scalar', type: STRING_FORMATS[s.format ?? ''] ?? 'string' };
    case 'integer':
    case 'number':
    case 'boolean':
      return { kind: 'scalar', type: s.type };
    case 'array':
      return celShapeOf(s.items).kind === 'none' ? { kind: 'none' } : { kind: 'list', items: s.items };
    case 'object': {
      const embedded = root || s['x-kubernetes-embedded-resource'] === true;
      if (s.additionalProperties !== undefined && s.additionalProperties !== false && !s.properties) {
        const values = isJsonObject(s.additionalProperties) ? s.additionalProperties : undefined;
        return celShapeOf(values).kind === 'none' ? { kind: 'none' } : { kind: 'map', values };
      }
      const fields = new Map<string, CelObjectField>();
      const all: Record<string, JSONSchemaProps> = {
        ...(embedded ? { apiVersion: STRING, kind: STRING } : {}),
        ...s.properties,
        ...(embedded ? { metadata: META } : {}),
      };
      for (const [name, schema] of Object.entries(all)) {
        const celName = escapePropertyName(name);
        if (celName) fields.set(celName, { name, schema });
      }
      return { kind: 'object', fields, preserveUnknown: s['x-kubernetes-preserve-unknown-fields'] === true };
    }
    default:
      // no type: a value of any shape, which rules cannot name (only int-or-string is dynamic)
      return { kind: 'none' };
  }
}

/**
 * The CEL shape of a schema node (memoized per node).
 * @param s the schema node (undefined: anything)
 * @param root whether the node is a resource's root (apiVersion, kind and metadata are added)
 */
export function celShapeOf(s: JSONSchemaProps | undefined, root = false): CelShape {
  if (!s) return { kind: 'none' };
  const memo = shapes.get(s) ?? {};
  shapes.set(s, memo);
  const key = root ? 'root' : 'inner';
  const shape = memo[key] ?? computeShape(s, root);
  memo[key] = shape;
  return shape;
}
