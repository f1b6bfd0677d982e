// The field manager: records metadata.managedFields on every write and performs server-side apply with conflicts.
import type { KubeObject } from '../../../operators/types.ts';
import { ApiStatusError, badRequest } from '../api-status.ts';
import { customResourceSchemaOf } from '../crd/custom-resource-rows.ts';
import { openApiSchemasOf } from '../openapi/index.ts';
import { apiVersionOf, type ResourceDef } from '../resource-table.ts';
import { type FieldPath, FieldSet, fieldElement, pathToString } from './field-set.ts';
import { type ApplySchema, builtinFieldType, customResourceFieldType, type FieldType } from './field-type.ts';
import {
  type Comparison,
  compare,
  merge,
  removeDisowned,
  TypedValueError,
  toFieldSet,
} from './typed-value.ts';
import { undeclaredFields } from './undeclared-fields.ts';

type Obj = Record<string, unknown>;

/** One entry of metadata.managedFields, its keys in upstream's order. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** What one manager owns, under its identifier (manager, operation, the apiVersion of updates, subresource). */
interface Owner {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
  time?: string;
  set: FieldSet;
}

type Owners = Map<string, Owner>;

/** The annotation kubectl's client-side apply keeps its last configuration in. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** Update entries kept before the oldest are folded into "ancient-changes", as kube-apiserver. */
export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';
/** The owner of an untracked object's fields when it is first applied to, as upstream names it. */
const BEFORE_FIRST_APPLY = 'before-first-apply';
/** The field manager kubectl apply --server-side uses: the only one whose first apply adopts last-applied ownership. */
const KUBECTL_MANAGER = 'kubectl';

/** Metadata fields nobody owns (set by the server). */
const STRIPPED = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((f) => [fieldElement('metadata'), fieldElement(f)]),
);

/**
 * What compare skips on each endpoint: the fields nobody owns (metadata.managedFields among them) and the
 * fields that endpoint resets.
 */
const IGNORED_NOTHING = STRIPPED.difference(FieldSet.of([fieldElement('metadata')]));
const IGNORED_ON_STATUS = IGNORED_NOTHING.union(FieldSet.of([fieldElement('spec')]));
const IGNORED_ON_OBJECT = IGNORED_NOTHING.union(FieldSet.of([fieldElement('status')]));

/** The identifier of an owner, as upstream builds it: the entry's JSON without time and fields (and apiVersion for Apply). */
function ownerId(o: Pick<Owner, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  return JSON.stringify({
    manager: o.manager || undefined,
    operation: o.operation,
    apiVersion: o.operation === 'Update' ? o.apiVersion || undefined : undefined,
    subresource: o.subresource || undefined,
  });
}

/**
 * Reads metadata.managedFields.
 * @throws Error naming the entry and field when an entry is malformed
 */
export function decodeManagedFields(entries: unknown): Owners {
  const owners: Owners = new Map();
  if (entries === undefined || entries === null) return owners;
  if (!Array.isArray(entries)) throw new Error('metadata.managedFields: expected a list');
  entries.forEach((e, i) => {
    const at = `metadata.managedFields[${i}]`;
    if (e === null || typeof e !== 'object') throw new Error(`${at}: expected an object`);
    const entry = e as ManagedFieldsEntry;
    if (entry.fieldsType !== 'FieldsV1')
      throw new Error(`${at}.fieldsType: must be "FieldsV1", got ${JSON.stringify(entry.fieldsType)}`);
    if (entry.operation !== 'Apply' && entry.operation !== 'Update')
      throw new Error(`${at}.operation: must be "Apply" or "Update", got ${JSON.stringify(entry.operation)}`);
    let set: FieldSet;
    try {
      set = FieldSet.fromFieldsV1(entry.fieldsV1 ?? {});
    } catch (error) {
      throw new Error(`${at}.fieldsV1: ${(error as Error).message}`);
    }
    const owner: Owner = {
      manager: entry.manager ?? '',
      operation: entry.operation,
      apiVersion: entry.apiVersion ?? '',
      subresource: entry.subresource || undefined,
      time: entry.time,
      set,
    };
    const id = ownerId(owner);
    if (owners.has(id)) throw new Error(`${at}: duplicate entry for manager ${id}`);
    owners.set(id, owner);
  });
  return owners;
}

