// A read-only view of the object store whose objects of one resource pass through its row's `present`.
import type { KubeObject } from '../../../operators/types.ts';
import type { ObjectStore, StoredObject, StoreEvent } from '../object-store.ts';

/**
 * The store as a watch of one custom resource version sees it: every object of `resource` (in
 * current state, history and live events) is replaced by `present(object)`, so a watch on
 * `v1beta1` shows `apiVersion: example.com/v1beta1` whatever version the objects are stored in.
 * Only the reads a watch makes are offered (current, currentRv, compactedRv, eventsAfter, subscribe).
 */
export function presentedStore(
  store: ObjectStore,
  resource: string,
  present: (object: KubeObject) => KubeObject,
): ObjectStore {
  const storedAs = (s: StoredObject): StoredObject => {
    const object = present(s.object);
    return { object, json: JSON.stringify(object), rv: s.rv };
  };
  const eventAs = (e: StoreEvent): StoreEvent => {
    if (e.resource !== resource) return e;
    const object = present(e.object);
    return { ...e, object, json: JSON.stringify(object), prev: e.prev && storedAs(e.prev) };
  };
  const view = {
    get currentRv() {
      return store.currentRv;
    },
    get compactedRv() {
      return store.compactedRv;
    },
    current: (id: string) => {
      const m = store.current(id);
      return id === resource ? new Map([...m].map(([k, s]) => [k, storedAs(s)])) : m;
    },
    eventsAfter: (rv: number) => store.eventsAfter(rv).map(eventAs),
    subscribe: (listener: (event: StoreEvent) => void) => store.subscribe((e) => listener(eventAs(e))),
    checkReachable: (rv: number) => store.checkReachable(rv),
  };
  return view as unknown as ObjectStore;
}
