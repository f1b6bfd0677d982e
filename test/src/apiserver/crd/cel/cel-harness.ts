// Test helpers: a schema of numbered fields (val1, val2, ...) and one rule run on it, as upstream's validation tests build them.
import type { StatusCause } from '../../../../../src/apiserver/api-status.ts';
import { compileSchemaRules } from '../../../../../src/apiserver/crd/cel/compile-schema-rules.ts';
import { validateCelRules } from '../../../../../src/apiserver/crd/cel/validate-cel-rules.ts';
import type { ValidationRule } from '../../../../../src/apiserver/crd/cel/validation-rule.ts';
import type { JSONSchemaProps } from '../../../../../src/apiserver/crd/json-schema-props.ts';

/** `{val1: a, val2: b, ...}` */
export const objs = (...values: unknown[]): Record<string, unknown> =>
  Object.fromEntries(values.map((v, i) => [`val${i + 1}`, v]));

/** An object schema with `val1: a, val2: b, ...` */
export const schemas = (...types: JSONSchemaProps[]): JSONSchemaProps => ({
  type: 'object',
  properties: Object.fromEntries(types.map((t, i) => [`val${i + 1}`, t])),
});

export const S: JSONSchemaProps = { type: 'string' };
export const I: JSONSchemaProps = { type: 'integer' };
export const N: JSONSchemaProps = { type: 'number' };
export const B: JSONSchemaProps = { type: 'boolean' };
export const INT_OR_STRING: JSONSchemaProps = { 'x-kubernetes-int-or-string': true };
export const listOf = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'array',
  items,
  ...extra,
});
export const mapOf = (values: JSONSchemaProps): JSONSchemaProps => ({
  type: 'object',
  additionalProperties: values,
});
export const objectOf = (
  properties: Record<string, JSONSchemaProps>,
  extra: JSONSchemaProps = {},
): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...extra,
});

/** The schema with the rules put on its root node. */
export const withRules = (schema: JSONSchemaProps, ...rules: ValidationRule[]): JSONSchemaProps => ({
  ...schema,
  'x-kubernetes-validations': rules,
});

/**
 * Compiles the rule on the schema's root and runs it on `obj` (and `old`):
 * `compile: <messages>` when it does not compile, else the causes as `field: message`.
 */
export function outcome(
  schema: JSONSchemaProps,
  obj: unknown,
  rule: string | ValidationRule,
  old?: unknown,
): string[] {
  const compiled = compileSchemaRules(withRules(schema, typeof rule === 'string' ? { rule } : rule));
  if (compiled.problems.length) return compiled.problems.map((p) => `compile: ${p.message}`);
  return validateCelRules(compiled, obj, old).map(shown);
}

/** A cause as kubectl shows it: `field: message`. */
export const shown = (c: StatusCause): string => `${c.field}: ${c.message}`;
