// core/v1 Events and events.k8s.io/v1 Events as one set of objects: each write through either version is mirrored, field names converted as upstream's conversion does.
import type { KubeObject } from '../../../operators/types.ts';
import type { ObjectStore, StoreEvent } from '../object-store.ts';

type Obj = Record<string, unknown>;

export const CORE_EVENTS = 'events';
export const EVENTS_V1 = 'events.k8s.io/events';

/** Pairs of (core/v1 field, events.k8s.io/v1 field) that only change name. */
const RENAMED: readonly (readonly [string, string])[] = [
  ['message', 'note'],
  ['involvedObject', 'regarding'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];
const SAME = ['metadata', 'reason', 'type', 'action', 'related', 'reportingInstance', 'eventTime', 'series'];

function convert(object: KubeObject, from: 0 | 1, apiVersion: string): KubeObject {
  const src = object as Obj;
  const out: Obj = { kind: 'Event', apiVersion };
  for (const f of SAME) if (src[f] !== undefined) out[f] = structuredClone(src[f]);
  for (const pair of RENAMED) {
    const value = src[pair[from]];
    if (value !== undefined && value !== null && value !== '') out[pair[1 - from]!] = structuredClone(value);
  }
  return out as KubeObject;
}

function withoutRv(object: KubeObject): string {
  const { resourceVersion: _rv, ...metadata } = object.metadata ?? {};
  return JSON.stringify({ ...object, metadata });
}

/** A core/v1 Event as events.k8s.io/v1 shows it. */
export function toEventsV1(event: KubeObject): KubeObject {
  return convert(event, 0, 'events.k8s.io/v1');
}

/** An events.k8s.io/v1 Event as core/v1 shows it. */
export function toCoreEvent(event: KubeObject): KubeObject {
  return convert(event, 1, 'v1');
}

/**
 * Keeps the two event resources the same objects: every commit to one is committed, converted,
 * to the other right after the committing request (a microtask later, so watchers of each see
 * events in resourceVersion order). Returns the unsubscribe function.
 */
export function mirrorEvents(store: ObjectStore): () => void {
  let mirroring = false;
  const mirror = (event: StoreEvent) => {
    const target = event.resource === CORE_EVENTS ? EVENTS_V1 : CORE_EVENTS;
    const object = event.resource === CORE_EVENTS ? toEventsV1(event.object) : toCoreEvent(event.object);
    const current = store.get(target, event.key);
    const exists = current !== undefined;
    if (event.type === 'DELETED' && !exists) return;
    // Already the same object (e.g. a second mirror on the same store): nothing to do, and no echo.
    if (event.type !== 'DELETED' && current && withoutRv(current.object) === withoutRv(object)) return;
    mirroring = true;
    try {
      store.commit(
        target,
        event.key,
        event.type === 'DELETED' ? 'DELETED' : exists ? 'MODIFIED' : 'ADDED',
        object,
      );
    } finally {
      mirroring = false;
    }
  };
  let active = true;
  const unsubscribe = store.subscribe((event) => {
    if (mirroring || (event.resource !== CORE_EVENTS && event.resource !== EVENTS_V1)) return;
    // a mirror queued before the server stopped is dropped: its storage may be closed by then
    queueMicrotask(() => {
      if (active) mirror(event);
    });
  });
  return () => {
    active = false;
    unsubscribe();
  };
}
