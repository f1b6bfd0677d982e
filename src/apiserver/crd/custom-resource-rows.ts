// The resource-table rows a CRD serves: one per served version, carrying its schema, columns and subresources.
import type { KubeObject } from '../../../operators/types.ts';
import type { StatusCause } from '../api-status.ts';
import type { ResourceDef, TableColumn } from '../resource-table.ts';
import { humanDuration } from '../table.ts';
import { applySchemaDefaults } from './apply-schema-defaults.ts';
import { celRulesFor } from './cel/cel-rules-cache.ts';
import type { CompiledSchemaRules } from './cel/compile-schema-rules.ts';
import { validateCelRules } from './cel/validate-cel-rules.ts';
import {
  type CrdColumn,
  type CrdVersion,
  type CustomResourceDefinition,
  storageVersionOf,
} from './custom-resource-definition.ts';
import { fieldError } from './field-error.ts';
import { hasCelRules } from './has-cel-rules.ts';
import { jsonPathText, jsonPathValues, parseJsonPath } from './json-path.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';
import { pruneUnknownFields } from './prune-unknown-fields.ts';
import { validateCustomResource } from './validate-custom-resource.ts';
import { compareVersionPriority } from './version-priority.ts';

/** The PATCH types a custom resource accepts (strategic merge has no meaning without Go types). */
export const CUSTOM_RESOURCE_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
] as const;

const schemas = new WeakMap<ResourceDef, JSONSchemaProps>();

/** The structural schema of a custom resource row (undefined for built-in rows): H8's list types read it. */
export function customResourceSchemaOf(def: ResourceDef): JSONSchemaProps | undefined {
  return schemas.get(def);
}

const AGE_COLUMN: CrdColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
};

function cellOf(type: string, value: unknown): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(Date.now() - t);
    }
    default:
      return jsonPathText(value);
  }
}

/** A printer column as a table column: the first value its JSONPath reaches, typed as declared. */
export function printerColumn(c: CrdColumn): TableColumn {
  const steps = parseJsonPath(c.jsonPath ?? '');
  const type = (c.type ?? 'string') as TableColumn['type'];
  return {
    name: c.name ?? '',
    type,
    description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    priority: (c.priority ?? 0) > 0 ? 1 : 0,
    cell: (o) => cellOf(type, jsonPathValues(o, steps)[0]),
  };
}

function selectableField(jsonPath: string | undefined): string {
  return (jsonPath ?? '').replace(/^\./, '');
}

function row(
  crd: CustomResourceDefinition,
  v: CrdVersion,
  storageApiVersion: string,
  terminating: boolean,
): ResourceDef {
  const spec = crd.spec;
  const names = spec.names ?? {};
  const group = spec.group ?? '';
  const apiVersion = `${group}/${v.name}`;
  const schema: JSONSchemaProps = v.schema?.openAPIV3Schema ?? {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  };
  const scale = v.subresources?.scale;
  const withRules = hasCelRules(schema);
  const columns = (v.additionalPrinterColumns?.length ? v.additionalPrinterColumns : [AGE_COLUMN]).map(
    printerColumn,
  );
  const def: ResourceDef = {
    group,
    version: v.name ?? '',
    resource: names.plural ?? '',
    singular: names.singular ?? '',
    kind: names.kind ?? '',
    namespaced: spec.scope === 'Namespaced',
    subresources: [
      ...(v.subresources?.status ? (['status'] as const) : []),
      ...(scale ? (['scale'] as const) : []),
    ],
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    nameRule: 'subdomain',
    required: [],
    fieldSelectors: (v.selectableFields ?? []).map((f) => selectableField(f.jsonPath)),
    columns,
    agePosition: 'none',
    defaults: (o) => {
      o.metadata = { ...o.metadata, generation: 1 };
    },
    ...(scale
      ? {
          scale: {
            defaultReplicas: 0,
            specReplicasPath: scale.specReplicasPath,
            statusReplicasPath: scale.statusReplicasPath,
            labelSelectorPath: scale.labelSelectorPath,
          },
        }
      : {}),
    validate: (o, old) => {
      const { metadata: _m, ...rest } = o as Record<string, unknown>;
      const causes = validateCustomResource(rest, { ...schema, properties: withoutMetadata(schema) });
      const metaSchema = schema.properties?.metadata;
      if (metaSchema) causes.push(...validateCustomResource(o.metadata ?? {}, metaSchema, 'metadata'));
      if (withRules) causes.push(...celCauses(causes, () => celRulesFor(crd, v.name ?? '', schema), o, old));
      return causes;
    },
    normalize: (o) => {
      pruneUnknownFields(o, schema);
      applySchemaDefaults(o, schema);
      o.apiVersion = storageApiVersion;
    },
    present: (o) => presentAs(o, apiVersion, schema),
    // as upstream: any change but metadata (and status, when it is a subresource) is a new generation
    generationPart: (o) => {
      const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = o as Record<string, unknown>;
      if (v.subresources?.status) delete rest.status;
      return rest;
    },
    patchTypes: CUSTOM_RESOURCE_PATCH_TYPES,
    terminating,
    ...(v.deprecated ? { deprecationWarning: v.deprecationWarning ?? deprecationOf(crd, v) } : {}),
  };
  schemas.set(def, schema);
  return def;
}

