// Test fixture: a recording fake ApiClient for the namespace deleter — one namespace store, content per resource, scripted failures.
import { defer, type Observable, of, throwError } from 'rxjs';
import type { Namespace } from '../../../../operators/controller/namespace/namespace-types.ts';
import { ApiError } from '../../../../operators/errors.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import type { ApiClient, ResourceDescriptor, ServerResources } from '../../../../streams/api-client.ts';
import { TEST_RESOURCES } from '../../../operators/controller/namespace/test-resources.ts';

export const DELETED = '2026-01-01T00:00:00Z';

/** A namespace being deleted, with its finalizers and phase. */
export const terminating = (
  name: string,
  spec: Namespace['spec'] = { finalizers: ['kubernetes'] },
  phase = 'Terminating',
): Namespace => ({
  metadata: { name, uid: `uid-${name}`, resourceVersion: '1', deletionTimestamp: DELETED },
  spec,
  status: { phase },
});

export const apiError = (code: number, reason: string) =>
  new ApiError(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code, message: reason });

export interface Fake {
  client: ApiClient;
  actions: string[];
  namespaces: Map<string, Namespace>;
  /** Objects per `resource/namespace`. */
  content: Map<string, KubeObject[]>;
  /** Answers that fail: `verb-resource-subresource@namespace` → the error, `times` times. */
  fail: Map<string, { error: unknown; times: number }>;
}

export function fakeClient(
  namespaces: Namespace[],
  discovery: ServerResources = { lists: TEST_RESOURCES, failed: [] },
): Fake {
  const fake: Fake = {
    actions: [],
    namespaces: new Map(namespaces.map((n) => [n.metadata?.name ?? '', structuredClone(n)])),
    content: new Map(),
    fail: new Map(),
    client: undefined as unknown as ApiClient,
  };
  let rv = 10;
  const act = <T>(
    verb: string,
    r: ResourceDescriptor,
    ns: string,
    sub: string,
    answer: () => T,
  ): Observable<T> =>
    defer(() => {
      fake.actions.push(`${verb}-${r.plural}-${sub}`);
      const failure = fake.fail.get(`${verb}-${r.plural}-${sub}@${ns}`);
      if (failure && failure.times > 0) {
        failure.times--;
        return throwError(() => failure.error);
      }
      try {
        return of(answer());
      } catch (error) {
        return throwError(() => error);
      }
    });
  const getNs = (name: string) => {
    const ns = fake.namespaces.get(name);
    if (!ns) throw apiError(404, 'NotFound');
    return structuredClone(ns);
  };
  const writeNs = (object: Namespace, change: (stored: Namespace) => void) => {
    const stored = getNs(object.metadata?.name ?? '');
    if (
      object.metadata?.resourceVersion &&
      object.metadata.resourceVersion !== stored.metadata?.resourceVersion
    )
      throw apiError(409, 'Conflict');
    change(stored);
    stored.metadata = { ...stored.metadata, resourceVersion: String(++rv) };
    fake.namespaces.set(stored.metadata.name ?? '', stored);
    return structuredClone(stored) as never;
  };
  const unsupported = () => throwError(() => new Error('not in the fake'));
  fake.client = {
    list: (r, o = {}) =>
      act(
        'list',
        r,
        o.namespace ?? '',
        '',
        () => ({ items: fake.content.get(`${r.plural}/${o.namespace}`) ?? [] }) as never,
      ),
    get: (r, name) => act('get', r, '', '', () => getNs(name) as never),
    updateStatus: (r, object) =>
      act('update', r, '', 'status', () =>
        writeNs(object as Namespace, (s) => Object.assign(s, { status: (object as Namespace).status })),
      ),
    update: (r, object, o = {}) =>
      act('update', r, '', o.subresource ?? '', () =>
        writeNs(object as Namespace, (s) => Object.assign(s, { spec: (object as Namespace).spec })),
      ),
    deleteCollection: (r, o = {}) =>
      act('deletecollection', r, o.namespace ?? '', '', () => {
        fake.content.set(
          `${r.plural}/${o.namespace}`,
          (fake.content.get(`${r.plural}/${o.namespace}`) ?? []).filter(
            (i) => (i.metadata?.finalizers ?? []).length > 0,
          ),
        );
        return { kind: 'Status' } as never;
      }),
    delete: (r, name, o = {}) =>
      act('delete', r, o.namespace ?? '', '', () => ({ kind: 'Status', name }) as never),
    serverPreferredResources: () => {
      fake.actions.push('discovery');
      return of(discovery);
    },
    watch: unsupported,
    create: unsupported,
    patch: unsupported,
    bind: unsupported,
  };
  return fake;
}
