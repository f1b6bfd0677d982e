// The OpenAPI schemas of every built-in kind, generated from the protobuf message tables plus field-notes.ts.
import {
  type FieldSpec,
  type MessageSpec,
  MessageTable,
  type Scalar,
  type Special,
  type ValueType,
} from '../protobuf/message-table.ts';
import { MESSAGE_PACKAGES } from '../protobuf/messages.ts';
import { protobufKinds } from '../protobuf/protobuf-kinds.ts';
import { LIST_MERGE_KEYS } from '../strategic-merge-patch.ts';
import { APIEXTENSIONS_V1 } from './apiextensions-v1.ts';
import {
  ATOMIC_STRUCTS,
  FIELD_DESCRIPTIONS,
  FIELD_ENUMS,
  KIND_DESCRIPTIONS,
  LIST_NOTES,
  type ListNote,
} from './field-notes.ts';
import { type JsonSchema, refTo } from './json-schema.ts';

/** A group/version/kind as `x-kubernetes-group-version-kind` writes it. */
export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** The protobuf packages, plus apiextensions/v1 (described here) unless the protobuf tables have it. */
const PACKAGES = MESSAGE_PACKAGES.some((p) => p.name === APIEXTENSIONS_V1.name)
  ? MESSAGE_PACKAGES
  : [...MESSAGE_PACKAGES, APIEXTENSIONS_V1];

/** Kinds described only here, not (yet) served in protobuf. */
const EXTRA_KINDS = [
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    message: 'apiextensions/v1.CustomResourceDefinition',
  },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinitionList',
    message: 'apiextensions/v1.CustomResourceDefinitionList',
  },
];

let table: MessageTable | undefined;

/** Every message the schemas are generated from, compiled once. */
function messages(): MessageTable {
  table ??= new MessageTable(PACKAGES);
  return table;
}

/** The schema names and schemas of the messages that have their own JSON form. */
const SPECIALS: Readonly<Record<Special, readonly [string, JsonSchema]>> = {
  Time: [
    `${META}.Time`,
    {
      type: 'string',
      format: 'date-time',
      description: 'A timestamp in RFC 3339 form, in UTC, to the second.',
    },
  ],
  MicroTime: [
    `${META}.MicroTime`,
    { type: 'string', format: 'date-time', description: 'A timestamp in RFC 3339 form with microseconds.' },
  ],
  Quantity: [
    'io.k8s.apimachinery.pkg.api.resource.Quantity',
    {
      oneOf: [{ type: 'string' }, { type: 'number' }],
      description:
        'A fixed-point number with an optional suffix: binary (Ki, Mi, Gi, ...), decimal (m, k, M, G, ...) or an exponent (1e3). Written as a string; a plain number is accepted.',
    },
  ],
  IntOrString: [
    'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    {
      oneOf: [{ type: 'integer' }, { type: 'string' }],
      format: 'int-or-string',
      description: 'Either an integer or a string (a port number or a port name, a count or a percentage).',
    },
  ],
  RawExtension: [
    'io.k8s.apimachinery.pkg.runtime.RawExtension',
    {
      type: 'object',
      description: 'An embedded object of any kind, as JSON.',
      'x-kubernetes-preserve-unknown-fields': true,
    },
  ],
  FieldsV1: [
    `${META}.FieldsV1`,
    {
      type: 'object',
      description: 'A set of fields, in the JSON form server-side apply uses.',
      'x-kubernetes-preserve-unknown-fields': true,
    },
  ],
};

const SCALARS: Readonly<Record<Scalar, JsonSchema>> = {
  string: { type: 'string' },
  bytes: { type: 'string', format: 'byte' },
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  uint32: { type: 'integer', format: 'int32' },
  uint64: { type: 'integer', format: 'int64' },
  bool: { type: 'boolean' },
  double: { type: 'number', format: 'double' },
  float: { type: 'number', format: 'double' },
};

/** `core/v1.Pod` → `io.k8s.api.core.v1.Pod`; `meta/v1.ObjectMeta` → `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
export function schemaNameOfMessage(message: string): string {
  const [pkg = '', name = ''] = message.split('.');
  if (pkg === 'meta/v1') return `${META}.${name}`;
  if (pkg === 'apiextensions/v1') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.${name}`;
  return `io.k8s.api.${pkg.replace('/', '.')}.${name}`;
}

function shortName(message: string): string {
  return message.slice(message.indexOf('.') + 1);
}

function valueSchema(value: ValueType): JsonSchema {
  if (value.kind === 'scalar') return { ...SCALARS[value.scalar] };
  if (value.kind === 'special') return refTo(SPECIALS[value.special][0]);
  const m = messages().get(value.message);
  if (m.wrapper) return fieldSchema(m, m.fields[0]!);
  return refTo(schemaNameOfMessage(value.message));
}

/** The list semantics of a repeated field: its own note, else the strategic-merge-patch table's key. */
function listNote(owner: MessageSpec, f: FieldSpec): ListNote | undefined {
  const own = LIST_NOTES[`${shortName(owner.name)}.${f.json}`];
  if (own) return own;
  const smp = LIST_MERGE_KEYS[f.json];
  if (!smp) return undefined;
  if ('set' in smp) return f.value.kind === 'scalar' ? { type: 'set' } : undefined;
  if (f.value.kind !== 'message') return undefined;
  const element = messages().get(f.value.message);
  return element.fields.some((x) => x.json === smp.key) ? { type: 'map', keys: [smp.key] } : undefined;
}

