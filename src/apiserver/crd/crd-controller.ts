// What kube-apiserver's apiextensions controllers do for each CRD: names, Established, serving, and cleanup on delete.
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { ApiStatusError } from '../api-status.ts';
import type { Registry } from '../registry.ts';
import { type ResourceDef, resourceId } from '../resource-table.ts';
import {
  CLEANUP_FINALIZER,
  type CrdCondition,
  type CrdNames,
  type CustomResourceDefinition,
  conditionOf,
  storageVersionOf,
} from './custom-resource-definition.ts';
import { CUSTOM_RESOURCE_DEFINITIONS } from './custom-resource-definitions-resource.ts';
import { customResourceRows } from './custom-resource-rows.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';

const CRD_ID = resourceId(CUSTOM_RESOURCE_DEFINITIONS);

/** Where a CRD's served schemas go (the OpenAPI documents), per group-version. */
export interface CrdSchemaSink {
  set(
    owner: string,
    served: { group: string; version: string; kind: string; listKind: string; schema: JSONSchemaProps },
  ): void;
  remove(owner: string, group: string, version: string): void;
}

/** Options of {@link startCrdController}. */
export interface CrdControllerOptions {
  logger?: Logger;
  /** Milliseconds since the epoch, for condition times; default Date.now. */
  now?: () => number;
  /** Receives the schemas of served versions (OpenAPI); none by default. */
  schemas?: CrdSchemaSink;
}

/** A running CRD controller. */
export interface CrdController {
  /** Stops reacting to changes; what is served stays served. */
  stop(): void;
  /** Looks at every stored CRD again (after a storage engine restored objects without events). */
  resync(): void;
}

function sameCondition(a: CrdCondition | undefined, b: CrdCondition): boolean {
  return a !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;
}

function setCondition(conditions: CrdCondition[], next: CrdCondition, now: string): CrdCondition[] {
  const old = conditions.find((c) => c.type === next.type);
  if (sameCondition(old, next)) return conditions;
  const merged: CrdCondition = {
    type: next.type,
    status: next.status,
    lastTransitionTime:
      old && old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : now,
    reason: next.reason,
    message: next.message,
  };
  return old ? conditions.map((c) => (c.type === next.type ? merged : c)) : [...conditions, merged];
}

/**
 * Starts the CRD controllers of the embedded API server over `registry` (which must serve
 * customresourcedefinitions). For each CRD, after every change:
 *
 * - names (NamingConditionController): `status.acceptedNames` from `spec.names` unless another CRD of
 *   the group holds one (then NamesAccepted False with PluralConflict, KindConflict, ...);
 * - Established (EstablishingController): True as soon as the names are accepted, and from then on
 *   its versions are served (`Registry.serve`), discovery lists them and their schemas go to `schemas`;
 *   `status.storedVersions` gains the storage version;
 * - deletion (CRDFinalizer): Terminating True, creates refused, every object deleted; when none is
 *   left (objects with finalizers wait for them), the cleanup finalizer goes and the CRD with it,
 *   and its resources stop being served.
 *
 * Work runs in a microtask after the commit that caused it, so it never interleaves with a request.
 * Conversion webhooks are not called: a warning is logged once per CRD that names one.
 *
 * Teardown: `stop()` unsubscribes from the store.
 */
