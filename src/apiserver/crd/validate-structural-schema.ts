// The checks that make a CRD version's openAPIV3Schema structural, with upstream's field paths and messages.
import type { StatusCause } from '../api-status.ts';
import { applySchemaDefaults } from './apply-schema-defaults.ts';
import { fieldError } from './field-error.ts';
import { isJsonObject, type JSONSchemaProps } from './json-schema-props.ts';
import { pruneUnknownFields } from './prune-unknown-fields.ts';
import { compilePattern, jsonEqual, validateCustomResource } from './validate-custom-resource.ts';

type Level = 'root' | 'item' | 'field';

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/** Fields a node inside allOf/anyOf/oneOf/not may not set, each with the word upstream uses. */
const NESTED_FORBIDDEN: [keyof JSONSchemaProps, string][] = [
  ['type', 'must be empty to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

function isIntOrStringAnyOf(list: JSONSchemaProps[] | undefined): boolean {
  return (
    list?.length === 2 &&
    list[0]?.type === 'integer' &&
    list[1]?.type === 'string' &&
    Object.keys(list[0]).length === 1 &&
    Object.keys(list[1]).length === 1
  );
}

function nested(s: JSONSchemaProps | undefined, path: string, skipAnyOf: boolean, out: StatusCause[]): void {
  if (!s) return;
  for (const [key, why] of NESTED_FORBIDDEN) {
    const v = s[key];
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0) || v === '') continue;
    if (key === 'type' && skipAnyOf) continue;
    out.push(fieldError.forbidden(`${path}.${key}`, why));
  }
  if (s.properties?.metadata)
    out.push(
      fieldError.forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'),
    );
  for (const [k, v] of Object.entries(s.properties ?? {})) nested(v, `${path}.properties[${k}]`, false, out);
  nested(s.items, `${path}.items`, false, out);
  junctors(s, path, out);
}

function junctors(s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  const intOrString = isIntOrStringAnyOf(s.anyOf);
  s.anyOf?.forEach((x, i) => {
    nested(x, `${path}.anyOf[${i}]`, intOrString, out);
  });
  const allOfIntOrString = isIntOrStringAnyOf(s.allOf?.[0]?.anyOf);
  s.allOf?.forEach((x, i) => {
    if (i === 0 && allOfIntOrString) {
      x.anyOf?.forEach((y, j) => {
        nested(y, `${path}.allOf[0].anyOf[${j}]`, true, out);
      });
      const { anyOf: _skip, ...rest } = x;
      nested(rest, `${path}.allOf[0]`, false, out);
    } else nested(x, `${path}.allOf[${i}]`, false, out);
  });
  s.oneOf?.forEach((x, i) => {
    nested(x, `${path}.oneOf[${i}]`, false, out);
  });
  nested(s.not, `${path}.not`, false, out);
}

