// An in-memory ApiClient for benchmarks: objects in maps, watches as Subjects, no HTTP and no JSON, so a component's own cost shows alone.
import { concat, defer, filter, from, map, type Observable, of, Subject, throwError } from 'rxjs';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ObjectList,
  type Status,
  type WatchEvent,
} from '../../operators/types.ts';
import type { ApiClient, PodBinding, ResourceDescriptor } from '../../streams/api-client.ts';
import type { WatchOptions } from '../../streams/ports.ts';

interface Change {
  plural: string;
  event: WatchEvent;
}

/** An ApiClient over maps; `counts` holds its writes by verb. */
export interface MemoryApiClient extends ApiClient {
  readonly counts: Record<string, number>;
}

const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/**
 * Creates the client. Lists return every object of the resource (selectors are not applied: the benchmark
 * only creates what the component reads); watches see every change made after they subscribe.
 */
export function memoryApiClient(): MemoryApiClient {
  const stores = new Map<string, Map<string, KubeObject>>();
  const changes = new Subject<Change>();
  const counts: Record<string, number> = {};
  let rv = 1;
  let uid = 1;
  const store = (plural: string) => {
    let s = stores.get(plural);
    if (!s) {
      s = new Map();
      stores.set(plural, s);
    }
    return s;
  };
  const emit = (plural: string, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject) => {
    changes.next({ plural, event: { type, object } });
  };
  const count = (verb: string) => {
    counts[verb] = (counts[verb] ?? 0) + 1;
  };
  const notFound = (name: string): Observable<never> =>
    throwError(() => Object.assign(new Error(`${name} not found`), { code: 404, reason: 'NotFound' }));
  const write = (plural: string, object: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject => {
    const stored = {
      ...object,
      metadata: {
        ...object.metadata,
        uid: object.metadata?.uid ?? `uid-${uid++}`,
        resourceVersion: String(++rv),
        creationTimestamp: object.metadata?.creationTimestamp ?? new Date().toISOString(),
      },
    } as KubeObject;
    store(plural).set(keyOf(stored), stored);
    emit(plural, type, stored);
    return stored;
  };
  const client: MemoryApiClient = {
    counts,
    list: <T extends KubeObject>(resource: ResourceDescriptor) =>
      defer(() =>
        of({
          metadata: { resourceVersion: String(rv) },
          items: [...store(resource.plural).values()] as T[],
        } satisfies ObjectList<T>),
      ),
    // A watch-list (sendInitialEvents) gets every object as ADDED, then the initial-events-end bookmark, as
    // kube-apiserver sends them; without it a reflector would wait for its inactivity timeout, then relist.
    watch: <T extends KubeObject>(resource: ResourceDescriptor, options?: WatchOptions) =>
      defer(() => {
        const live = changes.pipe(
          filter((c) => c.plural === resource.plural),
          map((c) => c.event as WatchEvent<T>),
        );
        if (!options?.sendInitialEvents) return live;
        const initial: WatchEvent<T>[] = [...store(resource.plural).values()].map((object) => ({
          type: 'ADDED',
          object: object as T,
        }));
        const bookmark = {
          type: 'BOOKMARK',
          object: {
            metadata: {
              resourceVersion: String(rv),
              annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' },
            },
          } as KubeObject as T,
        } as WatchEvent<T>;
        return concat(from(initial), of(bookmark), live);
      }),
    get: <T extends KubeObject>(
      resource: ResourceDescriptor,
      name: string,
      options?: { namespace?: string },
    ) =>
      defer(() => {
        const o = store(resource.plural).get(
          `${resource.namespaced ? (options?.namespace ?? '') : ''}/${name}`,
        );
        return o ? of(o as T) : notFound(name);
      }),
    create: <T extends KubeObject>(
      resource: ResourceDescriptor,
      object: T,
      options?: { namespace?: string },
    ) =>
      defer(() => {
        count('create');
        const ns = resource.namespaced ? (object.metadata?.namespace ?? options?.namespace) : undefined;
        const named = object.metadata?.name
          ? object
          : {
              ...object,
              metadata: { ...object.metadata, name: `${object.metadata?.generateName ?? 'obj-'}${uid}` },
            };
        const withNs = { ...named, metadata: { ...named.metadata, ...(ns ? { namespace: ns } : {}) } };
        if (resource.plural === 'events') return of(withNs as T);
        return of(write(resource.plural, withNs, 'ADDED') as T);
      }),
    update: <T extends KubeObject>(resource: ResourceDescriptor, object: T) =>
      defer(() => {
        count('update');
        return of(write(resource.plural, object, 'MODIFIED') as T);
      }),
    updateStatus: <T extends KubeObject>(resource: ResourceDescriptor, object: T) =>
      defer(() => {
        count('updateStatus');
        return of(write(resource.plural, object, 'MODIFIED') as T);
      }),
    patch: <T extends KubeObject>(
      resource: ResourceDescriptor,
      name: string,
      patch: unknown,
      _type: unknown,
      options?: { namespace?: string },
    ) =>
      defer(() => {
        count('patch');
        const key = `${resource.namespaced ? (options?.namespace ?? '') : ''}/${name}`;
        const current = store(resource.plural).get(key);
        if (!current) return notFound(name);
        const p = (patch ?? {}) as Record<string, Record<string, unknown> | undefined>;
        const merged = { ...current } as Record<string, unknown>;
        for (const [field, value] of Object.entries(p)) {
          if (field === 'metadata') continue;
          const base = merged[field];
          merged[field] =
            value && typeof value === 'object' && !Array.isArray(value) && base && typeof base === 'object'
              ? { ...(base as object), ...value }
              : value;
        }
        return of(write(resource.plural, merged as KubeObject, 'MODIFIED') as T);
      }),
    delete: (resource: ResourceDescriptor, name: string, options?: { namespace?: string }) =>
      defer(() => {
        count('delete');
        const key = `${resource.namespaced ? (options?.namespace ?? '') : ''}/${name}`;
        const current = store(resource.plural).get(key);
        if (!current) return notFound(name);
        store(resource.plural).delete(key);
        const gone = { ...current, metadata: { ...current.metadata, resourceVersion: String(++rv) } };
        emit(resource.plural, 'DELETED', gone);
        return of(gone as KubeObject | Status);
      }),
    bind: (binding: PodBinding) =>
      defer(() => {
        count('bind');
        const key = `${binding.namespace}/${binding.name}`;
        const current = store('pods').get(key) as
          | (KubeObject & { spec?: Record<string, unknown> })
          | undefined;
        if (!current) return notFound(binding.name);
        write(
          'pods',
          { ...current, spec: { ...current.spec, nodeName: binding.nodeName } } as KubeObject,
          'MODIFIED',
        );
        return of({ kind: 'Status', status: 'Success', metadata: {} } as Status);
      }),
  };
  return client;
}
