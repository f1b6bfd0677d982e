// How each field of an object merges under server-side apply: from an OpenAPI schema or the built-in kinds' table.

/** How a list's items merge: replaced whole, a set of scalars, or a map of items keyed by some of their fields. */
export type ListSemantics =
  | { type: 'atomic' }
  | { type: 'set' }
  | { type: 'map'; keys: readonly string[]; keyDefaults?: Readonly<Record<string, unknown>> };

/** The merge type at one place of an object, and how to step to its children. */
export interface FieldType {
  /** For a list: how its items merge. */
  list(): ListSemantics;
  /** For an object: true when it is replaced whole (`x-kubernetes-map-type: atomic`, atomic structs). */
  atomicObject(): boolean;
  /**
   * True when an empty object of the kind already holds this field (a non-pointer struct or a list that is
   * never omitted), so whoever fills it does not own the container itself.
   */
  alwaysPresent(): boolean;
  /** The type of a field of this object. */
  field(name: string): FieldType;
  /** The type of an item of this list. */
  item(): FieldType;
}

const ATOMIC = { type: 'atomic' } as const;
const SET = { type: 'set' } as const;
const TCP = { protocol: 'TCP' } as const;
const byKeys = (keys: string[], keyDefaults?: Record<string, unknown>): ListSemantics => ({
  type: 'map',
  keys,
  keyDefaults,
});

/** Lists of the built-in kinds merged by key or as sets, by field name (`+listType` in k8s.io/api). */
const BUILTIN_LISTS: Readonly<Record<string, ListSemantics>> = {
  containers: byKeys(['name']),
  initContainers: byKeys(['name']),
  ephemeralContainers: byKeys(['name']),
  volumes: byKeys(['name']),
  env: byKeys(['name']),
  volumeMounts: byKeys(['mountPath']),
  volumeDevices: byKeys(['devicePath']),
  imagePullSecrets: byKeys(['name']),
  hostAliases: byKeys(['ip']),
  topologySpreadConstraints: byKeys(['topologyKey', 'whenUnsatisfiable']),
  resourceClaims: byKeys(['name']),
  schedulingGates: byKeys(['name']),
  conditions: byKeys(['type']),
  podIPs: byKeys(['ip']),
  hostIPs: byKeys(['ip']),
  addresses: byKeys(['type']),
  ownerReferences: byKeys(['uid']),
  finalizers: SET,
};

/** Objects of the built-in kinds replaced whole (`+structType=atomic`, `+mapType=atomic`). */
const BUILTIN_ATOMIC_OBJECTS = new Set([
  'selector',
  'nodeSelector',
  'labelSelector',
  'namespaceSelector',
  'configMapKeyRef',
  'secretKeyRef',
  'fieldRef',
  'resourceFieldRef',
  'configMapRef',
  'secretRef',
  'localObjectReference',
]);

/** Fields an empty object of the kind always holds (non-pointer structs, lists without omitempty). */
const BUILTIN_ALWAYS_PRESENT = new Set([
  'metadata',
  'spec',
  'status',
  'template',
  'strategy',
  'updateStrategy',
  'resources',
  'containers',
]);

/**
 * The merge types of a built-in kind, by field name and position: container `ports` merge by
 * containerPort+protocol, a Service's `spec.ports` by port+protocol (protocol defaulting to TCP), the lists
 * of {@link BUILTIN_LISTS} by their keys, every other list atomically.
 * @param path the field names from the object's root (list items are transparent)
 */
export function builtinFieldType(path: readonly string[] = []): FieldType {
  if (path.length === 0) return BUILTIN_ROOT;
  let t = BUILTIN_ROOT;
  for (const name of path) t = t.field(name);
  return t;
}

function makeBuiltinFieldType(path: readonly string[]): FieldType {
  const last = path[path.length - 1];
  let list: ListSemantics | undefined;
  const children = new Map<string, FieldType>();
  let self: FieldType;
  self = {
    list() {
      list ??= builtinList(path, last);
      return list;
    },
    atomicObject: () => last !== undefined && BUILTIN_ATOMIC_OBJECTS.has(last),
    alwaysPresent: () => last !== undefined && BUILTIN_ALWAYS_PRESENT.has(last),
    field(name) {
      let c = children.get(name);
      if (!c) {
        c = makeBuiltinFieldType([...path, name]);
        children.set(name, c);
      }
      return c;
    },
    item: () => self,
  };
  return self;
}

/** The root of the built-in kinds' types; each place is made once and kept (their set of paths is small). */
const BUILTIN_ROOT = makeBuiltinFieldType([]);

