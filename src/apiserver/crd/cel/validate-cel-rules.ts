// Runs a CRD version's compiled CEL rules on a custom resource (and its old version on update), as kube-apiserver does.
import { Optional } from '@marcbachmann/cel-js';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from '../field-error.ts';
import { isJsonObject, type JSONSchemaProps } from '../json-schema-props.ts';
import { jsonEqual } from '../validate-custom-resource.ts';
import type { CompiledRule, CompiledSchemaRules, RuleNode } from './compile-schema-rules.ts';
import { toCelValue } from './to-cel-value.ts';

/** The path a nil field.Path prints as: where errors of rules on the resource root are reported. */
const ROOT = '<nil>';

function ruleText(rule: CompiledRule): string {
  return (rule.source.message?.trim() || rule.source.rule?.trim()) ?? '';
}

function messageOf(rule: CompiledRule): string {
  const message = rule.source.message?.trim();
  return message || `failed rule: ${ruleText(rule)}`;
}

/** Upstream's wording of an evaluation error: the evaluator's message in cel-go's words, lower-cased. */
function evaluationError(err: unknown, rule: CompiledRule): string {
  const first = String((err as { message?: unknown }).message ?? err).split('\n')[0]!;
  const text = first
    .replace(/^No such key: index out of bounds, index (-?\d+).*$/, 'index out of bounds: $1')
    .replace(/^No such key: /, 'no such key: ');
  if (/^no such overload|^found no matching overload/.test(text))
    return `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(rule)}`;
  return `${text} evaluating rule: ${ruleText(rule)}`;
}

function detailOf(rule: CompiledRule, activation: Record<string, unknown>): string {
  if (!rule.messageProgram) return messageOf(rule);
  try {
    const m = rule.messageProgram(activation);
    if (typeof m === 'string' && m.trim() && !/\n/.test(m.trim())) return m.trim();
  } catch {
    // as upstream: a failing messageExpression falls back to the message
  }
  return messageOf(rule);
}

function causeFor(reason: string | undefined, path: string, type: string, detail: string): StatusCause {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(path, detail);
    case 'FieldValueRequired':
      return fieldError.required(path, detail);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(path, type);
    default:
      return fieldError.invalid(path, type, detail);
  }
}

function joinPath(path: string, suffix: string): string {
  if (!path) return suffix;
  return suffix.startsWith('[') ? `${path}${suffix}` : `${path}.${suffix}`;
}

/** A map list's old item with the same key values as `item`, if any. */
function correlatedItem(schema: JSONSchemaProps, item: unknown, old: unknown[] | undefined): unknown {
  if (!old || schema['x-kubernetes-list-type'] !== 'map' || !isJsonObject(item)) return undefined;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  return old.find((o) => isJsonObject(o) && keys.every((k) => jsonEqual(o[k], item[k])));
}

class Run {
  readonly causes: StatusCause[] = [];

  node(
    n: RuleNode,
    value: unknown,
    before: unknown,
    path: string,
    root: boolean,
    parentUnchanged: boolean,
  ): void {
    if (value === null || value === undefined) return;
    const old = before === null ? undefined : before; // a null old value is no old value
    const unchanged = old !== undefined ? jsonEqual(value, old) : parentUnchanged;
    if (n.rules.length) this.rules(n, value, old, path, root, unchanged);
    for (const sub of n.allOf) this.node(sub, value, old, path, root, unchanged);
    if (Array.isArray(value) && n.items) {
      const oldList = Array.isArray(old) ? old : undefined;
      value.forEach((item, i) => {
        this.node(n.items!, item, correlatedItem(n.schema, item, oldList), `${path}[${i}]`, false, unchanged);
      });
    } else if (isJsonObject(value)) {
      const oldMap = isJsonObject(old) ? old : undefined;
      for (const [k, v] of Object.entries(value)) {
        const below = n.properties.get(k);
        if (below) this.node(below, v, oldMap?.[k], path ? `${path}.${k}` : k, false, unchanged);
        else if (n.additionalProperties && !n.schema.properties)
          this.node(n.additionalProperties, v, oldMap?.[k], `${path}[${k}]`, false, unchanged);
      }
    }
  }

  private rules(
    n: RuleNode,
    value: unknown,
    old: unknown,
    path: string,
    root: boolean,
    unchanged: boolean,
  ): void {
    const type = n.schema.type ?? (root ? 'object' : '');
    const self = toCelValue(value, n.schema, root);
    const oldSelf = old === undefined ? undefined : toCelValue(old, n.schema, root);
    for (const rule of n.rules) {
      const at = path || ROOT;
      if (rule.error) {
        this.causes.push(fieldError.invalid(at, type, `rule compile error: ${rule.error}`));
        continue;
      }
      if (!rule.program) continue;
      if (rule.usesOldSelf && oldSelf === undefined && !rule.optionalOldSelf) continue;
      const activation = {
        self,
        oldSelf: rule.optionalOldSelf
          ? oldSelf === undefined
            ? Optional.none()
            : Optional.of(oldSelf)
          : oldSelf,
      };
      let result: unknown;
      try {
        result = rule.program(activation);
      } catch (err) {
        this.causes.push(fieldError.invalid(at, type, evaluationError(err, rule)));
        continue;
      }
      if (result === true) continue;
      // ratcheting: a rule that does not look at oldSelf does not fail a value left as it was
      if (!rule.usesOldSelf && unchanged) continue;
      const where = rule.fieldPath ? joinPath(path, rule.fieldPath) : at;
      this.causes.push(
        causeFor(rule.source.reason, where, type, detailOf(rule, { self, oldSelf: activation.oldSelf })),
      );
    }
  }
}

/**
 * Runs the rules of a schema on a value, as kube-apiserver's CEL validator does: each rule sees its
 * node's value as `self`; a transition rule (one naming `oldSelf`) runs on update only, with the
 * correlated old value (same property, same map key, same map-list item; items of other lists have
 * none), or always with `oldSelf` optional when `optionalOldSelf` is set; null values are not
 * checked. A false rule is a cause at the node's path (or its fieldPath), typed by `reason`
 * (Invalid by default, showing the node's type), worded by messageExpression, message or
 * `failed rule: <rule>`. Unchanged values pass rules that do not use oldSelf (ratcheting).
 * Cost budgets are not enforced.
 * @param compiled the schema's compiled rules
 * @param value the resource (or any value of the schema)
 * @param old its stored version on update
 * @returns the causes, empty when every rule holds
 */
export function validateCelRules(
  compiled: CompiledSchemaRules,
  value: unknown,
  old?: unknown,
): StatusCause[] {
  if (!compiled.root) return [];
  const run = new Run();
  run.node(compiled.root, value, old, '', true, false);
  return run.causes;
}