function listExtensions(note: ListNote): JsonSchema {
  if (note.type === 'map') {
    const keys = note.keys ?? [];
    return {
      'x-kubernetes-list-map-keys': [...keys],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': keys[0],
      'x-kubernetes-patch-strategy': 'merge',
    };
  }
  if (note.type === 'set') return { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' };
  return { 'x-kubernetes-list-type': 'atomic' };
}

function describe(f: FieldSpec): string | undefined {
  if (f.json === 'metadata' && f.value.kind === 'message' && f.value.message === 'meta/v1.ListMeta')
    return 'Standard list metadata: the resourceVersion of the list and the continue token of a paged list.';
  return FIELD_DESCRIPTIONS[f.json];
}

function fieldSchema(owner: MessageSpec, f: FieldSpec): JsonSchema {
  const value = valueSchema(f.value);
  let s: JsonSchema;
  if (f.mapKey) s = { type: 'object', additionalProperties: value };
  else if (f.repeated) {
    s = { type: 'array', items: value };
    const note = listNote(owner, f);
    if (note) Object.assign(s, listExtensions(note));
  } else s = value;
  const values = FIELD_ENUMS[`${shortName(owner.name)}.${f.json}`] ?? FIELD_ENUMS[f.json];
  if (values && s.type === 'string') s = { ...s, enum: [...values] };
  const description = describe(f);
  if (!description) return s;
  return s.$ref !== undefined ? { allOf: [s], description } : { ...s, description };
}

/** Adds a message's properties (inline fields flattened) and its required fields. */
function addFields(m: MessageSpec, properties: Record<string, JsonSchema>, required: string[]): void {
  for (const f of m.fields) {
    if (f.inline && f.value.kind === 'message') {
      addFields(messages().get(f.value.message), properties, required);
      continue;
    }
    properties[f.json] = fieldSchema(m, f);
    if (f.always && !f.pointer) required.push(f.json);
  }
}

function typeMetaProperties(): Record<string, JsonSchema> {
  return {
    apiVersion: { type: 'string', description: FIELD_DESCRIPTIONS.apiVersion },
    kind: { type: 'string', description: FIELD_DESCRIPTIONS.kind },
  };
}

function messageSchema(m: MessageSpec, gvks: readonly Gvk[] | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = gvks ? typeMetaProperties() : {};
  const required: string[] = [];
  addFields(m, properties, required);
  const kind = gvks?.[0]?.kind;
  const s: JsonSchema = { type: 'object' };
  const description = kind
    ? (KIND_DESCRIPTIONS[kind] ??
      (kind.endsWith('List') && KIND_DESCRIPTIONS[kind.slice(0, -4)]
        ? `A list of ${kind.slice(0, -4)} objects.`
        : undefined))
    : undefined;
  if (description) s.description = description;
  s.properties = properties;
  if (required.length) s.required = required;
  if (ATOMIC_STRUCTS.has(m.name)) s['x-kubernetes-map-type'] = 'atomic';
  if (gvks) s['x-kubernetes-group-version-kind'] = gvks.map((g) => ({ ...g }));
  return s;
}

function gvkOf(apiVersion: string, kind: string): Gvk {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion, kind }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
}

/** Every built-in schema by name, and the schema name of each built-in kind by `group/version/kind`. */
export interface BuiltinSchemas {
  schemas: ReadonlyMap<string, JsonSchema>;
  kinds: ReadonlyMap<string, string>;
}

/** The key of a kind in `BuiltinSchemas.kinds`. */
export function gvkKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

function build(): BuiltinSchemas {
  const gvksByMessage = new Map<string, Gvk[]>();
  const kinds = new Map<string, string>();
  const served = protobufKinds();
  const topLevel = [
    ...served,
    ...EXTRA_KINDS.filter((k) => !served.some((p) => p.apiVersion === k.apiVersion && p.kind === k.kind)),
    { apiVersion: 'v1', kind: 'Status', message: 'meta/v1.Status' },
    { apiVersion: 'v1', kind: 'DeleteOptions', message: 'meta/v1.DeleteOptions' },
  ];
  for (const k of topLevel) {
    const gvk = gvkOf(k.apiVersion, k.kind);
    const list = gvksByMessage.get(k.message) ?? [];
    list.push(gvk);
    gvksByMessage.set(k.message, list);
    kinds.set(gvkKey(gvk.group, gvk.version, gvk.kind), schemaNameOfMessage(k.message));
  }
  const schemas = new Map<string, JsonSchema>();
  for (const [name, schema] of Object.values(SPECIALS)) schemas.set(name, schema);
  schemas.set(`${META}.Patch`, {
    type: 'object',
    description: 'The body of a PATCH request, in the form its Content-Type names.',
  });
  for (const message of messages().names()) {
    const m = messages().get(message);
    if (m.wrapper) continue;
    schemas.set(schemaNameOfMessage(message), messageSchema(m, gvksByMessage.get(message)));
  }
  return { schemas, kinds };
}

let cached: BuiltinSchemas | undefined;

/** The built-in schemas, built once on first use (a pure function of the message tables). */
export function builtinSchemas(): BuiltinSchemas {
  cached ??= build();
  return cached;
}
