// Validation of a CustomResourceDefinition as apiextensions' validation does it: names, scope, versions, schemas.
import type { KubeObject } from '../../../operators/types.ts';
import type { StatusCause } from '../api-status.ts';
import { nameProblem } from '../validation.ts';
import { compileSchemaRules } from './cel/compile-schema-rules.ts';
import { crdShapeProblems } from './crd-shape.ts';
import {
  type CrdNames,
  type CrdVersion,
  type CustomResourceDefinition,
  conditionOf,
} from './custom-resource-definition.ts';
import { fieldError } from './field-error.ts';
import { parseJsonPath } from './json-path.ts';
import { isJsonObject } from './json-schema-props.ts';
import { validateStructuralSchema } from './validate-structural-schema.ts';

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const SCOPES = ['Cluster', 'Namespaced'];

function label(field: string, value: string, out: StatusCause[], prefix = ''): void {
  const why = nameProblem('dns1035', value);
  if (why) out.push(fieldError.invalid(field, value, prefix + why));
}

function namesRules(names: CrdNames, path: string, out: StatusCause[]): void {
  if (names.plural) label(`${path}.plural`, names.plural, out);
  if (names.singular) label(`${path}.singular`, names.singular, out);
  for (const field of ['kind', 'listKind'] as const) {
    const name = names[field];
    const why = name ? nameProblem('dns1035', name.toLowerCase()) : undefined;
    if (why)
      out.push(
        fieldError.invalid(
          `${path}.${field}`,
          name,
          `may have mixed case, but should otherwise match: ${why}`,
        ),
      );
  }
  (names.shortNames ?? []).forEach((s, i) => {
    label(`${path}.shortNames[${i}]`, String(s), out);
  });
  if (names.kind && names.kind === names.listKind)
    out.push(fieldError.invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    label(`${path}.categories[${i}]`, String(c), out);
  });
}

function simplePath(path: string | undefined): boolean {
  if (!path?.startsWith('.')) return false;
  try {
    return parseJsonPath(path).length > 0;
  } catch {
    return false;
  }
}