/** Upstream's default warning for a deprecated version: it names the preferred version that is not deprecated. */
function deprecationOf(crd: CustomResourceDefinition, v: CrdVersion): string {
  const group = crd.spec.group ?? '';
  const kind = crd.spec.names?.kind ?? '';
  const better = (crd.spec.versions ?? [])
    .filter((x) => x.served && !x.deprecated && x.name)
    .sort((a, b) => compareVersionPriority(a.name!, b.name!))[0];
  const base = `${group}/${v.name} ${kind} is deprecated`;
  return better ? `${base}; use ${group}/${better.name} ${kind}` : base;
}

/** As upstream: the rules run only when the object's types and enums are right; else one cause says they were not checked. */
function celCauses(
  schemaCauses: StatusCause[],
  rules: () => CompiledSchemaRules,
  o: KubeObject,
  old: KubeObject | undefined,
): StatusCause[] {
  if (schemaCauses.some((c) => c.type === 'FieldValueTypeInvalid' || c.type === 'FieldValueNotSupported'))
    return [
      fieldError.invalid(
        '<nil>',
        null,
        'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ),
    ];
  return validateCelRules(rules(), o, old);
}

function withoutMetadata(schema: JSONSchemaProps): Record<string, JSONSchemaProps> | undefined {
  if (!schema.properties) return undefined;
  const { metadata: _m, ...rest } = schema.properties;
  return rest;
}

/** A stored custom resource as a client of `apiVersion` reads it: a copy with that apiVersion and the read-time defaults. */
function presentAs(o: KubeObject, apiVersion: string, schema: JSONSchemaProps): KubeObject {
  const copy = structuredClone(o);
  copy.apiVersion = apiVersion;
  applySchemaDefaults(copy, schema);
  return copy;
}

/**
 * The rows a CRD serves: one per served version, highest priority first (so discovery prefers it),
 * all over one store (`group/plural`) holding objects in the storage version; conversion is
 * `None`: reads rewrite apiVersion. Each row validates with its version's schema, prunes and
 * defaults written bodies, defaults on read, refuses strategic merge patches and, when the CRD is
 * being deleted, creates.
 * @param crd the CRD (valid, names accepted)
 * @returns the rows, empty when nothing is served
 */
export function customResourceRows(crd: CustomResourceDefinition): ResourceDef[] {
  const storage = storageVersionOf(crd);
  if (!storage || !crd.spec.group) return [];
  const terminating = crd.metadata?.deletionTimestamp !== undefined;
  return (crd.spec.versions ?? [])
    .filter((v) => v.served === true && v.name)
    .sort((a, b) => compareVersionPriority(a.name!, b.name!))
    .map((v) => row(crd, v, `${crd.spec.group}/${storage}`, terminating));
}
