// The LeaseClient port (get/create/update of coordination.k8s.io/v1 Leases) and its adapter over an ApiClient.
import { catchError, type Observable, of, throwError } from 'rxjs';
import { ApiError } from '../operators/errors.ts';
import type { Lease } from '../operators/leader-election-record.ts';
import type { ApiClient, ResourceDescriptor } from './api-client.ts';

/** `coordination.k8s.io/v1` leases. */
export const LEASES: Readonly<ResourceDescriptor> = Object.freeze({
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
  namespaced: true,
});

/**
 * What leader election needs from the API server.
 *
 * Contract: cold observables that emit once and complete; unsubscribing aborts the call.
 * - `get` emits `undefined` when the Lease does not exist (an expected outcome, not an error).
 * - `create` errors with `ApiError` 409 (AlreadyExists) when someone else created it first.
 * - `update` sends the Lease's `metadata.resourceVersion`; a concurrent change errors with
 *   `ApiError` 409 (Conflict).
 */
export interface LeaseClient {
  get(namespace: string, name: string): Observable<Lease | undefined>;
  create(lease: Lease): Observable<Lease>;
  update(lease: Lease): Observable<Lease>;
}

/**
 * A LeaseClient over an ApiClient.
 * @param client the API client
 * @returns get/create/update of Leases, with NotFound on `get` as `undefined`
 */
export function leaseClient(client: ApiClient): LeaseClient {
  return {
    get: (namespace, name) =>
      client
        .get<Lease>(LEASES, name, { namespace })
        .pipe(
          catchError((error: unknown) =>
            error instanceof ApiError && error.statusCode === 404 ? of(undefined) : throwError(() => error),
          ),
        ),
    create: (lease) => client.create<Lease>(LEASES, lease, { namespace: lease.metadata?.namespace ?? '' }),
    update: (lease) => client.update<Lease>(LEASES, lease, { namespace: lease.metadata?.namespace ?? '' }),
  };
}