function versionRules(v: CrdVersion, path: string, out: StatusCause[]): void {
  const schema = v.schema?.openAPIV3Schema;
  if (!isJsonObject(schema))
    out.push(fieldError.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
  else {
    const structural = validateStructuralSchema(schema, `${path}.schema.openAPIV3Schema`);
    out.push(...structural);
    // as upstream: CEL rules are compiled against a structural schema only
    if (!structural.length)
      out.push(...compileSchemaRules(schema, `${path}.schema.openAPIV3Schema`).problems);
  }
  const scale = v.subresources?.scale;
  if (scale) {
    const p = `${path}.subresources.scale`;
    const replicaPaths = [
      ['specReplicasPath', '.spec.', 'should be a json path under .spec'],
      ['statusReplicasPath', '.status.', 'should be a json path under .status'],
    ] as const;
    for (const [field, under, why] of replicaPaths) {
      const value = scale[field];
      if (!value) out.push(fieldError.required(`${p}.${field}`));
      else if (!value.startsWith(under) || !simplePath(value))
        out.push(fieldError.invalid(`${p}.${field}`, value, why));
    }
    const sel = scale.labelSelectorPath;
    if (sel && (!(sel.startsWith('.spec.') || sel.startsWith('.status.')) || !simplePath(sel)))
      out.push(
        fieldError.invalid(
          `${p}.labelSelectorPath`,
          sel,
          'should be a json path under either .spec or .status',
        ),
      );
  }
  (v.additionalPrinterColumns ?? []).forEach((c, i) => {
    const p = `${path}.additionalPrinterColumns[${i}]`;
    if (!c.name) out.push(fieldError.required(`${p}.name`));
    if (!c.type) out.push(fieldError.required(`${p}.type`));
    else if (!COLUMN_TYPES.includes(c.type))
      out.push(fieldError.notSupported(`${p}.type`, c.type, COLUMN_TYPES));
    if (!c.jsonPath) out.push(fieldError.required(`${p}.jsonPath`));
    else if (!simplePath(c.jsonPath))
      out.push(fieldError.invalid(`${p}.jsonPath`, c.jsonPath, 'must be a simple json path'));
  });
  (v.selectableFields ?? []).forEach((f, i) => {
    const p = `${path}.selectableFields[${i}].jsonPath`;
    if (!f.jsonPath) out.push(fieldError.required(p));
    else if (!simplePath(f.jsonPath))
      out.push(fieldError.invalid(p, f.jsonPath, 'must be a simple json path'));
  });
}

function specRules(crd: CustomResourceDefinition, out: StatusCause[]): void {
  const spec = crd.spec;
  if (!spec.group) out.push(fieldError.required('spec.group'));
  else {
    const why = nameProblem('subdomain', spec.group);
    if (why) out.push(fieldError.invalid('spec.group', spec.group, why));
    else if (!spec.group.includes('.'))
      out.push(fieldError.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  if (!spec.scope) out.push(fieldError.required('spec.scope'));
  else if (!SCOPES.includes(spec.scope)) out.push(fieldError.notSupported('spec.scope', spec.scope, SCOPES));
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  versions.forEach((v, i) => {
    if (v.storage === true) storage++;
    const name = String(v.name ?? '');
    if (seen.has(name)) unique = false;
    seen.add(name);
    label(`spec.versions[${i}].name`, name, out);
    versionRules(v, `spec.versions[${i}]`, out);
  });
  if (!unique) out.push(fieldError.invalid('spec.versions', versions, 'must contain unique version names'));
  if (storage !== 1)
    out.push(
      fieldError.invalid(
        'spec.versions',
        versions,
        'must have exactly one version marked as storage version',
      ),
    );
  const names = isJsonObject(spec.names) ? (spec.names as CrdNames) : {};
  if (!names.plural) out.push(fieldError.required('spec.names.plural'));
  if (!names.singular) out.push(fieldError.required('spec.names.singular'));
  if (!names.kind) out.push(fieldError.required('spec.names.kind'));
  if (!names.listKind) out.push(fieldError.required('spec.names.listKind'));
  namesRules(names, 'spec.names', out);
  const strategy = spec.conversion?.strategy;
  if (strategy !== undefined && strategy !== 'None' && strategy !== 'Webhook')
    out.push(fieldError.notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
  if (spec.preserveUnknownFields === true)
    out.push(
      fieldError.invalid(
        'spec.preserveUnknownFields',
        true,
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ),
    );
}

const APPROVAL = 'api-approved.kubernetes.io';
const APPROVAL_PR = 'see https://github.com/kubernetes/enhancements/pull/1111';

function isProtectedGroup(group: string | undefined): boolean {
  return !!group && ['k8s.io', 'kubernetes.io'].some((g) => group === g || group.endsWith(`.${g}`));
}

/** The approval annotation's problem in a protected group (*.k8s.io, *.kubernetes.io), or undefined. */
function approvalProblem(crd: CustomResourceDefinition): StatusCause | undefined {
  if (!isProtectedGroup(crd.spec.group)) return undefined;
  const field = `metadata.annotations[${APPROVAL}]`;
  const value = crd.metadata?.annotations?.[APPROVAL];
  if (!value)
    return fieldError.required(
      field,
      `protected groups must have approval annotation "${APPROVAL}", ${APPROVAL_PR}`,
    );
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (value.startsWith('unapproved') || url?.host) return undefined;
  return fieldError.invalid(
    field,
    value,
    `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", ${APPROVAL_PR}`,
  );
}

function immutable(field: string, now: unknown, before: unknown, out: StatusCause[]): void {
  if (now !== before) out.push(fieldError.invalid(field, now, 'field is immutable'));
}

/**
 * Validates a CRD on create (and, with `old`, on update: group and plural never change; scope and
 * kind not once Established; every stored version stays in spec.versions).
 * @param object the CRD being written (defaults applied)
 * @param old the stored CRD on update
 * @returns the causes, with upstream's field paths (`spec.versions[0].schema.openAPIV3Schema.properties[spec].type`)
 */
export function validateCustomResourceDefinition(object: KubeObject, old?: KubeObject): StatusCause[] {
  const out: StatusCause[] = [];
  const shape = crdShapeProblems(object);
  if (shape.length) return shape;
  // A missing spec is an empty one, as Go decodes it: every required field is then reported.
  const spec = (object as Record<string, unknown>).spec;
  const crd = { ...object, spec: isJsonObject(spec) ? spec : {} } as CustomResourceDefinition;
  const name = crd.metadata?.name;
  const plural = crd.spec.names?.plural ?? '';
  if (name && name !== `${plural}.${crd.spec.group ?? ''}`)
    out.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  specRules(crd, out);
  const approval = approvalProblem(crd);
  // on update only when it was fine before, so old objects stay writable
  if (approval && (!old || !approvalProblem({ ...old, spec: crd.spec } as CustomResourceDefinition)))
    out.push(approval);
  if (crd.status?.acceptedNames) namesRules(crd.status.acceptedNames, 'status.acceptedNames', out);
  if (old && isJsonObject((old as Record<string, unknown>).spec)) {
    const prev = old as CustomResourceDefinition;
    if (conditionOf(prev, 'Established')?.status === 'True') {
      immutable('spec.scope', crd.spec.scope, prev.spec.scope, out);
      immutable('spec.names.kind', crd.spec.names?.kind, prev.spec.names?.kind, out);
    }
    immutable('spec.group', crd.spec.group, prev.spec.group, out);
    immutable('spec.names.plural', crd.spec.names?.plural, prev.spec.names?.plural, out);
    const names = new Set((crd.spec.versions ?? []).map((v) => v.name));
    (crd.status?.storedVersions ?? []).forEach((v, i) => {
      if (!names.has(v))
        out.push(fieldError.invalid(`status.storedVersions[${i}]`, v, 'must appear in spec.versions'));
    });
  }
  return out;
}