function metadataRules(
  m: JSONSchemaProps,
  level: Level,
  embedded: boolean,
  path: string,
  out: StatusCause[],
): void {
  if ((level === 'root' || embedded) && m.type !== 'object')
    out.push(fieldError.invalid(`${path}.type`, m.type ?? '', 'must be object'));
  if (level !== 'root') return;
  const { type: _t, properties, ...rest } = m;
  const extraProps = Object.keys(properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
  const extra = Object.keys(rest).filter((k) => k !== 'description');
  if (extraProps.length || extra.length)
    out.push(
      fieldError.forbidden(
        path,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
}

function node(s: JSONSchemaProps, level: Level, path: string, out: StatusCause[]): void {
  if (s.type !== undefined && !TYPES.includes(s.type))
    out.push(fieldError.notSupported(`${path}.type`, s.type, TYPES));
  if (s.type === 'array' && !s.items) out.push(fieldError.required(`${path}.items`, 'must be specified'));
  if (s.items) node(s.items, 'item', `${path}.items`, out);
  for (const [k, v] of Object.entries(s.properties ?? {})) node(v, 'field', `${path}.properties[${k}]`, out);
  if (s.additionalProperties !== undefined) {
    if (level === 'root')
      out.push(fieldError.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (
      Object.keys(s.properties ?? {}).length &&
      (s.additionalProperties === false || typeof s.additionalProperties === 'object')
    )
      out.push(
        fieldError.forbidden(
          `${path}.additionalProperties`,
          'additionalProperties and properties are mutual exclusive',
        ),
      );
    if (typeof s.additionalProperties === 'object')
      node(s.additionalProperties, 'field', `${path}.additionalProperties`, out);
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (preserve === false)
    out.push(
      fieldError.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'),
    );
  if (intOrString && preserve)
    out.push(
      fieldError.invalid(
        `${path}.x-kubernetes-preserve-unknown-fields`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  if (intOrString && embedded)
    out.push(
      fieldError.invalid(
        `${path}.x-kubernetes-embedded-resource`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  if (intOrString && s.type)
    out.push(
      fieldError.invalid(`${path}.type`, s.type, 'must be empty if x-kubernetes-int-or-string is true'),
    );
  junctors(s, path, out);
  if (s.pattern !== undefined && compilePattern(s.pattern) === null)
    out.push(fieldError.invalid(`${path}.pattern`, s.pattern, 'must be a valid regular expression'));
  if (s.uniqueItems === true)
    out.push(
      fieldError.forbidden(
        `${path}.uniqueItems`,
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  if (embedded && s.type !== 'object') {
    if (!s.type)
      out.push(
        fieldError.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'),
      );
    else
      out.push(
        fieldError.invalid(
          `${path}.type`,
          s.type,
          'must be object if x-kubernetes-embedded-resource is true',
        ),
      );
  } else if (!s.type && !intOrString && !preserve) {
    const why = {
      root: 'must not be empty at the root',
      item: 'must not be empty for specified array items',
      field: 'must not be empty for specified object fields',
    }[level];
    out.push(fieldError.required(`${path}.type`, why));
  }
  if (embedded && s.additionalProperties !== undefined)
    out.push(
      fieldError.forbidden(
        `${path}.additionalProperties`,
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  if (level === 'root' && s.type && s.type !== 'object')
    out.push(fieldError.invalid(`${path}.type`, s.type, 'must be object at the root'));
  const checkMeta = level === 'root' || embedded;
  for (const f of ['kind', 'apiVersion'] as const) {
    const p = s.properties?.[f];
    if (p && checkMeta && p.type !== 'string')
      out.push(fieldError.invalid(`${path}.properties[${f}].type`, p.type ?? '', 'must be string'));
  }
  if (s.properties?.metadata)
    metadataRules(s.properties.metadata, level, embedded, `${path}.properties[metadata]`, out);
  if (embedded && !preserve && !Object.keys(s.properties ?? {}).length)
    out.push(
      fieldError.required(
        `${path}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  if (
    s['x-kubernetes-list-type'] !== undefined &&
    !['atomic', 'set', 'map'].includes(s['x-kubernetes-list-type'])
  )
    out.push(
      fieldError.notSupported(`${path}.x-kubernetes-list-type`, s['x-kubernetes-list-type'], [
        'atomic',
        'set',
        'map',
      ]),
    );
  if (s['x-kubernetes-list-type'] === 'map' && !(s['x-kubernetes-list-map-keys'] ?? []).length)
    out.push(
      fieldError.required(
        `${path}.x-kubernetes-list-map-keys`,
        'must not be empty if x-kubernetes-list-type is map',
      ),
    );
  if (s.default !== undefined) defaultRules(s, path, out);
}

/** A default must validate against its own schema and survive pruning unchanged. */
function defaultRules(s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  const value = structuredClone(s.default);
  const errs = validateCustomResource(value, s, '');
  for (const e of errs) {
    const where = e.field ? `${path}.default.${e.field}` : `${path}.default`;
    out.push({ ...e, field: where });
  }
  if (isJsonObject(value) || Array.isArray(value)) {
    const copy = structuredClone(value);
    const pruned = pruneUnknownFields(copy, s, false);
    applySchemaDefaults(copy, s);
    if (pruned.length || !jsonEqual(copy, value))
      out.push(fieldError.invalid(`${path}.default`, s.default, 'must not have unknown fields'));
  }
}

/**
 * Checks that a schema is structural and within what the API server serves: every specified field
 * typed, `items` for arrays, no `additionalProperties` with `properties` or at the root, metadata
 * restricted to name and generateName, nothing but value validation inside the junctors, valid
 * patterns, defaults that validate. Causes are sorted as upstream sorts them.
 * @param schema the version's `openAPIV3Schema`
 * @param path where it sits, e.g. `spec.versions[0].schema.openAPIV3Schema`
 * @returns the causes, empty for a structural schema
 */
export function validateStructuralSchema(schema: JSONSchemaProps, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  node(schema, 'root', path, out);
  return out.sort((a, b) => {
    const x = `${a.field}: ${a.message}`;
    const y = `${b.field}: ${b.message}`;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