/** Writes metadata.managedFields, sorted as upstream: Apply before Update, then by time, manager, apiVersion. */
export function encodeManagedFields(owners: Owners): ManagedFieldsEntry[] {
  const list = [...owners.values()].filter((o) => !o.set.empty);
  const seconds = (t: string | undefined) => (t ? Date.parse(t) / 1000 : 0);
  list.sort(
    (p, q) =>
      (p.operation < q.operation ? -1 : p.operation > q.operation ? 1 : 0) ||
      seconds(p.time) - seconds(q.time) ||
      (p.manager < q.manager ? -1 : p.manager > q.manager ? 1 : 0) ||
      (p.apiVersion < q.apiVersion ? -1 : p.apiVersion > q.apiVersion ? 1 : 0) ||
      ((p.subresource ?? '') < (q.subresource ?? '')
        ? -1
        : (p.subresource ?? '') > (q.subresource ?? '')
          ? 1
          : 0),
  );
  return list.map((o) => {
    const e: ManagedFieldsEntry = {};
    if (o.manager) e.manager = o.manager;
    e.operation = o.operation;
    if (o.apiVersion) e.apiVersion = o.apiVersion;
    if (o.time) e.time = o.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = o.set.toFieldsV1();
    if (o.subresource) e.subresource = o.subresource;
    return e;
  });
}

/** upstream's reading of a manager entry in messages: `"name"`, `"name" with subresource "status"`, `... using apps/v1`. */
function printOwner(o: Owner): string {
  let s = JSON.stringify(o.manager);
  if (o.subresource) s = `${s} with subresource ${JSON.stringify(o.subresource)}`;
  return o.operation === 'Update' ? `${s} using ${o.apiVersion}` : s;
}

/** 409 Conflict answering an apply that would change other managers' fields, worded as kube-apiserver. */
export function applyConflictError(conflicts: readonly { owner: Owner; path: string }[]): ApiStatusError {
  const causes = conflicts.map((c) => ({
    type: 'FieldManagerConflict',
    message: `conflict with ${printOwner(c.owner)}`,
    field: c.path,
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printOwner(conflicts[0]!.owner)}: ${conflicts[0]!.path}`;
  } else {
    const byOwner = new Map<string, string[]>();
    for (const c of conflicts) {
      const key = printOwner(c.owner);
      byOwner.set(key, [...(byOwner.get(key) ?? []), c.path]);
    }
    const lines: string[] = [];
    for (const key of [...byOwner.keys()].sort()) {
      lines.push(`conflicts with ${key}:`);
      for (const p of byOwner.get(key)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiStatusError(409, 'Conflict', message, { causes } as never);
}

/**
 * The manager name of a request without `fieldManager`: its user agent up to the first "/", as kube-apiserver
 * ("kubectl/v1.32.0 (linux/amd64) kubernetes/abc" → "kubectl").
 */
export function managerFromUserAgent(userAgent: string | undefined): string {
  return (userAgent ?? '').split('/')[0] ?? '';
}

/**
 * Checks a `fieldManager` query value as kube-apiserver's ValidateFieldManager does.
 * @param optionsKind CreateOptions, UpdateOptions or PatchOptions
 * @throws 422 Invalid naming `fieldManager`
 */
export function checkFieldManager(optionsKind: string, manager: string | undefined, apply: boolean): void {
  const causes: { type: string; message: string; field: string }[] = [];
  if (apply && !manager)
    causes.push({
      type: 'FieldValueRequired',
      message: 'Required value: is required for apply patch',
      field: 'fieldManager',
    });
  if (manager && Buffer.byteLength(manager) > 128)
    causes.push({
      type: 'FieldValueTooLong',
      message: 'Too long: may not be more than 128 bytes',
      field: 'fieldManager',
    });
  if (manager) {
    const bad = [...manager].findIndex((ch) => /[\p{C}]/u.test(ch));
    if (bad >= 0)
      causes.push({
        type: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(manager)}: invalid character U+${manager.codePointAt(bad)!.toString(16).toUpperCase().padStart(4, '0')} (at position ${bad})`,
        field: 'fieldManager',
      });
  }
  if (!causes.length) return;
  const summary = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  throw new ApiStatusError(
    422,
    'Invalid',
    `${optionsKind}.meta.k8s.io "" is invalid: ${causes.length > 1 ? `[${summary}]` : summary}`,
    { group: 'meta.k8s.io', kind: optionsKind, causes } as never,
  );
}

