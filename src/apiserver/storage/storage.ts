// The API server's storage port: the cache the registry reads and commits through, over one engine.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ObjectStore } from '../object-store.ts';

/** Which engine holds the objects. */
export type StorageEngine = 'memory' | 'sqlite' | 'etcd';

/**
 * Storage as the registry and the HTTP handler use it. `store` serves get, list (current state or
 * a snapshot at a resourceVersion), create/update/delete (`commit`, one resourceVersion each) and
 * watch (`subscribe`, `eventsAfter`, 410 below `compactedRv`) synchronously from memory; the engine
 * beneath makes commits durable: in memory (none), SQLite (before `commit` returns) or etcd (before
 * the request's answer leaves, which {@link Storage.holdResponses} arranges).
 */
export interface Storage {
  readonly engine: StorageEngine;
  readonly store: ObjectStore;
  /** Where the objects live: `memory`, the database path, or the etcd servers and prefix. */
  readonly location: string;
  /** Wraps the API handler so answers to writes wait for the engine (identity for synchronous engines). */
  holdResponses(
    handler: (req: IncomingMessage, res: ServerResponse) => void,
  ): (req: IncomingMessage, res: ServerResponse) => void;
  /** Resolves once every commit so far is durable or refused (at once for synchronous engines). */
  settled(): Promise<void>;
  /** Stops the engine: waits briefly for queued commits, then closes files or connections. */
  close(): Promise<void>;
}