function builtinList(path: readonly string[], last: string | undefined): ListSemantics {
  if (last === 'ports') {
    const parent = path[path.length - 2];
    if (parent === 'containers' || parent === 'initContainers' || parent === 'ephemeralContainers')
      return byKeys(['containerPort', 'protocol'], TCP);
    if (path.length === 2 && parent === 'spec') return byKeys(['port', 'protocol'], TCP);
    return ATOMIC;
  }
  if (last === 'conditions' && path.length !== 2) return ATOMIC;
  if (last === 'addresses')
    return path.length === 2 && path[0] === 'status'
      ? BUILTIN_LISTS.addresses!
      : path[0] === 'endpoints'
        ? SET
        : ATOMIC;
  if (last === 'finalizers' && path[0] !== 'metadata') return ATOMIC;
  return (last !== undefined && BUILTIN_LISTS[last]) || ATOMIC;
}

/** An OpenAPI v3 schema, as much of it as merging reads. */
export interface ApplySchema {
  $ref?: string;
  allOf?: ApplySchema[];
  type?: string;
  properties?: Record<string, ApplySchema>;
  additionalProperties?: ApplySchema | boolean;
  items?: ApplySchema;
  default?: unknown;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** Where nothing is declared: objects merge field by field, lists are atomic (structured-merge-diff's deduced type). */
const DEDUCED: FieldType = {
  list: () => ATOMIC,
  atomicObject: () => false,
  alwaysPresent: () => false,
  field: () => DEDUCED,
  item: () => DEDUCED,
};

/**
 * The merge types an OpenAPI schema declares (a CRD's structural schema or a built-in kind's published one):
 * `x-kubernetes-list-type` atomic|set|map with `x-kubernetes-list-map-keys`, else the patch strategy
 * (`merge` with a merge key: a map; `merge` alone: a set), else atomic; `x-kubernetes-map-type: atomic`.
 * @param resolve looks up a `$ref` (e.g. `#/components/schemas/io.k8s.api.core.v1.PodSpec`)
 */
export function schemaFieldType(
  schema: ApplySchema | undefined,
  resolve: (ref: string) => ApplySchema | undefined = () => undefined,
): FieldType {
  let s = schema;
  for (let hops = 0; s && hops < 8; hops++) {
    if (s.$ref) s = resolve(s.$ref);
    else if (s.allOf?.length === 1 && !s.type && !s.properties) s = s.allOf[0];
    else break;
  }
  if (!s) return DEDUCED;
  const here = s;
  return {
    list() {
      const declared = here['x-kubernetes-list-type'];
      const itemSchema = here.items ? schemaFieldTypeResolved(here.items, resolve) : undefined;
      if (declared === 'set') return SET;
      if (declared === 'map') {
        const keys = here['x-kubernetes-list-map-keys'] ?? [];
        return byKeys([...keys], keyDefaultsOf(itemSchema, keys));
      }
      if (declared === 'atomic') return ATOMIC;
      const strategy = (here['x-kubernetes-patch-strategy'] ?? '').split(',');
      if (strategy.includes('merge')) {
        const key = here['x-kubernetes-patch-merge-key'];
        return key ? byKeys([key], keyDefaultsOf(itemSchema, [key])) : SET;
      }
      return ATOMIC;
    },
    atomicObject: () => here['x-kubernetes-map-type'] === 'atomic',
    alwaysPresent: () => false,
    field(name) {
      const p = here.properties?.[name];
      if (p) return schemaFieldType(p, resolve);
      const extra = here.additionalProperties;
      if (extra && typeof extra === 'object') return schemaFieldType(extra, resolve);
      return DEDUCED;
    },
    item: () => (here.items ? schemaFieldType(here.items, resolve) : DEDUCED),
  };
}

function schemaFieldTypeResolved(
  schema: ApplySchema,
  resolve: (ref: string) => ApplySchema | undefined,
): ApplySchema | undefined {
  let s: ApplySchema | undefined = schema;
  for (let hops = 0; s && hops < 8; hops++) {
    if (s.$ref) s = resolve(s.$ref);
    else if (s.allOf?.length === 1 && !s.type && !s.properties) s = s.allOf[0];
    else break;
  }
  return s;
}

function keyDefaultsOf(
  item: ApplySchema | undefined,
  keys: readonly string[],
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const d = item?.properties?.[k]?.default;
    if (d !== undefined) out[k] = d;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The merge types of a custom resource: its schema's for every field but `metadata`, which merges as every
 * object's metadata does (finalizers a set, ownerReferences keyed by uid, labels and annotations by key).
 */
export function customResourceFieldType(
  schema: ApplySchema | undefined,
  resolve?: (ref: string) => ApplySchema | undefined,
): FieldType {
  const root = schemaFieldType(schema, resolve);
  return {
    ...root,
    field: (name) => (name === 'metadata' ? builtinFieldType(['metadata']) : root.field(name)),
  };
}