/** The object without metadata.managedFields (a shallow copy; nothing is cloned deeply). */
function withoutManagedFields(o: KubeObject | undefined): Obj | undefined {
  if (!o) return undefined;
  if (!o.metadata || !('managedFields' in o.metadata)) return o as Obj;
  const { managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata } as Obj;
}

/** The options of one write as the field manager sees them. */
export interface FieldWrite {
  def: ResourceDef;
  /** Who writes; `fieldManager`, else the user agent's program name. */
  manager: string;
  /** The subresource written (status, scale...), undefined for the object itself. */
  subresource?: string;
  /** The time recorded on the manager's entry (RFC 3339, seconds). */
  time: string;
}

/**
 * Server-side apply's bookkeeping, as kube-apiserver's field manager: which manager owns which fields
 * (metadata.managedFields), updated on every create, update and patch, and the apply operation itself
 * (merge by the declared list types, conflicts, force, removal of fields an applier stopped applying).
 */
export class FieldManager {
  private schemas: ((def: ResourceDef) => FieldType | undefined)[] = [customResourceTypes];
  /** The server whose published OpenAPI schemas say which fields a kind declares (none: not checked). */
  private readonly server: object | undefined;

  /** @param server the registry whose OpenAPI schemas (built-in kinds and CRDs) an apply is checked against */
  constructor(server?: object) {
    this.server = server;
  }

  /** The published schema of a resource's kind, to refuse undeclared fields as structured-merge-diff does. */
  private kindSchema(
    def: ResourceDef,
  ): { schema: ApplySchema; resolve: (s: ApplySchema) => ApplySchema | undefined } | undefined {
    if (!this.server) return undefined;
    const schemas = openApiSchemasOf(this.server);
    const name = schemas.kindSchemaName(def.group, def.version, def.kind);
    const schema = name ? schemas.schema(name) : undefined;
    if (!schema) return undefined;
    return {
      schema: schema as ApplySchema,
      resolve: (s) => schemas.resolve(s as never) as ApplySchema | undefined,
    };
  }

  /**
   * Adds a source of merge types (published OpenAPI, say); custom resources' CRD schemas come first, then these
   * in order; built-in kinds fall back to the table of {@link builtinFieldType}.
   */
  useSchemas(lookup: (def: ResourceDef) => FieldType | undefined): void {
    this.schemas.push(lookup);
  }

  /** The merge type of a resource's objects. */
  typeOf(def: ResourceDef): FieldType {
    for (const lookup of this.schemas) {
      const t = lookup(def);
      if (t) return t;
    }
    return builtinFieldType();
  }

  /** The fields a write through this endpoint never owns: status on the object, all but status on /status. */
  private ignored(def: ResourceDef, subresource: string | undefined): FieldSet {
    if (subresource === 'status') return IGNORED_ON_STATUS;
    if (subresource === undefined && def.subresources.includes('status')) return IGNORED_ON_OBJECT;
    return IGNORED_NOTHING;
  }

  private ownedBy(set: FieldSet, ignored: FieldSet): FieldSet {
    return set.recursiveDifference(ignored).difference(STRIPPED);
  }

