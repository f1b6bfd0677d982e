// Validation of a custom resource against its CRD's structural schema, with upstream's field paths and messages.
import type { StatusCause } from '../api-status.ts';
import { childPath, fieldError } from './field-error.ts';
import { isJsonObject, type JSONSchemaProps } from './json-schema-props.ts';
import { formatProblem } from './schema-formats.ts';

/** The OpenAPI type name of a JSON value: null, array, object, string, boolean, integer or number. */
export function jsonTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

const regexCache = new Map<string, RegExp | null>();

/** The pattern as a JavaScript RegExp, or null when it does not compile. */
export function compilePattern(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = null;
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

function typeMatches(type: string, actual: string): boolean {
  return type === actual || (type === 'number' && actual === 'integer');
}

/** How the openapi validator names a path in its messages ("." at the root). */
const named = (path: string) => path || '.';

function walk(value: unknown, s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  const actual = jsonTypeOf(value);
  if (value === null || value === undefined) {
    if (s.nullable) return;
    const type = s['x-kubernetes-int-or-string'] ? 'integer,string' : s.type;
    if (type)
      out.push(
        fieldError.typeInvalid(path, 'null', `${named(path)} in body must be of type ${type}: "null"`),
      );
    return;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (actual !== 'integer' && actual !== 'string') {
      out.push(
        fieldError.typeInvalid(
          path,
          actual,
          `${named(path)} in body must be of type integer,string: ${JSON.stringify(actual)}`,
        ),
      );
      return;
    }
  } else if (s.type && !typeMatches(s.type, actual)) {
    out.push(
      fieldError.typeInvalid(
        path,
        actual,
        `${named(path)} in body must be of type ${s.type}: ${JSON.stringify(actual)}`,
      ),
    );
    return;
  }
  if (s.enum && !s.enum.some((e) => jsonEqual(e, value))) {
    out.push(
      fieldError.notSupported(
        path,
        value,
        s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))),
      ),
    );
  }
  if (typeof value === 'number') numberRules(value, s, path, out);
  if (typeof value === 'string') stringRules(value, s, path, out);
  if (Array.isArray(value)) arrayRules(value, s, path, out);
  if (isJsonObject(value)) objectRules(value, s, path, out);
  junctors(value, s, path, out);
}

function numberRules(value: number, s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  if (s.maximum !== undefined && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum)) {
    const rel = s.exclusiveMaximum ? 'less than' : 'less than or equal to';
    out.push(fieldError.invalid(path, value, `${named(path)} in body should be ${rel} ${s.maximum}`));
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum)) {
    const rel = s.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
    out.push(fieldError.invalid(path, value, `${named(path)} in body should be ${rel} ${s.minimum}`));
  }
  if (s.multipleOf !== undefined && s.multipleOf > 0) {
    const q = value / s.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9)
      out.push(
        fieldError.invalid(path, value, `${named(path)} in body should be a multiple of ${s.multipleOf}`),
      );
  }
}

function stringRules(value: string, s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  const length = [...value].length;
  if (s.maxLength !== undefined && length > s.maxLength) out.push(fieldError.tooLong(path, s.maxLength));
  if (s.minLength !== undefined && length < s.minLength)
    out.push(
      fieldError.invalid(path, value, `${named(path)} in body should be at least ${s.minLength} chars long`),
    );
  if (s.pattern !== undefined) {
    const re = compilePattern(s.pattern);
    if (re && !re.test(value))
      out.push(fieldError.invalid(path, value, `${named(path)} in body should match '${s.pattern}'`));
  }
  if (s.format && formatProblem(s.format, value))
    out.push(
      fieldError.invalid(
        path,
        value,
        `${named(path)} in body must be of type ${s.format}: ${JSON.stringify(value)}`,
      ),
    );
}

/** maxItems/minItems of an array, maxProperties/minProperties of an object. */
function countRules(
  count: number,
  max: number | undefined,
  min: number | undefined,
  unit: 'items' | 'properties',
  path: string,
  out: StatusCause[],
): void {
  if (max !== undefined && count > max) out.push(fieldError.tooMany(path, count, max));
  if (min !== undefined && count < min)
    out.push(fieldError.invalid(path, count, `${named(path)} in body should have at least ${min} ${unit}`));
}

