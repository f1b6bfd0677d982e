// The REST semantics of the embedded API server: create, update, patch, delete, bind, scale and list.
import { randomUUID } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../operators/types.ts';
import type { AdmissionChain, AdmissionRequest, AdmissionStore } from './admission/admission-chain.ts';
import { defaultAdmissionChain } from './admission/default-admission-chain.ts';
import { awaitServiceAccount, ensureDefaultServiceAccount } from './admission/service-account.ts';
import {
  ApiStatusError,
  alreadyExists,
  badRequest,
  conflict,
  expired,
  forbidden,
  invalid,
  notFound,
  STALE_OBJECT_MESSAGE,
  type StatusCause,
  success,
  unsupportedMediaType,
} from './api-status.ts';
import { FieldManager } from './apply/field-manager.ts';
import { bootstrapObjects } from './builtin/bootstrap-objects.ts';
import { BUILTIN_VALIDATORS } from './builtin/builtin-validation.ts';
import { approveCertificateSigningRequest } from './builtin/certificate-signing-request.ts';
import { CORE_EVENTS, EVENTS_V1, mirrorEvents } from './builtin/event-mirror.ts';
import { evictPod } from './builtin/eviction.ts';
import { loadServiceAccountKeys, type ServiceAccountKeys } from './builtin/service-account-token.ts';
import { createTokenRequest } from './builtin/token-request.ts';
import { enumCauses } from './enum-validation.ts';
import { JsonPatchError, jsonPatch } from './json-patch.ts';
import { isPlainObject, mergePatch } from './merge-patch.ts';
import type { ObjectStore, StoredObject } from './object-store.ts';
import { openApiSchemasOf } from './openapi/openapi-schemas.ts';
import { apiVersionOf, fieldAt, type ResourceDef, resourceId } from './resource-table.ts';
import { bothSelectors, fieldSelector, labelSelector, type Selector } from './selectors.ts';
import { StrategicMergePatchError, strategicMergePatch } from './strategic-merge-patch.ts';
import { validateObject } from './validation.ts';

type Obj = Record<string, unknown>;

/** The patch media types the server accepts. */
export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;
export type PatchType = (typeof PATCH_TYPES)[number];

/** Options of a create, update or patch: dry run, and who writes (recorded in metadata.managedFields). */
export interface WriteOptions {
  dryRun?: boolean;
  /** The field manager (the `fieldManager` parameter or the user agent's program); the server's own writes: kube-apiserver. */
  fieldManager?: string;
  /** Server-side apply: take ownership of conflicting fields. */
  force?: boolean;
  /** Internal: metadata.managedFields was already computed (by server-side apply). */
  applied?: boolean;
  /** Internal: the subresource recorded on the manager's entry when it differs from the one written (scale). */
  fieldsSubresource?: string;
}

/** The manager of writes the server makes itself, as kube-apiserver names it. */
const SERVER_MANAGER = 'kube-apiserver';

/** Options of a DELETE, from its DeleteOptions body or query. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** Options of a list, as query parameters. */
export interface ListQuery {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** One page of a list. */
export interface ListPage {
  items: StoredObject[];
  resourceVersion: number;
  continue?: string;
  remainingItemCount?: number;
}

/** Namespaces created at start and never deletable. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;
const UNDELETABLE_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);
const RETURN_DELETED_OBJECT = new Set(['pods', 'namespaces', 'services', 'nodes']);
const NAME_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/**
 * metadata.ownerReferences as upstream's ValidateOwnerReferences checks them (the garbage collector relies
 * on it): apiVersion with a version, kind, name and uid present, no Event as an owner, at most one controller.
 */
function ownerReferenceCauses(object: KubeObject): StatusCause[] {
  const refs = object.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return [];
  const field = 'metadata.ownerReferences';
  const bad = (at: string, value: unknown, why: string): StatusCause => ({
    type: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
    field: at,
  });
  const causes: StatusCause[] = [];
  let firstController = '';
  for (const ref of refs) {
    const apiVersion = typeof ref?.apiVersion === 'string' ? ref.apiVersion : '';
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (!version) causes.push(bad(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!ref?.kind) causes.push(bad(`${field}.kind`, ref?.kind ?? '', 'must not be empty'));
    if (!ref?.name) causes.push(bad(`${field}.name`, ref?.name ?? '', 'must not be empty'));
    if (!ref?.uid) causes.push(bad(`${field}.uid`, ref?.uid ?? '', 'must not be empty'));
    if (apiVersion === 'v1' && ref?.kind === 'Event')
      causes.push(bad(field, ref, '/v1, Kind=Event is disallowed from being an owner'));
    if (ref?.controller === true) {
      const name = `${ref.kind}/${ref.name}`;
      if (firstController)
        causes.push(
          bad(
            field,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
          ),
        );
      else firstController = name;
    }
  }
  return causes;
}

function keyOf(def: ResourceDef, namespace: string | undefined, name: string): string {
  return def.namespaced ? `${namespace}/${name}` : name;
}

function clone<T>(stored: StoredObject): T {
  return JSON.parse(stored.json) as T;
}

function child(object: KubeObject, field: string): Obj {
  const o = object as Obj;
  if (!isPlainObject(o[field])) o[field] = {};
  return o[field] as Obj;
}

/** The JSON of an object with keys sorted, for comparisons that ignore key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    isPlainObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

function selectorString(selector: unknown): string {
  if (!isPlainObject(selector)) return '';
  const parts: string[] = [];
  // A ReplicationController's selector is a plain label map.
  if (selector.matchLabels === undefined && selector.matchExpressions === undefined)
    return Object.entries(selector)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',');
  for (const [k, v] of Object.entries((selector.matchLabels as Obj | undefined) ?? {}))
    parts.push(`${k}=${String(v)}`);
  for (const e of (selector.matchExpressions as Obj[] | undefined) ?? []) {
    const values = ((e.values as string[] | undefined) ?? []).join(',');
    if (e.operator === 'In') parts.push(`${String(e.key)} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${String(e.key)} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(String(e.key));
    else if (e.operator === 'DoesNotExist') parts.push(`!${String(e.key)}`);
  }
  return parts.join(',');
}

/** A CRD scale path (`.spec.replicas`) as a dot path (`spec.replicas`), or the fallback when unset. */
function scalePath(path: string | undefined, fallback: string): string {
  return path ? path.replace(/^\./, '') : fallback;
}

/** Sets a dot path on a JSON object, creating the objects on the way. */
function setPath(object: KubeObject, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = object as Obj;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(cur[part])) cur[part] = {};
    cur = cur[part] as Obj;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** Encodes the continue token of a paginated list: the snapshot's rv and the last key returned. */
export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

function decodeContinue(token: string): { rv: number; start: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      rv?: unknown;
      start?: unknown;
    };
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string')
      return { rv: parsed.rv, start: parsed.start };
  } catch {
    // falls through to the error below
  }
  throw badRequest(`continue key is not valid: ${JSON.stringify(token)}`);
}