  /**
   * The managedFields of an object written by create, update or a non-apply patch (operation Update): the
   * fields this write added or changed move to `manager`'s Update entry; removed fields leave every entry.
   * Managed fields sent with the object replace the live ones when they decode (an empty list resets them).
   * @param live the object before the write (undefined for a create)
   * @param next the object to be stored
   * @returns the entries to store in next.metadata.managedFields (undefined: keep none)
   */
  update(w: FieldWrite, live: KubeObject | undefined, next: KubeObject): ManagedFieldsEntry[] | undefined {
    let owners: Owners;
    try {
      owners = this.liveOrNew(live, next, w.subresource !== undefined);
    } catch {
      return live?.metadata?.managedFields as ManagedFieldsEntry[] | undefined;
    }
    // An existing object nobody tracks stays untracked until someone applies (upstream's skip of non-applied).
    if (owners.size === 0 && live !== undefined) return [];
    const type = this.typeOf(w.def);
    const ignored = this.ignored(w.def, w.subresource);
    let cmp: Comparison;
    try {
      cmp = compare(live ?? {}, next, type, ignored);
    } catch {
      return encodeManagedFields(owners);
    }
    const changed = cmp.added.union(cmp.modified);
    const removed = cmp.removed;
    if (changed.empty && removed.empty) return encodeManagedFields(owners);
    for (const [id, o] of owners) {
      const set = o.set.difference(changed).difference(removed);
      if (set.empty) owners.delete(id);
      else owners.set(id, { ...o, set });
    }
    if (!changed.empty) {
      const me: Owner = {
        manager: w.manager,
        operation: 'Update',
        apiVersion: apiVersionOf(w.def),
        subresource: w.subresource,
        time: w.time,
        set: changed,
      };
      const id = ownerId(me);
      const previous = owners.get(id);
      owners.delete(id);
      owners.set(id, { ...me, set: previous ? previous.set.union(changed) : changed });
    }
    capUpdateManagers(owners);
    return encodeManagedFields(owners);
  }

  private liveOrNew(live: KubeObject | undefined, next: KubeObject, subresource: boolean): Owners {
    const liveOwners = () => {
      try {
        return decodeManagedFields(live?.metadata?.managedFields);
      } catch {
        return new Map() as Owners;
      }
    };
    if (subresource) return liveOwners();
    const sent = next.metadata?.managedFields as unknown[] | undefined;
    if (Array.isArray(sent) && (sent.length === 0 || (sent.length === 1 && isEmptyEntry(sent[0]))))
      return new Map();
    try {
      const owners = decodeManagedFields(sent);
      if (owners.size > 0) return owners;
    } catch {
      // a client that does not understand managedFields keeps the live ones
    }
    return liveOwners();
  }

  /**
   * Server-side apply: merges `config` into the live object by the declared list types, makes `manager` the
   * owner of exactly what it applied, removes what it stopped applying when nobody else owns it, and refuses
   * (409) to change fields other managers own unless `force`. The first apply by "kubectl" adopts, without
   * conflicts, the fields its client-side last-applied annotation still matches.
   * @param live the stored object (undefined: the apply creates it)
   * @returns the object to store, metadata.managedFields set; `changed` false when the apply changes nothing
   * @throws ApiStatusError 400 on a malformed configuration, 409 on conflicts, 500 on a value its schema refuses
   */
  apply(
    w: FieldWrite,
    live: KubeObject | undefined,
    config: unknown,
    force: boolean,
  ): { object: KubeObject; changed: boolean } {
    const apiVersion = apiVersionOf(w.def);
    if (config === null || typeof config !== 'object' || Array.isArray(config))
      throw badRequest('error decoding YAML: the apply configuration must be an object');
    const cfg = config as KubeObject;
    if (cfg.apiVersion !== apiVersion) {
      throw badRequest(
        `Incorrect version specified in apply patch. Specified patch version: ${String(cfg.apiVersion ?? '')}, expected: ${apiVersion}`,
      );
    }
    if (cfg.kind !== w.def.kind) {
      throw badRequest(
        `failed to create typed patch object (${apiVersion}, Kind=${String(cfg.kind ?? '')}): the kind in the data (${String(cfg.kind ?? '')}) does not match the expected kind (${w.def.kind})`,
      );
    }
    if (cfg.metadata?.managedFields !== undefined && cfg.metadata.managedFields !== null)
      throw badRequest('metadata.managedFields must be nil');
    const meta = cfg.metadata ?? {};
    const name = meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : `${meta.name ?? ''}`;
    const typedPatchError = (problems: string[]) =>
      new ApiStatusError(
        500,
        'InternalError',
        `failed to create typed patch object (${name}; ${apiVersion}, Kind=${w.def.kind}): ${
          problems.length === 1 ? problems[0] : ['errors:', ...problems.map((p) => `  ${p}`)].join('\n')
        }`,
      );
    const kind = this.kindSchema(w.def);
    if (kind) {
      const undeclared = undeclaredFields(cfg, kind.schema, kind.resolve, this.typeOf(w.def));
      if (undeclared.length)
        throw typedPatchError(undeclared.map((p) => `${pathToString(p)}: field not declared in schema`));
    }
    try {
      return this.applyTyped(w, live, cfg, force);
    } catch (error) {
      if (!(error instanceof TypedValueError)) throw error;
      throw typedPatchError([error.message]);
    }
  }

