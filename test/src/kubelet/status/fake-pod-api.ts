// Test fake: an in-memory ApiClient for pods (get, merge-patch of status, delete) with injected faults and a log of calls.
import { defer, type Observable, of, throwError } from 'rxjs';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { ApiError } from '../../../../operators/errors.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { mergePatch } from '../../../../src/apiserver/merge-patch.ts';
import type { ApiClient, DeleteOptions, PatchOptions } from '../../../../streams/api-client.ts';

export interface FakeCall {
  verb: 'get' | 'patch' | 'delete';
  key: string;
  patch?: unknown;
  options?: PatchOptions | DeleteOptions;
}

const apiError = (code: number, reason: string, message: string) =>
  new ApiError(code, { kind: 'Status', status: 'Failure', code, reason, message });

/** Pods by `namespace/name`; every write bumps the resourceVersion. */
export class FakePodApi {
  readonly pods = new Map<string, Pod>();
  readonly calls: FakeCall[] = [];
  /** Status phases the server stored, in order, per pod key. */
  readonly phaseHistory = new Map<string, (string | undefined)[]>();
  /** Errors the next calls of a verb fail with, in order. */
  readonly faults: Record<'get' | 'patch' | 'delete', unknown[]> = { get: [], patch: [], delete: [] };
  #rv = 0;

  put(pod: Pod): Pod {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const stored = structuredClone({
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: String(++this.#rv) },
    });
    this.pods.set(key, stored);
    return stored;
  }

  conflictOnNextPatch(times = 1): void {
    for (let i = 0; i < times; i++)
      this.faults.patch.push(apiError(409, 'Conflict', 'the object has been modified'));
  }

  readonly client: ApiClient = {
    get: <T extends KubeObject>(_r: unknown, name: string, options?: { namespace?: string }) =>
      defer((): Observable<T> => {
        const key = `${options?.namespace}/${name}`;
        this.calls.push({ verb: 'get', key });
        const fault = this.faults.get.shift();
        if (fault) return throwError(() => fault);
        const pod = this.pods.get(key);
        if (!pod) return throwError(() => apiError(404, 'NotFound', `pods "${name}" not found`));
        return of(structuredClone(pod) as unknown as T);
      }),
    patch: <T extends KubeObject>(
      _r: unknown,
      name: string,
      patch: unknown,
      _type: string,
      options?: PatchOptions,
    ) =>
      defer((): Observable<T> => {
        const key = `${options?.namespace}/${name}`;
        this.calls.push({ verb: 'patch', key, patch: structuredClone(patch), options });
        const fault = this.faults.patch.shift();
        if (fault) return throwError(() => fault);
        const pod = this.pods.get(key);
        if (!pod) return throwError(() => apiError(404, 'NotFound', `pods "${name}" not found`));
        const body = patch as { metadata?: { uid?: string }; status?: unknown };
        if (body.metadata?.uid && body.metadata.uid !== pod.metadata.uid) {
          return throwError(() => apiError(409, 'Conflict', 'Precondition failed: UID in precondition'));
        }
        const status = mergePatch(pod.status ?? {}, body.status ?? {}) as Pod['status'];
        const stored = this.put({ ...pod, status: status ?? {} });
        const history = this.phaseHistory.get(key) ?? [];
        history.push(stored.status?.phase);
        this.phaseHistory.set(key, history);
        return of(structuredClone(stored) as unknown as T);
      }),
    delete: (_r: unknown, name: string, options?: DeleteOptions) =>
      defer(() => {
        const key = `${options?.namespace}/${name}`;
        this.calls.push({ verb: 'delete', key, options });
        const fault = this.faults.delete.shift();
        if (fault) return throwError(() => fault);
        const pod = this.pods.get(key);
        if (!pod) return throwError(() => apiError(404, 'NotFound', `pods "${name}" not found`));
        if (options?.preconditions?.uid && options.preconditions.uid !== pod.metadata.uid) {
          return throwError(() => apiError(409, 'Conflict', 'Precondition failed: UID in precondition'));
        }
        this.pods.delete(key);
        return of(pod as KubeObject);
      }),
    list: () => throwError(() => new Error('not faked')),
    watch: () => throwError(() => new Error('not faked')),
    create: () => throwError(() => new Error('not faked')),
    update: () => throwError(() => new Error('not faked')),
    updateStatus: () => throwError(() => new Error('not faked')),
    bind: () => throwError(() => new Error('not faked')),
  };

  /** Calls of one verb. */
  count(verb: FakeCall['verb']): number {
    return this.calls.filter((c) => c.verb === verb).length;
  }
}