export function startCrdController(registry: Registry, options: CrdControllerOptions = {}): CrdController {
  const log = (options.logger ?? silentLogger).child({ component: 'crd-controller' });
  const now = options.now ?? Date.now;
  const store = registry.store;
  const pending = new Set<string>();
  const warned = new Set<string>();
  /** Per CRD: the rows it serves. */
  const rowsOf = new Map<string, readonly ResourceDef[]>();
  /** Per served resource id: its CRD's name (to resume a cleanup when an object goes). */
  const ownerOf = new Map<string, string>();
  let scheduled = false;
  let stopped = false;

  const crdDef = () => registry.table.find((d) => resourceId(d) === CRD_ID)!;
  const timestamp = () => new Date(Math.floor(now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

  const unserve = (name: string) => {
    for (const d of rowsOf.get(name) ?? []) {
      options.schemas?.remove(name, d.group, d.version);
      ownerOf.delete(resourceId(d));
    }
    rowsOf.delete(name);
    registry.serve(name, []);
  };

  const serve = (name: string, crd: CustomResourceDefinition, names: CrdNames) => {
    const rows = customResourceRows({ ...crd, spec: { ...crd.spec, names } });
    const before = rowsOf.get(name) ?? [];
    for (const d of before)
      if (!rows.some((r) => r.version === d.version)) options.schemas?.remove(name, d.group, d.version);
    registry.serve(name, rows);
    rowsOf.set(name, rows);
    for (const r of rows) {
      ownerOf.set(resourceId(r), name);
      const schema = crd.spec.versions?.find((v) => v.name === r.version)?.schema?.openAPIV3Schema;
      if (schema)
        options.schemas?.set(name, {
          group: r.group,
          version: r.version,
          kind: r.kind,
          listKind: names.listKind ?? `${r.kind}List`,
          schema,
        });
    }
    return rows;
  };

  /** The names this CRD may have, given what the other CRDs of its group accepted (upstream's rules). */
  const namesFor = (crd: CustomResourceDefinition) => {
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const [key, other] of store.current(CRD_ID)) {
      const o = other.object as CustomResourceDefinition;
      if (key === crd.metadata?.name || o.spec?.group !== crd.spec.group) continue;
      const a = o.status?.acceptedNames ?? {};
      for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) if (n) resources.add(n);
      for (const n of [a.kind, a.listKind]) if (n) kinds.add(n);
    }
    const wanted = crd.spec.names ?? {};
    const had = crd.status?.acceptedNames ?? {};
    const out: CrdNames = { ...had };
    let problem: { reason: string; message: string } | undefined;
    const check = (field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>, reason: string) => {
      const want = wanted[field];
      if (want === had[field] || !want || !used.has(want)) out[field] = want;
      else problem = { reason, message: `${JSON.stringify(want)} is already in use` };
    };
    check('plural', resources, 'PluralConflict');
    check('singular', resources, 'SingularConflict');
    const taken = (wanted.shortNames ?? []).filter(
      (s) =>
        !(had.shortNames ?? []).includes(s) && s !== had.plural && s !== had.singular && resources.has(s),
    );
    if (taken.length)
      problem = {
        reason: 'ShortNamesConflict',
        message: taken.map((s) => `${JSON.stringify(s)} is already in use`).join(', '),
      };
    else out.shortNames = wanted.shortNames;
    check('kind', kinds, 'KindConflict');
    check('listKind', kinds, 'ListKindConflict');
    out.categories = wanted.categories;
    for (const k of Object.keys(out) as (keyof CrdNames)[]) if (out[k] === undefined) delete out[k];
    return { names: out, problem };
  };

  const writeStatus = (crd: CustomResourceDefinition, status: CustomResourceDefinition['status']) => {
    if (JSON.stringify(status) === JSON.stringify(crd.status)) return crd;
    const next = { ...crd, status } as KubeObject;
    return registry.update(
      crdDef(),
      undefined,
      crd.metadata!.name!,
      next,
      'status',
    ) as CustomResourceDefinition;
  };

  const deleteObjects = (rows: readonly ResourceDef[]): number => {
    const def = rows[0];
    if (!def) return 0;
    const id = resourceId(def);
    for (const [key, stored] of [...store.current(id)]) {
      if (stored.object.metadata?.deletionTimestamp) continue;
      const slash = def.namespaced ? key.indexOf('/') : -1;
      const namespace = slash >= 0 ? key.slice(0, slash) : undefined;
      try {
        registry.delete(def, namespace, slash >= 0 ? key.slice(slash + 1) : key, {});
      } catch (err) {
        if (!(err instanceof ApiStatusError && err.statusCode === 404)) throw err;
      }
    }
    return store.current(id).size;
  };

  const reconcile = (name: string) => {
    const stored = store.get(CRD_ID, name);
    if (!stored) {
      const group = rowsOf.get(name)?.[0]?.group;
      unserve(name);
      // Its names are free now: the others of its group may take them.
      for (const [key, other] of store.current(CRD_ID))
        if ((other.object as CustomResourceDefinition).spec?.group === group) enqueue(key);
      return;
    }
    let crd = JSON.parse(stored.json) as CustomResourceDefinition;
    if (!crd.spec) return;
    const at = timestamp();
    if (!warned.has(name)) {
      warned.add(name);
      if (crd.spec.conversion?.strategy === 'Webhook')
        log.warn(
          { crd: name },
          'conversion webhooks are not called: versions are converted as with strategy None',
        );
    }
    const { names, problem } = namesFor(crd);
    let conditions = crd.status?.conditions ?? [];
    conditions = setCondition(
      conditions,
      problem
        ? { type: 'NamesAccepted', status: 'False', ...problem }
        : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
      at,
    );
    const wasEstablished = conditionOf(crd, 'Established')?.status === 'True';
    const established = wasEstablished || !problem;
    conditions = setCondition(
      conditions,
      established
        ? {
            type: 'Established',
            status: 'True',
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
          }
        : {
            type: 'Established',
            status: 'False',
            reason: 'NotAccepted',
            message: 'not all names are accepted',
          },
      at,
    );
    const storage = storageVersionOf(crd);
    const stored0 = crd.status?.storedVersions ?? [];
    const storedVersions = storage && !stored0.includes(storage) ? [...stored0, storage] : stored0;
    const deleting = crd.metadata?.deletionTimestamp !== undefined;
    if (deleting)
      conditions = setCondition(
        conditions,
        {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionInProgress',
          message: 'CustomResource deletion is in progress',
        },
        at,
      );
    crd = writeStatus(crd, {
      ...crd.status,
      conditions,
      acceptedNames: established ? names : (crd.status?.acceptedNames ?? {}),
      storedVersions,
    });
    const rows = established ? serve(name, crd, crd.status?.acceptedNames ?? names) : [];
    if (!established) unserve(name);
    if (!deleting || !(crd.metadata?.finalizers ?? []).includes(CLEANUP_FINALIZER)) return;
    const remaining = established ? deleteObjects(rows) : 0;
    if (remaining > 0) return; // objects with finalizers: resumed when they go
    crd = writeStatus(crd, {
      ...crd.status,
      conditions: setCondition(
        crd.status?.conditions ?? [],
        {
          type: 'Terminating',
          status: 'False',
          reason: 'InstanceDeletionCompleted',
          message: 'removed all instances',
        },
        at,
      ),
    });
    const finalizers = (crd.metadata?.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
    registry.update(crdDef(), undefined, name, { ...crd, metadata: { ...crd.metadata, finalizers } });
  };

  const drain = () => {
    scheduled = false;
    while (pending.size && !stopped) {
      const [name] = pending;
      pending.delete(name!);
      try {
        reconcile(name!);
      } catch (err) {
        log.error({ err, crd: name }, 'reconciling a CustomResourceDefinition failed');
      }
    }
  };

  function enqueue(name: string): void {
    pending.add(name);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(drain);
    }
  }

  const unsubscribe = store.subscribe((e) => {
    if (e.resource === CRD_ID) enqueue(e.key);
    else if (e.type === 'DELETED') {
      const owner = ownerOf.get(e.resource);
      if (owner) enqueue(owner);
    }
  });
  const resync = () => {
    for (const key of store.current(CRD_ID).keys()) pending.add(key);
    drain();
  };
  resync(); // CRDs restored from storage are served before the first request
  return {
    resync,
    stop: () => {
      stopped = true;
      unsubscribe();
    },
  };
}