  private applyTyped(
    w: FieldWrite,
    live: KubeObject | undefined,
    config: KubeObject,
    force: boolean,
  ): { object: KubeObject; changed: boolean } {
    const type = this.typeOf(w.def);
    const ignored = this.ignored(w.def, w.subresource);
    let owners: Owners;
    try {
      owners = decodeManagedFields(live?.metadata?.managedFields);
    } catch {
      owners = new Map();
    }
    const liveValue = withoutManagedFields(live) ?? {};
    if (owners.size === 0 && live !== undefined) {
      // The first apply to an untracked object: what is there belongs to "before-first-apply" first.
      const entries = this.update({ ...w, manager: BEFORE_FIRST_APPLY }, undefined, liveValue as KubeObject);
      owners = decodeManagedFields(entries);
    }
    const me: Owner = {
      manager: w.manager,
      operation: 'Apply',
      apiVersion: apiVersionOf(w.def),
      subresource: w.subresource,
      time: w.time,
      set: FieldSet.empty(),
    };
    const myId = ownerId(me);
    const applied = this.ownedBy(toFieldSet(config, type), ignored);
    const attempt = (forced: boolean) => {
      const next: Owners = new Map([...owners].map(([k, o]) => [k, { ...o }]));
      const last = next.get(myId)?.set;
      next.delete(myId);
      next.set(myId, { ...me, set: applied });
      let merged = merge(liveValue, config, type) as Obj;
      if (last && !last.empty) {
        let everyone = FieldSet.empty();
        for (const o of next.values()) everyone = everyone.union(o.set);
        merged = removeDisowned(merged, type, last, everyone, applied) as Obj;
      }
      const cmp = compare(liveValue, merged, type, ignored);
      const changed = cmp.added.union(cmp.modified);
      const conflicts: { owner: Owner; at: FieldPath; path: string }[] = [];
      for (const [id, o] of next) {
        if (id === myId) continue;
        for (const at of o.set.intersection(changed).paths())
          conflicts.push({ owner: o, at, path: pathToString(at) });
      }
      if (conflicts.length && !forced) return { conflicts, merged, next };
      const removed = cmp.removed;
      for (const [id, o] of next) {
        if (id === myId) continue;
        const set = o.set.difference(changed).difference(removed);
        if (set.empty) next.delete(id);
        else next.set(id, { ...o, set });
      }
      return { conflicts: [], merged, next };
    };
    let out = attempt(force);
    if (out.conflicts.length && w.manager === KUBECTL_MANAGER) {
      const allowed = this.lastAppliedOwnership(w.def, type, liveValue);
      const rest = out.conflicts.filter((c) => !allowed?.has(c.at));
      if (rest.length === 0) out = attempt(true);
      else out.conflicts = rest;
    }
    if (out.conflicts.length) {
      out.conflicts.sort((a, b) =>
        ownerId(a.owner) < ownerId(b.owner) ? -1 : ownerId(a.owner) > ownerId(b.owner) ? 1 : 0,
      );
      throw applyConflictError(out.conflicts);
    }
    const object = out.merged as KubeObject;
    const annotations = object.metadata?.annotations;
    if (w.manager === KUBECTL_MANAGER && annotations?.[LAST_APPLIED_ANNOTATION] !== undefined) {
      // Keep client-side apply's record in step, so switching back to it sees what was applied here.
      const recorded = structuredClone(config) as KubeObject;
      if (recorded.metadata?.annotations) delete recorded.metadata.annotations[LAST_APPLIED_ANNOTATION];
      object.metadata = {
        ...object.metadata,
        annotations: { ...annotations, [LAST_APPLIED_ANNOTATION]: JSON.stringify(recorded) },
      };
    }
    const previous = encodeManagedFields(owners);
    const valueChanged =
      JSON.stringify(canonical(liveValue)) !== JSON.stringify(canonical(withoutManagedFields(object)));
    const sameOwnership = sameIgnoringTimes(previous, encodeManagedFields(out.next));
    object.metadata = {
      ...object.metadata,
      // A no-op apply keeps the old entries, timestamps included, so nothing is written.
      managedFields: !valueChanged && sameOwnership && live ? previous : encodeManagedFields(out.next),
    };
    return { object, changed: valueChanged || !sameOwnership };
  }