function parseRv(value: string, field: string): number {
  if (!/^\d+$/.test(value)) {
    throw invalid({ kind: 'ListOptions', group: 'meta.k8s.io' }, [
      {
        type: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(value)}: must be a non-negative integer`,
        field,
      },
    ]);
  }
  return Number(value);
}

function listOptionsInvalid(field: string, message: string): ApiStatusError {
  return invalid({ kind: 'ListOptions', group: 'meta.k8s.io' }, [
    { type: 'FieldValueForbidden', message, field },
  ]);
}

/**
 * The resources' REST behaviour over an {@link ObjectStore}. All methods are synchronous: each
 * request's checks and its commit happen without yielding, so concurrent requests never interleave.
 */
export class Registry {
  readonly store: ObjectStore;
  /** The served rows: the given table, then rows added at run time by {@link Registry.serve} (CRDs). */
  readonly table: readonly ResourceDef[];
  private readonly rows: ResourceDef[];
  private readonly served = new Map<string, readonly ResourceDef[]>();
  private readonly now: () => number;
  private readonly random: () => number;
  /** kube-apiserver's admission chain, run on create and update (mutating, then validating). */
  readonly admission: AdmissionChain;
  /** Server-side apply and metadata.managedFields; CRDs add their schemas' list types with `useSchemas`. */
  readonly fieldManager = new FieldManager(this);
  private readonly admissionStore: AdmissionStore;

  constructor(
    store: ObjectStore,
    table: readonly ResourceDef[],
    options: {
      now?: () => number;
      random?: () => number;
      admission?: AdmissionChain;
      serviceAccountKeys?: ServiceAccountKeys;
      /**
       * The API server does the work of kube-controller-manager's namespace and serviceaccount controllers
       * itself, for a server run without them: a deleted namespace is emptied and removed at once, and every
       * namespace gets (and keeps) its `default` ServiceAccount. Default false, as kube-apiserver: a deleted
       * namespace stays Terminating until a namespace controller empties it and calls `finalize`.
       */
      builtinNamespaceControllers?: boolean;
    } = {},
  ) {
    this.builtinNamespaceControllers = options.builtinNamespaceControllers === true;
    this.store = store;
    this.rows = [...table];
    this.table = this.rows;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.admission = options.admission ?? defaultAdmissionChain();
    this.admissionStore = this.asAdmissionStore();
    this.keys = options.serviceAccountKeys;
    const served = new Set(table.map(resourceId));
    if (served.has(CORE_EVENTS) && served.has(EVENTS_V1)) this.stopMirror = mirrorEvents(store);
  }

  private readonly stopMirror: (() => void) | undefined;

  /** Stops what the registry runs beside requests (the Event mirror), before its storage closes. */
  stop(): void {
    this.stopMirror?.();
  }

  private keys: ServiceAccountKeys | undefined;
  /** See the constructor's `builtinNamespaceControllers`. */
  readonly builtinNamespaceControllers: boolean;

  /**
   * Serves `defs` on behalf of `owner` (a CRD's name), replacing what that owner served before; an
   * empty list stops serving them. The table is shared: the handler and discovery see the change at once.
   */
  serve(owner: string, defs: readonly ResourceDef[]): void {
    for (const old of this.served.get(owner) ?? []) {
      const i = this.rows.indexOf(old);
      if (i >= 0) this.rows.splice(i, 1);
    }
    if (defs.length) this.served.set(owner, defs);
    else this.served.delete(owner);
    this.rows.push(...defs);
  }

  /** The key service account tokens are signed with: the one given, else one made in memory on first use. */
  get serviceAccountKeys(): ServiceAccountKeys {
    this.keys ??= loadServiceAccountKeys();
    return this.keys;
  }

  /**
   * POST to a built-in subresource other than binding: serviceaccounts/NAME/token and pods/NAME/eviction.
   * @returns the status code and body, or undefined when the subresource is not one of them
   */
  async postSubresource(
    def: ResourceDef,
    namespace: string,
    name: string,
    subresource: string,
    body: unknown,
  ): Promise<{ code: number; body: unknown } | undefined> {
    if (def.group !== '') return undefined;
    if (def.resource === 'serviceaccounts' && subresource === 'token') {
      const sa = this.get(def, namespace, name).object;
      const lookup = (kind: string, ns: string | undefined, n: string) =>
        this.admissionStore.get(`${kind.toLowerCase()}s`, ns, n);
      const out = await createTokenRequest(
        this.serviceAccountKeys,
        sa,
        body,
        lookup,
        Math.floor(this.now() / 1000),
      );
      return { code: 201, body: out };
    }
    if (def.resource === 'pods' && subresource === 'eviction') {
      const pdbs = this.table.find((x) => resourceId(x) === 'policy/poddisruptionbudgets');
      const out = evictPod(
        {
          getPod: (ns, n) => this.get(def, ns, n).object,
          listBudgets: (ns) => this.admissionStore.list('policy/poddisruptionbudgets', ns),
          writeBudgetStatus: (ns, n, status) => {
            if (pdbs) this.admissionStore.writeStatus('policy/poddisruptionbudgets', ns, n, status);
          },
          deletePod: (ns, n, options) => this.delete(def, ns, n, options as DeleteOptions),
          now: () => this.timestamp(),
        },
        namespace,
        name,
        body,
      );
      return { code: 201, body: out };
    }
    return undefined;
  }

  /** The registry as admission plugins see it: reads, and writes made by the server itself. */
  private asAdmissionStore(): AdmissionStore {
    const served = (id: string) => this.table.find((x) => resourceId(x) === id);
    return {
      serves: (id) => served(id) !== undefined,
      get: (id, namespace, name) => {
        const d = served(id);
        return d ? this.store.get(id, keyOf(d, namespace, name))?.object : undefined;
      },
      list: (id, namespace) => {
        const d = served(id);
        if (!d) return [];
        const prefix = d.namespaced && namespace ? `${namespace}/` : '';
        const out: KubeObject[] = [];
        for (const [key, stored] of this.store.current(id))
          if (key.startsWith(prefix)) out.push(stored.object);
        return out;
      },
      createAsServer: (id, namespace, object) => {
        const d = served(id);
        if (!d || this.store.get(id, keyOf(d, namespace, String(object.metadata?.name)))) return;
        this.create(d, namespace, object);
      },
      writeStatus: (id, namespace, name, status) => {
        const d = served(id);
        const existing = d && this.store.get(id, keyOf(d, namespace, name));
        if (!d || !existing) return;
        const next = { ...clone<KubeObject>(existing), status };
        this.store.commit(id, keyOf(d, namespace, name), 'MODIFIED', next);
      },
      random: this.random,
    };
  }

  private def(resource: string): ResourceDef {
    const d = this.table.find((x) => resourceId(x) === resource);
    if (!d) throw new Error(`no such resource ${resource}`);
    return d;
  }

  private timestamp(offsetSeconds = 0): string {
    return new Date(Math.floor(this.now() / 1000) * 1000 + offsetSeconds * 1000)
      .toISOString()
      .replace('.000Z', 'Z');
  }

  /**
   * Creates the system namespaces when they are missing, and their `default` ServiceAccounts (with
   * builtinNamespaceControllers, every namespace's); a namespace being deleted gets nothing new.
   */
  bootstrap(): void {
    const ns = this.def('namespaces');
    for (const name of SYSTEM_NAMESPACES) {
      if (!this.store.get('namespaces', name)) this.create(ns, undefined, { metadata: { name } });
    }
    for (const b of bootstrapObjects()) this.admissionStore.createAsServer(b.resource, b.namespace, b.object);
    if (!this.admissionStore.serves('serviceaccounts')) return;
    for (const [key, stored] of this.store.current('namespaces')) {
      if (stored.object.metadata?.deletionTimestamp) continue;
      if (this.builtinNamespaceControllers || (SYSTEM_NAMESPACES as readonly string[]).includes(key))
        ensureDefaultServiceAccount(this.admissionStore, key);
    }
  }

  /** Reads one object. @throws 404 */
  get(def: ResourceDef, namespace: string | undefined, name: string): StoredObject {
    const stored = this.store.get(resourceId(def), keyOf(def, namespace, name));
    if (!stored) throw notFound({ group: def.group, name }, def.resource);
    return stored;
  }

  private checkBody(
    def: ResourceDef,
    body: unknown,
    namespace: string | undefined,
    expectKind = def.kind,
  ): KubeObject {
    if (!isPlainObject(body)) throw badRequest(`the body of the request is not a ${expectKind} object`);
    const obj = body as KubeObject;
    const apiVersion =
      expectKind === def.kind ? apiVersionOf(def) : expectKind === 'Scale' ? 'autoscaling/v1' : 'v1';
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion) {
      throw badRequest(
        `apiVersion: the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`,
      );
    }
    if (obj.kind !== undefined && obj.kind !== expectKind) {
      throw badRequest(
        `kind: the kind in the data (${String(obj.kind)}) does not match the expected kind (${expectKind})`,
      );
    }
    if (obj.metadata !== undefined && !isPlainObject(obj.metadata))
      throw badRequest('metadata: must be an object');
    const meta = child(obj, 'metadata') as NonNullable<KubeObject['metadata']>;
    if (def.namespaced) {
      if (meta.namespace && namespace && meta.namespace !== namespace) {
        throw badRequest(
          `metadata.namespace: the namespace of the provided object (${meta.namespace}) does not match the namespace sent on the request (${namespace})`,
        );
      }
      if (namespace) meta.namespace = namespace;
    } else {
      delete meta.namespace;
    }
    obj.apiVersion = apiVersion;
    obj.kind = expectKind;
    if (expectKind === def.kind) def.normalize?.(obj);
    return obj;
  }

  private checkNamespace(def: ResourceDef, namespace: string | undefined, name: string): void {
    if (!def.namespaced) return;
    if (!namespace) throw badRequest('metadata.namespace: a namespaced resource needs a namespace');
    const ns = this.store.get('namespaces', namespace);
    if (!ns) throw notFound({ name: namespace }, 'namespaces');
    if (ns.object.metadata?.deletionTimestamp) {
      // with upstream's NamespaceTerminating cause, which controllers read to stop retrying
      throw new ApiStatusError(
        403,
        'Forbidden',
        `${def.resource} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        {
          name,
          group: def.group,
          kind: def.resource,
          causes: [
            {
              type: 'NamespaceTerminating',
              message: `namespace ${namespace} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        },
      );
    }
  }

  private invalidIf(def: ResourceDef, object: KubeObject, extra: StatusCause[] = [], old?: KubeObject): void {
    const kindRules = BUILTIN_VALIDATORS[resourceId(def)]?.(object, old) ?? [];
    const causes = [
      ...validateObject(def, object),
      ...ownerReferenceCauses(object),
      ...enumCauses(openApiSchemasOf(this), def, object),
      ...kindRules,
      ...(def.validate?.(object, old) ?? []),
      ...extra,
    ];
    if (causes.length)
      throw invalid({ group: def.group, kind: def.kind, name: object.metadata?.name }, causes);
  }

  private generatedName(prefix: string): string {
    let suffix = '';
    for (let i = 0; i < 5; i++)
      suffix += NAME_SUFFIX_ALPHABET[Math.floor(this.random() * NAME_SUFFIX_ALPHABET.length)];
    return `${prefix.slice(0, 58)}${suffix}`;
  }

  /**
   * POST: creates an object. Checks the body, namespace, name (or generateName), validates, refuses a
   * duplicate with 409 AlreadyExists, then commits; a refused request changes nothing.
   */
  create(
    def: ResourceDef,
    namespace: string | undefined,
    body: unknown,
    options: WriteOptions = {},
  ): KubeObject {
    const obj = this.checkBody(def, body, namespace);
    const meta = obj.metadata!;
    const presetRv = meta.resourceVersion;
    if (!meta.name && typeof meta.generateName === 'string' && meta.generateName) {
      for (let tries = 0; tries < 8; tries++) {
        meta.name = this.generatedName(meta.generateName);
        if (!this.store.get(resourceId(def), keyOf(def, meta.namespace, meta.name))) break;
      }
    }
    this.checkNamespace(def, meta.namespace, String(meta.name ?? ''));
    meta.uid = randomUUID();
    meta.creationTimestamp = this.timestamp();
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (def.subresources.includes('status') && def.resource !== 'nodes' && def.resource !== 'namespaces')
      delete obj.status;
    if (isPlainObject(obj.spec)) meta.generation = 1;
    else delete meta.generation;
    def.defaults?.(obj);
    if (!options.applied) this.recordFields(def, undefined, obj, undefined, options);
    const request: AdmissionRequest = {
      operation: 'CREATE',
      def,
      namespace: meta.namespace,
      name: String(meta.name ?? ''),
      object: obj,
      dryRun: options.dryRun,
    };
    this.admission.admit(request, this.admissionStore);
    this.invalidIf(def, obj);
    const key = keyOf(def, meta.namespace, meta.name!);
    if (this.store.get(resourceId(def), key))
      throw alreadyExists({ group: def.group, name: meta.name }, def.resource);
    if (presetRv) {
      // kube-apiserver's storage layer refuses this with a bare 500, after validation.
      throw new ApiStatusError(
        500,
        'InternalError',
        'resourceVersion should not be set on objects to be created',
      );
    }
    if (options.dryRun) return obj;
    const created = this.store.commit(resourceId(def), key, 'ADDED', obj).object;
    this.admission.committed(request, this.admissionStore);
    if (this.builtinNamespaceControllers && def.group === '' && def.resource === 'namespaces')
      ensureDefaultServiceAccount(this.admissionStore, String(meta.name));
    return created;
  }

  /** Everything about an update shared by PUT and PATCH: preconditions, preserved fields, no-op detection. */
  private replace(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    body: unknown,
    subresource: string | undefined,
    options: WriteOptions = {},
  ): KubeObject {
    const existing = this.get(def, namespace, name);
    const old = clone<KubeObject>(existing);
    const incoming = this.checkBody(def, body, namespace);
    const inMeta = incoming.metadata!;
    if (inMeta.name !== undefined && inMeta.name !== name) {
      throw badRequest(
        `metadata.name: the name of the object (${String(inMeta.name)}) does not match the name on the URL (${name})`,
      );
    }
    if (inMeta.resourceVersion && inMeta.resourceVersion !== String(existing.rv)) {
      throw conflict({ group: def.group, name }, def.resource, STALE_OBJECT_MESSAGE);
    }
    if (inMeta.uid && inMeta.uid !== old.metadata?.uid) {
      throw conflict(
        { group: def.group, name },
        def.resource,
        `Precondition failed: UID in precondition: ${String(inMeta.uid)}, UID in object meta: ${String(old.metadata?.uid)}`,
      );
    }
    let next: KubeObject;
    if (subresource === 'status') {
      next = { ...old, status: incoming.status };
      if (incoming.status === undefined) delete next.status;
      if (def.validate) this.invalidIf(def, next, [], old);
    } else if (subresource === 'approval') {
      next = approveCertificateSigningRequest(old, incoming);
    } else if (subresource === 'finalize') {
      next = {
        ...old,
        spec: { ...(old.spec as Obj), finalizers: (incoming.spec as Obj | undefined)?.finalizers ?? [] },
      };
    } else {
      const meta = { ...inMeta };
      meta.name = name;
      meta.uid = old.metadata?.uid;
      meta.creationTimestamp = old.metadata?.creationTimestamp;
      if (def.namespaced) meta.namespace = namespace;
      delete meta.selfLink;
      for (const f of ['deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const) {
        if (old.metadata?.[f] === undefined) delete meta[f];
        else (meta as Record<string, unknown>)[f] = old.metadata[f];
      }
      next = { ...incoming, metadata: meta };
      if (def.subresources.includes('status')) {
        if (old.status === undefined) delete next.status;
        else next.status = old.status;
      }
      const causes: StatusCause[] = [];
      if (old.metadata?.deletionTimestamp) {
        const before = new Set(old.metadata.finalizers ?? []);
        const added = (meta.finalizers ?? []).filter((f) => !before.has(f));
        if (added.length) {
          causes.push({
            type: 'FieldValueForbidden',
            message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
            field: 'metadata.finalizers',
          });
        }
      }
      this.immutableRules(def, old, next, causes);
      if (!options.applied) this.recordFields(def, old, next, options.fieldsSubresource, options);
      this.admission.admit(
        { operation: 'UPDATE', def, namespace, name, object: next, oldObject: old, dryRun: options.dryRun },
        this.admissionStore,
      );
      this.invalidIf(def, next, causes, old);
      const generationPart = def.generationPart ?? ((o: KubeObject) => o.spec);
      if (
        meta.generation !== undefined &&
        canonical(generationPart(old)) !== canonical(generationPart(next))
      ) {
        meta.generation = (old.metadata?.generation ?? 0) + 1;
      }
    }
    if (subresource && options.applied)
      next.metadata = { ...next.metadata, managedFields: inMeta.managedFields };
    else if (subresource) this.recordFields(def, old, next, subresource, options);
    next.metadata = { ...next.metadata, resourceVersion: String(existing.rv) };
    if (canonical(next) === canonical(old)) return existing.object;
    if (options.dryRun) return next;
    const nm = next.metadata;
    if (
      nm.deletionTimestamp &&
      (nm.finalizers ?? []).length === 0 &&
      !nm.deletionGracePeriodSeconds &&
      (!Array.isArray((next.spec as Obj | undefined)?.finalizers) ||
        ((next.spec as Obj).finalizers as unknown[]).length === 0)
    ) {
      const event = this.store.commit(resourceId(def), keyOf(def, namespace, name), 'DELETED', next);
      this.afterDelete(def, namespace);
      return event.object;
    }
    const updated = this.store.commit(resourceId(def), keyOf(def, namespace, name), 'MODIFIED', next).object;
    this.admission.committed(
      { operation: 'UPDATE', def, namespace, name, object: updated, oldObject: old, subresource },
      this.admissionStore,
    );
    return updated;
  }

  /** Sets next.metadata.managedFields for a write of operation Update by the request's field manager. */
  private recordFields(
    def: ResourceDef,
    old: KubeObject | undefined,
    next: KubeObject,
    subresource: string | undefined,
    options: WriteOptions,
  ): void {
    const entries = this.fieldManager.update(
      { def, manager: options.fieldManager ?? SERVER_MANAGER, subresource, time: this.timestamp() },
      old,
      next,
    );
    const meta = next.metadata ?? {};
    if (entries?.length) meta.managedFields = entries;
    else delete meta.managedFields;
    next.metadata = meta;
  }

  /**
   * PATCH with application/apply-patch+yaml: server-side apply of `raw` by `options.fieldManager`, creating
   * the object when it does not exist. @throws 400, 404 (a subresource of a missing object), 409 conflicts
   */
  private serverSideApply(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    raw: string,
    subresource: string | undefined,
    options: WriteOptions,
  ): { object: KubeObject; created: boolean } {
    let config: unknown;
    try {
      config = parseYaml(raw);
    } catch (error) {
      throw badRequest(`error decoding YAML: ${error instanceof Error ? error.message : String(error)}`);
    }
    const existing = this.store.get(resourceId(def), keyOf(def, namespace, name));
    if (!existing && subresource) throw notFound({ group: def.group, name }, def.resource);
    const cfgMeta = isPlainObject(config) && isPlainObject(config.metadata) ? config.metadata : {};
    if (cfgMeta.name !== undefined && cfgMeta.name !== name)
      throw badRequest(
        `metadata.name: the name of the object (${String(cfgMeta.name)}) does not match the name on the URL (${name})`,
      );
    // A resourceVersion in the configuration is a precondition, even for an apply that changes nothing.
    if (existing && cfgMeta.resourceVersion && String(cfgMeta.resourceVersion) !== String(existing.rv))
      throw conflict({ group: def.group, name }, def.resource, STALE_OBJECT_MESSAGE);
    const live = existing && (def.present ? def.present(existing.object) : clone<KubeObject>(existing));
    const out = this.fieldManager.apply(
      { def, manager: options.fieldManager ?? '', subresource, time: this.timestamp() },
      live,
      config,
      options.force === true,
    );
    const write = { ...options, applied: true };
    if (!existing) {
      out.object.metadata = { ...out.object.metadata, name };
      return { object: this.create(def, namespace, out.object, write), created: true };
    }
    if (!out.changed) return { object: existing.object, created: false };
    // As decoding does upstream: a field the applier gave up and nobody else holds gets its default back.
    def.defaults?.(out.object);
    return { object: this.replace(def, namespace, name, out.object, subresource, write), created: false };
  }

  private immutableRules(def: ResourceDef, old: KubeObject, next: KubeObject, causes: StatusCause[]): void {
    if (def.resource === 'pods') {
      const strip = (spec: unknown) => {
        const s = { ...((spec as Obj | undefined) ?? {}) };
        for (const list of ['containers', 'initContainers']) {
          if (Array.isArray(s[list])) s[list] = (s[list] as Obj[]).map(({ image: _image, ...rest }) => rest);
        }
        delete s.activeDeadlineSeconds;
        delete s.tolerations;
        delete s.terminationGracePeriodSeconds;
        return canonical(s);
      };
      if (strip(old.spec) !== strip(next.spec)) {
        causes.push({
          type: 'FieldValueForbidden',
          message:
            'Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds`',
          field: 'spec',
        });
      }
    }
    if (def.group === 'apps' || def.resource === 'jobs') {
      const a = fieldAt(old, 'spec.selector');
      const b = fieldAt(next, 'spec.selector');
      if (a !== undefined && canonical(a) !== canonical(b)) {
        causes.push({
          type: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(b)}: field is immutable`,
          field: 'spec.selector',
        });
      }
    }
  }

  /** PUT on an object or its `status` / `finalize` subresource. @throws 404, 409, 422, 400 */
  update(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    body: unknown,
    subresource?: string,
    options: WriteOptions = {},
  ): KubeObject {
    return this.replace(def, namespace, name, body, subresource, options);
  }

  /** Applies a patch document of the given type to a JSON value. */
  applyPatch(current: Obj, type: string, raw: string): Obj {
    let patch: unknown;
    try {
      patch = type === 'application/apply-patch+yaml' ? parseYaml(raw) : JSON.parse(raw);
    } catch (error) {
      throw badRequest(`error decoding patch: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      switch (type) {
        case 'application/json-patch+json':
          return jsonPatch(current, patch) as Obj;
        case 'application/merge-patch+json':
          if (!isPlainObject(patch)) throw badRequest('a merge patch must be a JSON object');
          return mergePatch(current, patch) as Obj;
        case 'application/strategic-merge-patch+json':
        case 'application/apply-patch+yaml':
          return strategicMergePatch(current, patch);
        default:
          throw unsupportedMediaType(type);
      }
    } catch (error) {
      if (error instanceof JsonPatchError || error instanceof StrategicMergePatchError) {
        throw new ApiStatusError(
          422,
          'Invalid',
          `the server rejected our request due to an error in our request: ${error.message}`,
        );
      }
      throw error;
    }
  }

  /** PATCH on an object or its `status` subresource. @throws 404, 409, 422, 400, 415 */
  patch(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    type: string,
    raw: string,
    subresource?: string,
    options: WriteOptions = {},
  ): { object: KubeObject; created: boolean } {
    if (type === 'application/apply-patch+yaml')
      return this.serverSideApply(def, namespace, name, raw, subresource, options);
    const existing = this.store.get(resourceId(def), keyOf(def, namespace, name));
    if (!existing) throw notFound({ group: def.group, name }, def.resource);
    const base = def.present ? (def.present(existing.object) as Obj) : clone<Obj>(existing);
    const patched = this.applyPatch(base, type, raw);
    return { object: this.replace(def, namespace, name, patched, subresource, options), created: false };
  }

  /**
   * DELETE: honours preconditions, propagationPolicy (recorded as the `orphan` /
   * `foregroundDeletion` finalizers), pods' graceful deletion, and finalizers (the object stays
   * with a deletionTimestamp until they are gone).
   * @returns the body to answer with and whether the object is gone
   */
  delete(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): { body: KubeObject; gone: boolean } {
    if (def.resource === 'namespaces' && UNDELETABLE_NAMESPACES.has(name)) {
      throw forbidden(
        `namespaces "${name}" is forbidden: this namespace may not be deleted`,
        { name },
        'namespaces',
      );
    }
    const existing = this.get(def, namespace, name);
    const obj = clone<KubeObject>(existing);
    const meta = child(obj, 'metadata') as NonNullable<KubeObject['metadata']>;
    const pre = options.preconditions ?? {};
    if (pre.uid && pre.uid !== meta.uid) {
      throw conflict(
        { group: def.group, name },
        def.resource,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(meta.uid)}`,
      );
    }
    if (pre.resourceVersion && pre.resourceVersion !== String(existing.rv)) {
      throw conflict(
        { group: def.group, name },
        def.resource,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${existing.rv}`,
      );
    }
    if (
      options.propagationPolicy !== undefined &&
      !['Orphan', 'Background', 'Foreground'].includes(options.propagationPolicy)
    ) {
      throw invalid({ group: def.group, kind: 'DeleteOptions', name }, [
        {
          type: 'FieldValueNotSupported',
          message: `Unsupported value: "${options.propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`,
          field: 'propagationPolicy',
        },
      ]);
    }
    if (
      options.gracePeriodSeconds !== undefined &&
      (!Number.isInteger(options.gracePeriodSeconds) || options.gracePeriodSeconds < 0)
    ) {
      throw invalid({ group: def.group, kind: 'DeleteOptions', name }, [
        {
          type: 'FieldValueInvalid',
          message: `Invalid value: ${options.gracePeriodSeconds}: must be >= 0`,
          field: 'gracePeriodSeconds',
        },
      ]);
    }
    const policy =
      options.propagationPolicy ??
      (options.orphanDependents === true
        ? 'Orphan'
        : options.orphanDependents === false
          ? 'Background'
          : undefined);
    let finalizers = [...(meta.finalizers ?? [])];
    const effective =
      policy ??
      (finalizers.includes(ORPHAN)
        ? 'Orphan'
        : finalizers.includes(FOREGROUND)
          ? 'Foreground'
          : (def.defaultPropagation ?? 'Background'));
    if (effective === 'Orphan')
      finalizers = [...finalizers.filter((f) => f !== FOREGROUND && f !== ORPHAN), ORPHAN];
    else if (effective === 'Foreground')
      finalizers = [...finalizers.filter((f) => f !== ORPHAN && f !== FOREGROUND), FOREGROUND];
    else finalizers = finalizers.filter((f) => f !== ORPHAN && f !== FOREGROUND);

    let grace = 0;
    if (def.gracefulDelete) {
      const spec = (obj.spec ?? {}) as Obj;
      const phase = fieldAt(obj, 'status.phase');
      grace =
        options.gracePeriodSeconds ??
        (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30);
      if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') grace = 0;
    }
    const nsPending =
      def.resource === 'namespaces' &&
      (((obj.spec as Obj | undefined)?.finalizers as unknown[] | undefined) ?? []).length > 0;
    if (finalizers.length === 0 && grace === 0 && !nsPending) {
      if (options.dryRun) return { body: obj, gone: true };
      const event = this.store.commit(resourceId(def), keyOf(def, namespace, name), 'DELETED', obj);
      this.afterDelete(def, namespace);
      return {
        body: RETURN_DELETED_OBJECT.has(def.resource)
          ? event.object
          : success({ name, group: def.group, kind: def.resource, uid: meta.uid }),
        gone: true,
      };
    }
    // The object stays: mark it as being deleted.
    const wasDeleting = meta.deletionTimestamp !== undefined;
    if (grace > 0) {
      const current = meta.deletionGracePeriodSeconds;
      if (!wasDeleting || (current !== undefined && grace < current)) {
        meta.deletionTimestamp = this.timestamp(grace);
        meta.deletionGracePeriodSeconds = grace;
      }
    } else if (!wasDeleting || (meta.deletionGracePeriodSeconds ?? 0) > 0) {
      meta.deletionTimestamp = this.timestamp();
      meta.deletionGracePeriodSeconds = 0;
    }
    if (!wasDeleting && typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
    if (finalizers.length) meta.finalizers = finalizers;
    else delete meta.finalizers;
    if (def.resource === 'namespaces') obj.status = { ...(obj.status as Obj), phase: 'Terminating' };
    if (options.dryRun) return { body: obj, gone: false };
    let result = existing.object;
    if (canonical(obj) !== canonical(existing.object)) {
      result = this.store.commit(resourceId(def), keyOf(def, namespace, name), 'MODIFIED', obj).object;
    }
    if (def.resource === 'namespaces') {
      // kube-apiserver leaves the content to the namespace controller; a server without one empties it here
      if (this.builtinNamespaceControllers) this.emptyNamespace(name);
      const after = this.store.get('namespaces', name);
      return { body: after?.object ?? result, gone: after === undefined };
    }
    if (finalizers.length === 0 && grace === 0) {
      const event = this.store.commit(resourceId(def), keyOf(def, namespace, name), 'DELETED', result);
      this.afterDelete(def, namespace);
      return { body: event.object, gone: true };
    }
    return { body: result, gone: false };
  }

  /** With builtinNamespaceControllers, what the namespace controller does: delete every object in a terminating namespace, then finalize it. */
  private emptyNamespace(namespace: string): void {
    for (const def of this.table) {
      if (!def.namespaced) continue;
      const prefix = `${namespace}/`;
      for (const [key, stored] of [...this.store.current(resourceId(def))]) {
        if (!key.startsWith(prefix) || stored.object.metadata?.deletionTimestamp) continue;
        this.delete(def, namespace, key.slice(prefix.length), {});
      }
    }
    this.finishNamespace(namespace);
  }

  private finishNamespace(namespace: string): void {
    const ns = this.store.get('namespaces', namespace);
    if (!ns?.object.metadata?.deletionTimestamp) return;
    const prefix = `${namespace}/`;
    for (const def of this.table) {
      if (!def.namespaced) continue;
      for (const key of this.store.current(resourceId(def)).keys()) if (key.startsWith(prefix)) return;
    }
    const obj = clone<KubeObject>(ns);
    obj.spec = { ...(obj.spec as Obj), finalizers: [] };
    if ((obj.metadata?.finalizers ?? []).length > 0) {
      this.store.commit('namespaces', namespace, 'MODIFIED', obj);
      return;
    }
    this.store.commit('namespaces', namespace, 'DELETED', obj);
  }

  private afterDelete(def: ResourceDef, namespace: string | undefined): void {
    this.admission.committed(
      { operation: 'DELETE', def, namespace, name: '', object: {} },
      this.admissionStore,
    );
    if (!this.builtinNamespaceControllers || !def.namespaced || !namespace) return;
    // as the serviceaccount controller does: a deleted `default` comes back unless its namespace is going
    if (def.group === '' && def.resource === 'serviceaccounts') {
      const ns = this.store.get('namespaces', namespace);
      if (ns && !ns.object.metadata?.deletionTimestamp)
        ensureDefaultServiceAccount(this.admissionStore, namespace);
    }
    this.finishNamespace(namespace);
  }

  /**
   * Before a pod is created: as kube-apiserver's ServiceAccount admission does, a pod that uses a
   * namespace's `default` ServiceAccount (named or not) waits up to ten looks, 100–200 ms apart, for the
   * serviceaccount controller to create it, so a pod created right after its namespace is not refused.
   * Does nothing with builtinNamespaceControllers (the account is created with the namespace).
   */
  async awaitDefaultServiceAccount(
    def: ResourceDef,
    namespace: string | undefined,
    body: unknown,
  ): Promise<void> {
    if (this.builtinNamespaceControllers || def.group !== '' || def.resource !== 'pods' || !namespace) return;
    if (!this.admissionStore.serves('serviceaccounts') || !this.store.get('namespaces', namespace)) return;
    const meta = isPlainObject(body) && isPlainObject(body.metadata) ? body.metadata : {};
    // mirror pods are not given an account, so they wait for none
    if (isPlainObject(meta.annotations) && meta.annotations['kubernetes.io/config.mirror'] !== undefined)
      return;
    const spec = isPlainObject(body) && isPlainObject(body.spec) ? body.spec : {};
    const name =
      typeof spec.serviceAccountName === 'string' && spec.serviceAccountName
        ? spec.serviceAccountName
        : 'default';
    if (name !== 'default') return;
    await awaitServiceAccount(this.admissionStore, namespace, name, 100 + Math.floor(this.random() * 100));
  }

  /** DELETE on a collection: deletes every matching object, returns the list of what it touched. */
  deleteCollection(
    def: ResourceDef,
    namespace: string | undefined,
    query: ListQuery,
    options: DeleteOptions,
  ): KubeObject[] {
    const page = this.list(def, namespace, {
      labelSelector: query.labelSelector,
      fieldSelector: query.fieldSelector,
    });
    const out: KubeObject[] = [];
    for (const item of page.items) {
      const meta = item.object.metadata!;
      try {
        out.push(this.delete(def, meta.namespace, meta.name!, options).body);
      } catch (error) {
        if (!(error instanceof ApiStatusError && error.statusCode === 404)) throw error;
      }
    }
    return out;
  }

  /** POST pods/NAME/binding: sets spec.nodeName once. @throws 409 when already bound or being deleted */
  bind(def: ResourceDef, namespace: string, name: string | undefined, body: unknown): KubeObject {
    if (!isPlainObject(body)) throw badRequest('the body of the request is not a Binding object');
    const binding = body as KubeObject & { target?: { kind?: string; name?: string } };
    if (binding.kind !== undefined && binding.kind !== 'Binding')
      throw badRequest(`kind: expected Binding, got ${String(binding.kind)}`);
    const podName = name ?? binding.metadata?.name;
    if (name !== undefined && binding.metadata?.name !== undefined && binding.metadata.name !== name) {
      throw badRequest(
        `metadata.name: the name of the binding (${binding.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    if (binding.metadata?.namespace && binding.metadata.namespace !== namespace) {
      throw badRequest(
        'metadata.namespace: the namespace of the binding does not match the namespace sent on the request',
      );
    }
    const target = binding.target;
    if (!target?.name) {
      throw invalid({ kind: 'Binding', name: podName }, [
        { type: 'FieldValueRequired', message: 'Required value', field: 'target.name' },
      ]);
    }
    if (target.kind && target.kind !== 'Node') {
      throw invalid({ kind: 'Binding', name: podName }, [
        {
          type: 'FieldValueNotSupported',
          message: `Unsupported value: "${target.kind}": supported values: "Node"`,
          field: 'target.kind',
        },
      ]);
    }
    if (!podName) throw badRequest('metadata.name: a binding needs the pod name');
    const existing = this.get(def, namespace, podName);
    const pod = clone<KubeObject>(existing);
    const spec = child(pod, 'spec');
    if (pod.metadata?.deletionTimestamp)
      throw conflict({ name: podName }, 'pods', 'pod is being deleted, cannot be assigned to a host');
    if (spec.nodeName)
      throw conflict(
        { name: podName },
        'pods',
        `pod ${podName} is already assigned to node "${String(spec.nodeName)}"`,
      );
    spec.nodeName = target.name;
    const annotations = binding.metadata?.annotations;
    if (annotations && Object.keys(annotations).length) {
      pod.metadata = { ...pod.metadata, annotations: { ...pod.metadata?.annotations, ...annotations } };
    }
    const status = child(pod, 'status');
    const conditions = ((status.conditions as Obj[] | undefined) ?? []).filter(
      (c) => c.type !== 'PodScheduled',
    );
    conditions.push({
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: this.timestamp(),
    });
    status.conditions = conditions;
    this.store.commit('pods', keyOf(def, namespace, podName), 'MODIFIED', pod);
    return success(undefined, 201);
  }

  /** The autoscaling/v1 Scale of a scalable object. */
  scaleOf(def: ResourceDef, stored: StoredObject): KubeObject {
    const o = stored.object;
    const meta = o.metadata ?? {};
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: meta.name,
        namespace: meta.namespace,
        uid: meta.uid,
        resourceVersion: String(stored.rv),
        creationTimestamp: meta.creationTimestamp,
      },
      spec: {
        replicas:
          (fieldAt(o, scalePath(def.scale?.specReplicasPath, 'spec.replicas')) as number | undefined) ??
          def.scale?.defaultReplicas ??
          1,
      },
      status: {
        replicas:
          (fieldAt(o, scalePath(def.scale?.statusReplicasPath, 'status.replicas')) as number | undefined) ??
          0,
        selector: def.scale?.labelSelectorPath
          ? String(fieldAt(o, scalePath(def.scale.labelSelectorPath, '')) ?? '')
          : selectorString(fieldAt(o, 'spec.selector')),
      },
    };
  }

  /** PUT or PATCH of a Scale: sets spec.replicas on the parent. @throws 409 on a stale resourceVersion */
  updateScale(
    def: ResourceDef,
    namespace: string,
    name: string,
    scale: unknown,
    options: WriteOptions = {},
  ): KubeObject {
    const body = this.checkBody(def, scale, namespace, 'Scale');
    const existing = this.get(def, namespace, name);
    if (body.metadata?.name !== undefined && body.metadata.name !== name) {
      throw badRequest(
        `metadata.name: the name of the object (${String(body.metadata.name)}) does not match the name on the URL (${name})`,
      );
    }
    const replicas = fieldAt(body, 'spec.replicas');
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw invalid({ group: 'autoscaling', kind: 'Scale', name }, [
        {
          type: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
          field: 'spec.replicas',
        },
      ]);
    }
    const parent = def.present ? def.present(existing.object) : clone<KubeObject>(existing);
    if (def.scale?.specReplicasPath) setPath(parent, scalePath(def.scale.specReplicasPath, ''), replicas);
    else parent.spec = { ...(parent.spec as Obj), replicas };
    parent.metadata = {
      ...parent.metadata,
      resourceVersion: body.metadata?.resourceVersion || String(existing.rv),
    };
    this.replace(def, namespace, name, parent, undefined, { ...options, fieldsSubresource: 'scale' });
    return this.scaleOf(def, this.get(def, namespace, name));
  }

  /**
   * A list page. `resourceVersion` unset or "0": the current state; with `resourceVersionMatch`
   * Exact (or with `limit` and no match): the state at that rv, rebuilt from the history (410
   * Expired when too old); NotOlderThan: the current state, 504 when the rv is in the future.
   * `continue` resumes the snapshot of the first page (410 when it fell out of the history).
   */
  list(def: ResourceDef, namespace: string | undefined, query: ListQuery): ListPage {
    const rvText = query.resourceVersion ?? '';
    const match = query.resourceVersionMatch ?? '';
    if (match && match !== 'Exact' && match !== 'NotOlderThan') {
      throw invalid({ kind: 'ListOptions', group: 'meta.k8s.io' }, [
        {
          type: 'FieldValueNotSupported',
          message: `Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`,
          field: 'resourceVersionMatch',
        },
      ]);
    }
    if (match && rvText === '')
      throw listOptionsInvalid(
        'resourceVersionMatch',
        'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      );
    if (match && query.continue)
      throw listOptionsInvalid(
        'resourceVersionMatch',
        'Forbidden: resourceVersionMatch is forbidden when continue is provided',
      );
    if (match === 'Exact' && rvText === '0')
      throw listOptionsInvalid(
        'resourceVersionMatch',
        'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      );
    if (query.limit !== undefined && (!Number.isInteger(query.limit) || query.limit < 0)) {
      throw badRequest(`limit: must be a non-negative integer`);
    }
    const selector: Selector = bothSelectors(
      labelSelector(query.labelSelector),
      fieldSelector(query.fieldSelector, def.fieldSelectors),
    );
    const id = resourceId(def);
    let snapshotRv = this.store.currentRv;
    let source: ReadonlyMap<string, StoredObject>;
    let start: string | undefined;
    if (query.continue) {
      if (rvText !== '' && rvText !== '0')
        throw badRequest('specifying resource version is not allowed when using continue');
      const token = decodeContinue(query.continue);
      if (token.rv < this.store.compactedRv) {
        throw expired(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        );
      }
      snapshotRv = token.rv;
      start = token.start;
      source =
        snapshotRv === this.store.currentRv ? this.store.current(id) : this.store.snapshotAt(id, snapshotRv);
    } else if (rvText === '' || rvText === '0') {
      source = this.store.current(id);
    } else {
      const rv = parseRv(rvText, 'resourceVersion');
      if (match === 'Exact' || (match === '' && query.limit !== undefined && query.limit > 0)) {
        source = this.store.snapshotAt(id, rv);
        snapshotRv = rv;
      } else {
        this.store.checkReachable(Math.max(rv, this.store.compactedRv));
        source = this.store.current(id);
      }
    }
    const prefix = def.namespaced && namespace ? `${namespace}/` : '';
    const keys: string[] = [];
    for (const key of source.keys())
      if ((prefix === '' || key.startsWith(prefix)) && (start === undefined || key > start)) keys.push(key);
    keys.sort();
    const items: StoredObject[] = [];
    const limit = query.limit && query.limit > 0 ? query.limit : Number.POSITIVE_INFINITY;
    let i = 0;
    for (; i < keys.length && items.length < limit; i++) {
      const stored = source.get(keys[i]!)!;
      if (selector.empty || selector.matches(stored.object)) items.push(stored);
    }
    let more = false;
    if (i < keys.length) {
      if (selector.empty) more = true;
      else
        for (let j = i; j < keys.length && !more; j++) more = selector.matches(source.get(keys[j]!)!.object);
    }
    const page: ListPage = { items, resourceVersion: snapshotRv };
    if (more) {
      page.continue = encodeContinue(snapshotRv, keys[i - 1]!);
      if (selector.empty) page.remainingItemCount = keys.length - i;
    }
    return page;
  }
}
