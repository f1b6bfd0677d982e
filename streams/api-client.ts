// The ApiClient port: resource-generic reads and writes against an API server, and a ListerWatcher over it.
import type { Observable } from 'rxjs';
import type { KubeObject, ObjectList, Status, WatchEvent } from '../operators/types.ts';
import type { ListerWatcher, ListOptions, WatchOptions } from './ports.ts';

/**
 * Names one API resource. Core resources have `group: ''` (served under `/api/v1`), others under
 * `/apis/<group>/<version>`.
 */
export interface ResourceDescriptor {
  group: string;
  version: string;
  /** The URL segment, e.g. `pods`, `deployments`, `leases`. */
  plural: string;
  kind: string;
  namespaced: boolean;
}

/** Patch flavours and their content types. */
export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

/** Where a call applies: the namespace (namespaced resources; omit to list across all namespaces). */
export interface NamespaceOption {
  namespace?: string;
}

/**
 * Asks for metadata only, as client-go's metadata client does: lists come back as a
 * `PartialObjectMetadataList`, watch events and gets carry `PartialObjectMetadata` (kind, apiVersion,
 * metadata; no spec, no status), so the bulk of each object never crosses the wire.
 *
 * Invariant for callers: it is a request, not a promise. A server that does not support the form may
 * answer whole objects; whoever needs metadata only reduces what arrives (see `metadataListerWatcher`).
 */
export interface MetadataOption {
  metadataOnly?: boolean;
}

/** Options every write accepts. */
export interface WriteOptions extends NamespaceOption {
  dryRun?: boolean;
  fieldManager?: string;
}

export interface PatchOptions extends WriteOptions {
  /** Patch a subresource such as `status` or `scale`. */
  subresource?: string;
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
}

export interface DeleteOptions extends NamespaceOption {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** Options of an update: a subresource such as `finalize` (a namespace's) is PUT instead of the object. */
export interface UpdateOptions extends WriteOptions {
  subresource?: string;
}

/** A DELETE on a collection (verb `deletecollection`): the delete options and which objects it takes. */
export interface DeleteCollectionOptions extends DeleteOptions {
  labelSelector?: string;
  fieldSelector?: string;
}

/** One resource as discovery lists it (metav1.APIResource); `name` is the plural, `pods/status` a subresource. */
export interface ApiResource {
  name: string;
  namespaced: boolean;
  kind: string;
  verbs: readonly string[];
}

/** One group-version's resources (metav1.APIResourceList); `groupVersion` is `v1` or `apps/v1`, unparsed. */
export interface ApiResourceList {
  groupVersion: string;
  resources: readonly ApiResource[];
}

/**
 * What discovery found at each group's preferred version (client-go's ServerPreferredResources): the lists
 * read, and the group-versions whose list could not be read (client-go's ErrGroupDiscoveryFailed), so a
 * caller can act on what it has and report the rest.
 */
export interface ServerResources {
  lists: readonly ApiResourceList[];
  failed: readonly { groupVersion: string; message: string }[];
}

/** A pod binding (the scheduler's write): binds `namespace/name` to `nodeName`. */
export interface PodBinding {
  namespace: string;
  name: string;
  nodeName: string;
  /** Optional uid precondition, as the scheduler sends. */
  uid?: string;
}

/**
 * Reads and writes any resource.
 *
 * Contract:
 * - Every method returns a cold observable: nothing is sent before subscribe; unsubscribing aborts the
 *   request at once (also before the request exists). One-shot calls emit one value and complete.
 * - An error Status from the server errors the observable with `ApiError` (409 Conflict included: for
 *   optimistic concurrency the caller decides); a request that does not finish in time errors with
 *   `TimeoutError`.
 * - `list` and `watch` follow the `ListerWatcher` contract of `ports.ts`.
 * - `metadataOnly` on `list`, `watch` and `get` asks for PartialObjectMetadata; a client or server that
 *   cannot honour it returns whole objects instead (never an error).
 */
export interface ApiClient {
  list<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    options?: ListOptions & NamespaceOption & MetadataOption,
  ): Observable<ObjectList<T>>;
  watch<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    options?: WatchOptions & NamespaceOption & MetadataOption,
  ): Observable<WatchEvent<T>>;
  get<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    name: string,
    options?: NamespaceOption & MetadataOption,
  ): Observable<T>;
  create<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    object: T,
    options?: WriteOptions,
  ): Observable<T>;
  update<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    object: T,
    options?: UpdateOptions,
  ): Observable<T>;
  updateStatus<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    object: T,
    options?: WriteOptions,
  ): Observable<T>;
  patch<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    name: string,
    patch: unknown,
    type: PatchType,
    options?: PatchOptions,
  ): Observable<T>;
  delete(
    resource: ResourceDescriptor,
    name: string,
    options?: DeleteOptions,
  ): Observable<KubeObject | Status>;
  bind(binding: PodBinding, options?: WriteOptions): Observable<Status>;
  /**
   * Optional (fakes may leave it out): DELETE on the collection of one namespace (or of a cluster-scoped
   * resource), as client-go's DeleteCollection; answers the server's Status or list.
   */
  deleteCollection?(
    resource: ResourceDescriptor,
    options?: DeleteCollectionOptions,
  ): Observable<KubeObject | Status>;
  /** Optional (fakes may leave it out): discovery of every group's preferred version ({@link ServerResources}). */
  serverPreferredResources?(): Observable<ServerResources>;
}

/** Which slice of a resource a ListerWatcher sees. */
export interface ListerWatcherScope {
  /** Only this namespace; omit for all namespaces (or for cluster-scoped resources). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Ask the server for PartialObjectMetadata instead of whole objects (see {@link MetadataOption}). */
  metadataOnly?: boolean;
}

/**
 * A `ListerWatcher` for one resource through an `ApiClient`, scoped by namespace and selectors.
 *
 * @example
 * const pods = listerWatcher(client, { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true },
 *   { namespace: 'default', labelSelector: 'app=web' });
 * @param client the API client
 * @param resource the resource to list and watch
 * @param scope namespace, selectors and `metadataOnly`, added to every call (the caller's own selectors win
 *   if given)
 * @returns a ListerWatcher whose calls are cold and abort on unsubscribe
 */
export function listerWatcher<T extends KubeObject = KubeObject>(
  client: ApiClient,
  resource: ResourceDescriptor,
  scope: ListerWatcherScope = {},
): ListerWatcher<T> {
  const base: ListerWatcherScope = {};
  if (scope.namespace) base.namespace = scope.namespace;
  if (scope.labelSelector) base.labelSelector = scope.labelSelector;
  if (scope.fieldSelector) base.fieldSelector = scope.fieldSelector;
  if (scope.metadataOnly) base.metadataOnly = true;
  return {
    list: (options) => client.list<T>(resource, { ...base, ...options }),
    watch: (options) => client.watch<T>(resource, { ...base, ...options }),
  };
}