/** `x-kubernetes-list-type` set (no repeated item) and map (every key present, no repeated key tuple). */
function listTypeRules(value: unknown[], s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  const type = s['x-kubernetes-list-type'];
  if (type !== 'set' && type !== 'map') return;
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const seen: unknown[] = [];
  value.forEach((item, i) => {
    let identity: unknown = item;
    if (type === 'map') {
      if (!isJsonObject(item)) return;
      const missing = keys.filter((k) => !(k in item) && s.items?.properties?.[k]?.default === undefined);
      for (const k of missing) out.push(fieldError.required(`${path}[${i}].${k}`));
      if (missing.length) return;
      identity = Object.fromEntries(keys.map((k) => [k, item[k] ?? s.items?.properties?.[k]?.default]));
    }
    if (seen.some((x) => jsonEqual(x, identity))) out.push(fieldError.duplicate(`${path}[${i}]`, identity));
    else seen.push(identity);
  });
}

function arrayRules(value: unknown[], s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  countRules(value.length, s.maxItems, s.minItems, 'items', path, out);
  if (s.uniqueItems) {
    for (let i = 1; i < value.length; i++)
      if (value.slice(0, i).some((x) => jsonEqual(x, value[i]))) {
        out.push(fieldError.duplicate(`${path}[${i}]`, value[i]));
        break;
      }
  }
  listTypeRules(value, s, path, out);
  if (s.items)
    value.forEach((item, i) => {
      walk(item, s.items!, `${path}[${i}]`, out);
    });
}

function objectRules(
  value: Record<string, unknown>,
  s: JSONSchemaProps,
  path: string,
  out: StatusCause[],
): void {
  const keys = Object.keys(value);
  countRules(keys.length, s.maxProperties, s.minProperties, 'properties', path, out);
  for (const r of s.required ?? []) if (!(r in value)) out.push(fieldError.required(childPath(path, r)));
  if (s['x-kubernetes-embedded-resource']) {
    for (const f of ['apiVersion', 'kind']) {
      const v = value[f];
      if (v === undefined || v === '') out.push(fieldError.required(childPath(path, f), 'must not be empty'));
      else if (typeof v !== 'string') out.push(fieldError.invalid(childPath(path, f), v, 'must be a string'));
    }
  }
  for (const key of keys) {
    if (value[key] === undefined) continue; // absent, as in JSON
    const prop = s.properties?.[key];
    if (prop) walk(value[key], prop, childPath(path, key), out);
    else if (typeof s.additionalProperties === 'object')
      walk(value[key], s.additionalProperties, childPath(path, key), out);
  }
}

function junctors(value: unknown, s: JSONSchemaProps, path: string, out: StatusCause[]): void {
  for (const sub of s.allOf ?? []) walk(value, sub, path, out);
  const passes = (sub: JSONSchemaProps) => {
    const errs: StatusCause[] = [];
    walk(value, sub, path, errs);
    return errs.length === 0;
  };
  if (s.anyOf?.length && !s['x-kubernetes-int-or-string'] && !s.anyOf.some(passes))
    out.push(
      fieldError.invalid(path, value, `${named(path)} in body must validate at least one schema (anyOf)`),
    );
  if (s.oneOf?.length) {
    const n = s.oneOf.filter(passes).length;
    if (n !== 1)
      out.push(
        fieldError.invalid(
          path,
          value,
          `${named(path)} in body must validate one and only one schema (oneOf)`,
        ),
      );
  }
  if (s.not && passes(s.not))
    out.push(fieldError.invalid(path, value, `${named(path)} in body must not validate the schema (not)`));
}

/**
 * Validates a custom resource (or any value) against a CRD version's schema as kube-apiserver's
 * openapi validator does: a type mismatch stops the walk below that field; every other rule
 * reports on its own. `x-kubernetes-validations` (CEL) are run by validateCelRules (cel/).
 *
 * Example: `{spec: {replicas: "3"}}` against `spec.replicas: {type: integer}` gives the cause
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 * @param value the object (its metadata is checked only where the schema restricts it)
 * @param schema the version's `openAPIV3Schema`
 * @param path the path of `value` ("" for a whole resource)
 * @returns the causes, empty when the value is valid
 */
export function validateCustomResource(value: unknown, schema: JSONSchemaProps, path = ''): StatusCause[] {
  const out: StatusCause[] = [];
  walk(value, schema, path, out);
  return out;
}
