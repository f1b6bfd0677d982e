// The shared vocabulary: Kubernetes object metadata, wire watch events, deltas and the tombstone.

/** The metadata every Kubernetes object carries; kube-rx reads only these fields generically. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
  [extra: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Any Kubernetes object: apiVersion/kind are optional because list items often omit them. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** A `meta/v1` Status, the body of every API error and of a watch ERROR event. */
export interface Status extends KubeObject {
  kind?: 'Status';
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    /** metav1.StatusCause: `reason` is the cause's type (FieldValueInvalid, NamespaceTerminating, ...). */
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

/** Wire event types, as the API server sends them on a watch. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One event of a watch stream. An ERROR event carries a Status, every other type an object. */
export type WatchEvent<T extends KubeObject = KubeObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: T }
  | { type: 'ERROR'; object: Status };

/** A list page as the API server returns it. */
export interface ObjectList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/**
 * The annotation the API server puts on the bookmark that ends the initial events of a
 * `sendInitialEvents=true` watch.
 */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** Delta types, with client-go's string values. */
export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync';

/**
 * The tombstone for an object that vanished while nobody was watching: `obj` is its last
 * known state, which may be stale or missing.
 */
export class DeletedFinalStateUnknown<T extends KubeObject = KubeObject> {
  readonly key: string;
  readonly obj: T | undefined;
  constructor(key: string, obj: T | undefined) {
    this.key = key;
    this.obj = obj;
  }
}

/** One change to one object, as a DeltaFIFO records it. */
export interface Delta<T extends KubeObject = KubeObject> {
  readonly type: DeltaType;
  readonly object: T | DeletedFinalStateUnknown<T>;
}

/** True when the value is a tombstone rather than an object. */
export function isTombstone<T extends KubeObject>(
  value: T | DeletedFinalStateUnknown<T>,
): value is DeletedFinalStateUnknown<T> {
  return value instanceof DeletedFinalStateUnknown;
}

/**
 * What list-and-watch (the Reflector) tells the store: a completed (re)list as one `Replace` carrying
 * the full state, then the watch's changes one by one, and bookmarks that only advance the
 * resourceVersion. A `Replace` is the relist boundary: everything before it is superseded.
 */
export type ReflectorEvent<T extends KubeObject = KubeObject> =
  | { type: 'Replace'; items: readonly T[]; resourceVersion: string }
  | { type: 'Added' | 'Updated' | 'Deleted'; object: T }
  | { type: 'Bookmark'; resourceVersion: string };

/** The health of one list-and-watch stream, as `/readyz` reports it. */
export interface ReflectorHealth {
  state: 'starting' | 'listing' | 'watching' | 'backingOff' | 'stopped';
  /** The resourceVersion the next watch or relist would start from. */
  resourceVersion?: string;
  /** Virtual or wall time (scheduler.now()) of the last event or bookmark received. */
  lastEventAt?: number;
  lastError?: { message: string; code?: string; at: number };
  /** True once the first list has been delivered. */
  synced: boolean;
  /**
   * How many times, since the stream was subscribed, a watch (the initial streaming list included) ended
   * or a list request failed and was replaced: every clean close, broken connection, 410, error, stall
   * and garbled line counts once. Each one is a new health value even when the state stays the same.
   */
  restarts?: number;
  /** The latest of those restarts. */
  lastRestart?: ReflectorRestartRecord;
  /** How many (re)lists began: paginated lists and streaming watch-lists, the first one included. */
  lists?: number;
  /** Why the latest (re)list began, and when. */
  lastList?: { reason: ReflectorListReason; at: number };
}

/**
 * Why a watch, a watch-list or a list request ended and was replaced: `closed` (the server ended it
 * cleanly, e.g. its timeout), `connectionBroken` (reset, cut mid-body), `expired` (410 Gone),
 * `tooLargeResourceVersion`, `throttled` (429, refused), `malformed` (a garbled line or event),
 * `stalled` (silent past the learned window), `timeout` (a list page past its window), `veryShort`
 * (a watch that ended within a second with no event), `error` (any other error).
 */
export type ReflectorRestartReason =
  | 'closed'
  | 'connectionBroken'
  | 'expired'
  | 'tooLargeResourceVersion'
  | 'throttled'
  | 'malformed'
  | 'stalled'
  | 'timeout'
  | 'veryShort'
  | 'error';

/** Why a (re)list began: `initial` for a subscription's first, else the restart that led to it. */
export type ReflectorListReason = 'initial' | ReflectorRestartReason;

/** One restart: why, during what (`watch`, the streaming `watchList`, a paginated `list`) and when. */
export interface ReflectorRestartRecord {
  reason: ReflectorRestartReason;
  during: 'watch' | 'watchList' | 'list';
  at: number;
}
