// Validation of objects the API server accepts: names, labels, required fields, per-kind rules.
import type { KubeObject } from '../../operators/types.ts';
import type { StatusCause } from './api-status.ts';
import { fieldAt, type NameRule, type ResourceDef } from './resource-table.ts';

const LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_RE = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Why a name breaks its rule, or undefined when it is valid. */
export function nameProblem(rule: NameRule, name: string): string | undefined {
  switch (rule) {
    case 'label':
      if (name.length > 63) return 'must be no more than 63 characters';
      return LABEL_RE.test(name)
        ? undefined
        : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
    case 'dns1035':
      if (name.length > 63) return 'must be no more than 63 characters';
      return DNS1035_RE.test(name)
        ? undefined
        : "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    case 'subdomain':
      if (name.length > 253) return 'must be no more than 253 characters';
      return SUBDOMAIN_RE.test(name)
        ? undefined
        : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    case 'path-segment':
      return name === '.' || name === '..' || /[/%]/.test(name)
        ? `may not be '.', '..' or contain '/' or '%'`
        : undefined;
  }
}

function qualifiedNameProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : '';
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (slash >= 0 && (prefix.length === 0 || prefix.length > 253 || !SUBDOMAIN_RE.test(prefix))) {
    return 'prefix part must be a lowercase RFC 1123 subdomain';
  }
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME_RE.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', must start and end with an alphanumeric character, and be at most 63 characters";
  }
  return undefined;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

const required = (field: string): StatusCause => ({
  type: 'FieldValueRequired',
  message: 'Required value',
  field,
});
const bad = (field: string, value: unknown, why: string): StatusCause => ({
  type: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
  field,
});

/**
 * A metav1.LabelSelector as upstream validates it: matchLabels keys and values, and each requirement's
 * operator (In and NotIn need values, Exists and DoesNotExist take none, nothing else is an operator).
 * A plain map (a Service's or a ReplicationController's selector) has no matchExpressions and is skipped.
 */
function labelSelectorCauses(selector: Record<string, unknown>, path: string, causes: StatusCause[]): void {
  const expressions = selector.matchExpressions;
  if (!Array.isArray(expressions)) return;
  for (const [i, e] of (expressions as Record<string, unknown>[]).entries()) {
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(e?.values) ? e.values : [];
    const op = e?.operator;
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) {
        causes.push({
          type: 'FieldValueRequired',
          message: "Required value: must be specified when `operator` is 'In' or 'NotIn'",
          field: `${at}.values`,
        });
      }
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0) {
        causes.push({
          type: 'FieldValueForbidden',
          message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          field: `${at}.values`,
        });
      }
    } else {
      causes.push(bad(`${at}.operator`, op, 'not a valid selector operator'));
    }
    if (typeof e?.key !== 'string' || e.key === '') causes.push(required(`${at}.key`));
    else if (qualifiedNameProblem(e.key)) causes.push(bad(`${at}.key`, e.key, qualifiedNameProblem(e.key)!));
  }
}

/** Per-kind rules beyond the table's required paths. */
function kindRules(def: ResourceDef, object: KubeObject, causes: StatusCause[]): void {
  if (
    def.resource === 'pods' ||
    def.resource === 'jobs' ||
    def.kind === 'Deployment' ||
    def.kind === 'ReplicaSet' ||
    def.kind === 'StatefulSet' ||
    def.kind === 'DaemonSet'
  ) {
    const base = def.resource === 'pods' ? 'spec' : 'spec.template.spec';
    const containers = fieldAt(object, `${base}.containers`);
    if (
      def.resource !== 'pods' &&
      fieldAt(object, 'spec.template') !== undefined &&
      (!Array.isArray(containers) || containers.length === 0)
    ) {
      causes.push(required(`${base}.containers`));
    }
    for (const [list, items] of [
      ['containers', containers],
      ['initContainers', fieldAt(object, `${base}.initContainers`)],
    ] as const) {
      if (!Array.isArray(items)) continue;
      const seen = new Set<string>();
      items.forEach((c: Record<string, unknown>, i) => {
        const path = `${base}.${list}[${i}]`;
        if (typeof c?.name !== 'string' || c.name === '') causes.push(required(`${path}.name`));
        else if (nameProblem('label', c.name))
          causes.push(bad(`${path}.name`, c.name, nameProblem('label', c.name)!));
        else if (seen.has(c.name))
          causes.push({
            type: 'FieldValueDuplicate',
            message: `Duplicate value: "${c.name}"`,
            field: `${path}.name`,
          });
        else seen.add(c.name);
        if (typeof c?.image !== 'string' || c.image.trim() === '') causes.push(required(`${path}.image`));
      });
    }
  }
  if (def.scale) {
    const replicas = fieldAt(object, 'spec.replicas');
    if (
      replicas !== undefined &&
      (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    ) {
      causes.push(bad('spec.replicas', replicas, 'must be greater than or equal to 0'));
    }
  }
  const selector = fieldAt(object, 'spec.selector');
  if (selector !== null && typeof selector === 'object' && !Array.isArray(selector)) {
    labelSelectorCauses(selector as Record<string, unknown>, 'spec.selector', causes);
  }
  if (def.group === 'apps' && def.kind !== undefined) {
    const selector = fieldAt(object, 'spec.selector.matchLabels') as Record<string, string> | undefined;
    const labels = (fieldAt(object, 'spec.template.metadata.labels') ?? {}) as Record<string, string>;
    if (selector && Object.entries(selector).some(([k, v]) => labels[k] !== v)) {
      causes.push(
        bad('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'),
      );
    }
  }
}

/**
 * Validates an object about to be stored: metadata.name (unless generateName will supply it),
 * labels, annotation keys, finalizers, the row's required fields and per-kind rules.
 * @param def the resource row
 * @param object the object as it will be stored
 * @returns the causes of an Invalid answer, empty when the object is valid
 */
export function validateObject(def: ResourceDef, object: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const meta = object.metadata ?? {};
  if (typeof meta.name !== 'string' || meta.name === '') {
    causes.push({
      type: 'FieldValueRequired',
      message: 'Required value: name or generateName is required',
      field: 'metadata.name',
    });
  } else {
    const why = nameProblem(def.nameRule, meta.name);
    if (why) causes.push(bad('metadata.name', meta.name, why));
  }
  for (const [k, v] of Object.entries(meta.labels ?? {})) {
    const why = qualifiedNameProblem(k);
    if (why) causes.push(bad('metadata.labels', k, why));
    if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE_RE.test(v)) {
      causes.push(
        bad(
          `metadata.labels`,
          v,
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        ),
      );
    }
  }
  for (const k of Object.keys(meta.annotations ?? {})) {
    const why = qualifiedNameProblem(k);
    if (why) causes.push(bad('metadata.annotations', k, why));
  }
  if (meta.finalizers !== undefined) {
    if (!Array.isArray(meta.finalizers))
      causes.push(bad('metadata.finalizers', meta.finalizers, 'must be a list'));
    else
      meta.finalizers.forEach((f, i) => {
        if (typeof f !== 'string' || qualifiedNameProblem(f))
          causes.push(bad(`metadata.finalizers[${i}]`, f, 'must be a qualified name'));
      });
  }
  for (const path of def.required) {
    if (isEmpty(fieldAt(object, path))) causes.push(required(path));
  }
  kindRules(def, object, causes);
  return causes;
}