  /** What client-side apply's annotation says kubectl owns and the live object still holds unchanged. */
  private lastAppliedOwnership(def: ResourceDef, type: FieldType, live: Obj): FieldSet | undefined {
    const raw = (live.metadata as KubeObject['metadata'])?.annotations?.[LAST_APPLIED_ANNOTATION];
    if (!raw) return undefined;
    try {
      const last = JSON.parse(raw) as KubeObject;
      if (last.apiVersion !== apiVersionOf(def)) return undefined;
      const cmp = compare(last, live, type);
      return toFieldSet(last, type).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
    } catch {
      return undefined;
    }
  }
}

function isEmptyEntry(e: unknown): boolean {
  return e !== null && typeof e === 'object' && Object.keys(e as object).length === 0;
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .filter((k) => (v as Obj)[k] !== undefined)
      .map((k) => [k, canonical((v as Obj)[k])]),
  );
}

function sameIgnoringTimes(a: ManagedFieldsEntry[], b: ManagedFieldsEntry[]): boolean {
  const strip = (l: ManagedFieldsEntry[]) =>
    JSON.stringify(
      l
        .map(({ time: _t, ...rest }) => canonical(rest))
        .map((x) => JSON.stringify(x))
        .sort(),
    );
  return strip(a) === strip(b);
}

const CUSTOM_RESOURCE_TYPES = new WeakMap<ResourceDef, FieldType>();

/** A custom resource's merge types, from the structural schema of its CRD version (lists atomic unless declared). */
function customResourceTypes(def: ResourceDef): FieldType | undefined {
  let t = CUSTOM_RESOURCE_TYPES.get(def);
  if (t) return t;
  const schema = customResourceSchemaOf(def);
  if (!schema) return undefined;
  t = customResourceFieldType(schema);
  CUSTOM_RESOURCE_TYPES.set(def, t);
  return t;
}

/** Folds the oldest Update entries into "ancient-changes" buckets per apiVersion until at most ten remain. */
function capUpdateManagers(owners: Owners): void {
  const updaters = [...owners.entries()].filter(([, o]) => o.operation === 'Update').map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  const seconds = (id: string) => {
    const t = owners.get(id)?.time;
    return t ? Math.floor(Date.parse(t) / 1000) : 0;
  };
  updaters.sort((a, b) => seconds(a) - seconds(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const id = updaters[i]!;
    const o = owners.get(id)!;
    const bucket: Owner = {
      manager: ANCIENT_CHANGES,
      operation: 'Update',
      apiVersion: o.apiVersion,
      set: FieldSet.empty(),
    };
    const bucketId = ownerId(bucket);
    const first = firstOfVersion.get(o.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(o.apiVersion, id);
      continue;
    }
    if (!owners.has(bucketId)) {
      const f = owners.get(first)!;
      owners.delete(first);
      owners.set(bucketId, { ...bucket, set: f.set, time: f.time });
    }
    const b = owners.get(bucketId)!;
    owners.set(bucketId, { ...b, set: b.set.union(o.set), time: o.time });
    owners.delete(id);
    length--;
  }
}
