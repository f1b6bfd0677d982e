// An in-memory Lease store with resourceVersions, latency and partitions, giving each candidate its own LeaseClient.

import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import { ApiError } from '../../operators/errors.ts';
import type { Lease } from '../../operators/leader-election-record.ts';
import type { LeaseClient } from '../../streams/lease-client.ts';

/** How a partitioned client behaves: requests never answer (`hang`) or fail with 503 (`fail`). */
export type PartitionMode = 'hang' | 'fail';

/** A LeaseClient of the in-memory store whose network can be cut. */
export interface InMemoryLeaseClient extends LeaseClient {
  /** Cuts this client off (`'hang'` / `'fail'`) or reconnects it (`false`). */
  partition(mode: PartitionMode | false): void;
}

export interface InMemoryLeasesOptions {
  /** Clock for latency. Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

export interface InMemoryLeaseClientOptions {
  /** Milliseconds before a call takes effect and answers; 0 answers synchronously. Default 0. */
  latency?: number;
}

/** A fake Lease API shared by several candidates. */
export interface InMemoryLeases {
  /** A client of this store, e.g. one per candidate. */
  client(options?: InMemoryLeaseClientOptions): InMemoryLeaseClient;
  /** The stored Lease (a copy), or `undefined`. */
  get(namespace: string, name: string): Lease | undefined;
  /** Every successful write, oldest first. */
  readonly writes: readonly Lease[];
}

function status(code: number, reason: string, message: string): ApiError {
  return new ApiError(code, { kind: 'Status', status: 'Failure', code, reason, message });
}

const clone = <T>(value: T): T => structuredClone(value);

/**
 * An in-memory `coordination.k8s.io/v1` Lease API with the server's optimistic concurrency: `create`
 * fails with 409 AlreadyExists, `update` with 409 Conflict when its resourceVersion is stale, and every
 * write bumps the resourceVersion. Calls take effect after the client's latency (on the scheduler), so
 * unsubscribing before then means the call never happened.
 *
 * @example
 * const leases = inMemoryLeases({ scheduler });
 * const a = leaderElection({ client: leases.client({ latency: 5 }), namespace: 'ns', name: 'lock',
 *   identity: 'a', scheduler });
 * @param options the clock used for latency
 * @returns the store; `client()` hands out LeaseClients that can be partitioned
 */
export function inMemoryLeases(options: InMemoryLeasesOptions = {}): InMemoryLeases {
  const scheduler = options.scheduler ?? asyncScheduler;
  const store = new Map<string, Lease>();
  const writes: Lease[] = [];
  let version = 0;
  const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;
  /** Stores `lease` as `namespace/name` at the next resourceVersion, records the write, returns a copy. */
  const commit = (namespace: string, name: string, lease: Lease): Lease => {
    version += 1;
    const stored: Lease = {
      ...clone(lease),
      metadata: { ...clone(lease.metadata), namespace, name, resourceVersion: String(version) },
    };
    store.set(keyOf(namespace, name), stored);
    writes.push(clone(stored));
    return clone(stored);
  };

  const apply = {
    get(namespace: string, name: string): Lease | undefined {
      const found = store.get(keyOf(namespace, name));
      return found ? clone(found) : undefined;
    },
    create(lease: Lease): Lease {
      const { namespace = '', name = '' } = lease.metadata ?? {};
      if (!name) throw status(422, 'Invalid', 'metadata.name: Required value');
      if (store.has(keyOf(namespace, name))) {
        throw status(409, 'AlreadyExists', `leases.coordination.k8s.io "${name}" already exists`);
      }
      return commit(namespace, name, lease);
    },
    update(lease: Lease): Lease {
      const { namespace = '', name = '', resourceVersion } = lease.metadata ?? {};
      const current = store.get(keyOf(namespace, name));
      if (!current) throw status(404, 'NotFound', `leases.coordination.k8s.io "${name}" not found`);
      if (resourceVersion && resourceVersion !== current.metadata?.resourceVersion) {
        throw status(
          409,
          'Conflict',
          `Operation cannot be fulfilled on leases.coordination.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      }
      return commit(namespace, name, lease);
    },
  };

  function client(clientOptions: InMemoryLeaseClientOptions = {}): InMemoryLeaseClient {
    const latency = clientOptions.latency ?? 0;
    let cut: PartitionMode | false = false;
    const call = <T>(run: () => T): Observable<T> =>
      new Observable<T>((subscriber) => {
        const mode = cut;
        if (mode === 'hang') return;
        const settle = () => {
          if (mode === 'fail') {
            subscriber.error(status(503, 'ServiceUnavailable', 'partitioned'));
            return;
          }
          let value: T;
          try {
            value = run();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.next(value);
          subscriber.complete();
        };
        if (latency <= 0) {
          settle();
          return;
        }
        return scheduler.schedule(settle, latency);
      });
    return {
      get: (namespace, name) => call(() => apply.get(namespace, name)),
      create: (lease) => call(() => apply.create(lease)),
      update: (lease) => call(() => apply.update(lease)),
      partition(mode) {
        cut = mode;
      },
    };
  }

  return {
    client,
    get: (namespace, name) => apply.get(namespace, name),
    writes,
  };
}
