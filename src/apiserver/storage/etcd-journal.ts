// The --etcd-servers storage engine: objects under an etcd v3 prefix, resourceVersions are etcd revisions.
import { Etcd3, type IOptions, type Watcher } from 'etcd3';
import type { Logger } from '../../../operators/logger.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { ApiStatusError, conflict, STALE_OBJECT_MESSAGE } from '../api-status.ts';
import type { Journal, JournalRecord, ObjectStore } from '../object-store.ts';
import { type AcknowledgedWrite, pendingWrites } from './pending-writes.ts';

/** The key every kube-rx write also sets: its value names the write, so writers chain on each other. */
export const WRITER_KEY = '.kube-rx/last-write';

export interface EtcdJournalOptions {
  /** Client URLs, as kube-apiserver's `--etcd-servers`. */
  servers: readonly string[];
  /** Key prefix, as kube-apiserver's `--etcd-prefix`; default `/registry`. */
  prefix?: string;
  logger: Logger;
  /** Extra etcd3 client options (tests shorten timeouts). */
  client?: Partial<IOptions>;
}

interface Entry {
  record: Exclude<JournalRecord, { type: 'RV' }>;
  /** The writer value this write sets, and the one it expects to find. */
  token: string;
  expect: string;
  sent: boolean;
  settled: boolean;
  /** Undone in the cache already (another writer came first): its refusal must not undo later commits. */
  undone: boolean;
  resolve(ack: AcknowledgedWrite): void;
  reject(error: unknown): void;
}

/** Resource id and key from an etcd key below the prefix: `pods/default/web` → pods, default/web. */
export function splitStorageKey(rest: string, namespaced: boolean): { resource: string; key: string } {
  const parts = rest.split('/');
  const keyParts = namespaced ? 2 : 1;
  return { resource: parts.slice(0, -keyParts).join('/'), key: parts.slice(-keyParts).join('/') };
}

/** API groups without a dot (every other group, custom ones included, has one). */
const DOTLESS_GROUPS = new Set(['apps', 'batch', 'policy', 'autoscaling', 'extensions']);

/**
 * Whether an etcd key below the prefix names a namespaced object, from its shape alone:
 * `res/name` no, `group/res/ns/name` yes, and `x/y/z` is `group/res/name` when `x` is a group.
 */
export function namespacedKey(rest: string): boolean {
  const parts = rest.split('/');
  if (parts.length !== 3) return parts.length >= 4;
  return !(parts[0]!.includes('.') || DOTLESS_GROUPS.has(parts[0]!));
}

/** The Conflict a refused write is answered with, naming its object as upstream words it. */
function storageConflict(record: Entry['record']): ApiStatusError {
  const slash = record.resource.lastIndexOf('/');
  const group = slash < 0 ? '' : record.resource.slice(0, slash);
  const plural = record.resource.slice(slash + 1);
  const name = record.key.slice(record.key.lastIndexOf('/') + 1);
  return conflict({ group, name }, plural, STALE_OBJECT_MESSAGE);
}

/**
 * An etcd v3 keyspace as the store's journal. Keys are `<prefix>/<resource id>/<namespace>/<name>`
 * (cluster-scoped: no namespace), values the objects' JSON; an object's resourceVersion is its
 * etcd mod revision. Several API servers may share one prefix.
 *
 * Invariants: each commit is one etcd transaction that succeeds only if the writer key still holds
 * the value of the write this server's cache reflects last, so no write is made from a stale cache
 * and every commit gets its own revision; a commit is acknowledged (its pending-writes promise
 * resolves) only once etcd committed it, and refused (409) when another writer came first, in
 * which case it and every later pending commit are undone in the cache; other writers' changes
 * arrive through one etcd watch, in revision order, and enter the cache's history as its own do.
 */
export class EtcdJournal implements Journal {
  readonly confirmsLater = true;
  readonly prefix: string;
  private readonly client: Etcd3;
  private readonly store: ObjectStore;
  private readonly log: Logger;
  private watcher: Watcher | undefined;
  private queue: Entry[] = [];
  /** Writes etcd stored at an unpredicted revision, by writer value, until the watch brings them. */
  private readonly awaitingEcho = new Map<string, Entry>();
  private pumping = false;
  /** The writer value the next commit expects: the newest write the cache reflects, or a pending one. */
  private tail = '';
  /** The writer value of the newest write the cache reflects (confirmed or remote). */
  private known = '';
  private sequence = 0;
  private readonly id = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  private closed = false;

  private constructor(client: Etcd3, store: ObjectStore, prefix: string, log: Logger) {
    this.client = client;
    this.store = store;
    this.prefix = prefix;
    this.log = log;
  }

  /**
   * Connects, loads every object under the prefix into `store` (pages of 500 at one revision),
   * and follows the prefix from that revision on.
   * @returns the journal and how many objects and which revision were loaded
   * @throws Error when etcd cannot be reached
   */
  static async open(
    options: EtcdJournalOptions,
    store: ObjectStore,
  ): Promise<{ journal: EtcdJournal; objects: number; resourceVersion: number }> {
    const prefix = (options.prefix ?? '/registry').replace(/\/+$/, '');
    const client = new Etcd3({ hosts: [...options.servers], ...options.client });
    const journal = new EtcdJournal(client, store, prefix, options.logger);
    try {
      const { objects, resourceVersion } = await journal.load();
      journal.follow(resourceVersion);
      return { journal, objects, resourceVersion };
    } catch (error) {
      client.close();
      throw error;
    }
  }

  private get writerKey(): string {
    return `${this.prefix}/${WRITER_KEY}`;
  }

  private storageKey(resource: string, key: string): string {
    return `${this.prefix}/${resource}/${key}`;
  }

  private async load(): Promise<{ objects: number; resourceVersion: number }> {
    const start = Buffer.from(`${this.prefix}/`);
    const end = Buffer.from(`${this.prefix}0`); // '0' follows '/': the end of the prefix range
    let from = start;
    let revision: string | undefined;
    let objects = 0;
    for (;;) {
      const page = await this.client.kv.range({
        key: from,
        range_end: end,
        limit: 500,
        ...(revision ? { revision } : {}),
      });
      revision ??= page.header.revision;
      for (const kv of page.kvs) {
        const fullKey = kv.key.toString();
        if (fullKey === this.writerKey) {
          this.known = kv.value.toString();
          continue;
        }
        const json = kv.value.toString();
        const rest = fullKey.slice(this.prefix.length + 1);
        const { resource, key } = splitStorageKey(rest, namespacedKey(rest));
        const rv = Number(kv.mod_revision);
        // parsed on first use; restamped then when written without this revision (by another client)
        this.store.load(resource, key, rv, json, json.includes(`"resourceVersion":"${rv}"`));
        objects++;
      }
      if (!page.more || page.kvs.length === 0) break;
      from = Buffer.concat([page.kvs[page.kvs.length - 1]!.key, Buffer.from([0])]);
    }
    const resourceVersion = Number(revision ?? 0);
    this.store.loaded(resourceVersion);
    this.tail = this.known;
    return { objects, resourceVersion };
  }

  private follow(afterRevision: number): void {
    const watcher = this.client
      .watch()
      .prefix(`${this.prefix}/`)
      .startRevision(String(afterRevision + 1))
      .withPreviousKV()
      .watcher();
    watcher.on('data', (res) => this.onWatch(res.events));
    watcher.on('error', (err) => this.log.error({ err }, 'etcd watch failed'));
    watcher.on('disconnected', (err) => this.log.warn({ err }, 'etcd watch disconnected; reconnecting'));
    this.watcher = watcher;
  }

  private onWatch(events: readonly { type: string; kv: EtcdKv; prev_kv?: EtcdKv }[]): void {
    let i = 0;
    while (i < events.length) {
      const rev = Number(events[i]!.kv.mod_revision);
      let j = i;
      while (j < events.length && Number(events[j]!.kv.mod_revision) === rev) j++;
      this.onRevision(rev, events.slice(i, j));
      i = j;
    }
  }

  /** One etcd revision's events: confirms this server's pending commit, or applies another writer's. */
  private onRevision(rev: number, events: readonly { type: string; kv: EtcdKv; prev_kv?: EtcdKv }[]): void {
    if (rev <= this.store.currentRv) return; // already in the cache (confirmed by the transaction's answer)
    const writer = events.find((e) => e.kv.key.toString() === this.writerKey);
    const token = writer?.type === 'Put' ? writer.kv.value.toString() : undefined;
    const entry =
      token === undefined
        ? undefined
        : (this.queue.find((e) => e.token === token) ?? this.awaitingEcho.get(token));
    if (token !== undefined) this.awaitingEcho.delete(token);
    if (entry) this.settle(entry, { storedRv: rev });
    if (entry && !entry.undone && this.store.hasPending && this.store.oldestPendingRv === entry.record.rv) {
      this.store.confirmNext(rev);
      this.known = entry.token;
      return;
    }
    // Another writer's change (or one of ours that landed at an unexpected revision): every pending
    // commit was made over a cache without it and is refused by etcd; undo them, then apply it.
    this.undoPending();
    for (const e of events) {
      const fullKey = e.kv.key.toString();
      if (fullKey === this.writerKey) continue;
      const rest = fullKey.slice(this.prefix.length + 1);
      if (e.type === 'Put') {
        const object = JSON.parse(e.kv.value.toString()) as KubeObject;
        const ns = object.metadata?.namespace;
        const { resource, key } = splitStorageKey(rest, ns !== undefined && ns !== '');
        const existed = this.store.get(resource, key) !== undefined;
        this.store.applyRemote(
          resource,
          key,
          existed ? 'MODIFIED' : 'ADDED',
          stampedObject(object, rev),
          rev,
        );
      } else {
        const last = e.prev_kv ? (JSON.parse(e.prev_kv.value.toString()) as KubeObject) : undefined;
        const guesses = last
          ? [splitStorageKey(rest, !!last.metadata?.namespace)]
          : [splitStorageKey(rest, true), splitStorageKey(rest, false)];
        const found = guesses.find((g) => this.store.get(g.resource, g.key));
        if (!found) continue;
        const prior = last ?? this.store.get(found.resource, found.key)!.object;
        this.store.applyRemote(found.resource, found.key, 'DELETED', stampedObject(prior, rev), rev);
      }
    }
    if (token !== undefined) this.known = token;
    this.tail = this.known;
  }

  /** Undoes every pending commit in the cache; those not yet sent are refused now, sent ones by etcd. */
  private undoPending(): void {
    if (!this.store.hasPending) return;
    this.store.rollbackPending();
    for (const e of this.awaitingEcho.values()) e.undone = true;
    for (const e of this.queue) {
      e.undone = true;
      if (!e.sent) this.settle(e, { error: storageConflict(e.record) });
    }
    this.queue = this.queue.filter((e) => e.sent);
    this.tail = this.known;
  }

  /** Settles a write once: acknowledged at `storedRv`, or refused with `error`. */
  private settle(entry: Entry, outcome: { storedRv: number } | { error: unknown }): void {
    if (entry.settled) return;
    entry.settled = true;
    if ('error' in outcome) entry.reject(outcome.error);
    else entry.resolve({ predictedRv: entry.record.rv, storedRv: outcome.storedRv });
  }

  append(record: JournalRecord): void {
    if (this.closed) throw new Error('the etcd storage is closed');
    if (record.type === 'RV' || record.type === 'SNAPSHOT') return;
    let resolve!: (ack: AcknowledgedWrite) => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<AcknowledgedWrite>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A write nobody waits for (bootstrap, the event mirror) only logs its failure.
    const waiters = pendingWrites.getStore();
    if (waiters) waiters.push(done);
    else
      done.catch((err: unknown) => {
        // two servers both mirroring one Event race for it: the loser's refusal is routine
        if (err instanceof ApiStatusError && err.statusCode === 409)
          this.log.debug({ key: record.key }, 'an internal write lost a race to another server');
        else this.log.warn({ err, key: record.key }, 'an internal write was refused');
      });
    const token = `${this.id}-${++this.sequence}`;
    this.queue.push({
      record,
      token,
      expect: this.tail,
      sent: false,
      settled: false,
      undone: false,
      resolve,
      reject,
    });
    this.tail = token;
    void this.pump();
  }

  /** Sends queued commits one at a time, in order: each one's compare depends on the previous one. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const entry = this.queue[0]!;
        entry.sent = true;
        const { record } = entry;
        const key = this.storageKey(record.resource, record.key);
        const write =
          record.type === 'DELETED'
            ? this.client.delete().key(key)
            : this.client.put(key).value(record.json ?? JSON.stringify(record.object));
        const txn =
          entry.expect === ''
            ? this.client.if(this.writerKey, 'Version', '==', 0)
            : this.client.if(this.writerKey, 'Value', '==', entry.expect);
        let answer: { succeeded: boolean; header: { revision: string } } | undefined;
        let failure: unknown;
        try {
          answer = await txn.then(write, this.client.put(this.writerKey).value(entry.token)).commit();
        } catch (error) {
          failure = error;
        }
        this.queue.shift();
        if (answer?.succeeded) {
          const rev = Number(answer.header.revision);
          if (record.rv !== rev) {
            // Stored at another revision than predicted (another client wrote elsewhere in etcd in
            // between). Changes of our prefix before it may still be on their way through the watch,
            // so the cache takes it from there, in order; the answer waits for that too.
            if (rev > this.store.currentRv) this.awaitingEcho.set(entry.token, entry);
            else this.settle(entry, { storedRv: rev });
          } else {
            this.settle(entry, { storedRv: rev });
            if (!entry.undone && rev > this.store.currentRv && this.store.oldestPendingRv === rev) {
              this.store.confirmNext(rev);
              this.known = entry.token;
            }
          }
        } else {
          if (failure !== undefined) this.log.warn({ err: failure, key }, 'etcd write failed');
          this.settle(entry, {
            error:
              failure === undefined
                ? storageConflict(record)
                : new ApiStatusError(500, 'InternalError', `etcd: ${(failure as Error).message}`),
          });
          if (!entry.undone) this.undoPending();
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Resolves once every commit queued so far is acknowledged or refused. */
  async settled(): Promise<void> {
    await Promise.allSettled(
      this.queue.map(
        (e) =>
          new Promise<void>((r) => {
            const tick = () => (e.settled ? r() : setTimeout(tick, 5));
            tick();
          }),
      ),
    );
  }

  /**
   * Compacts etcd's history up to `revision` (kube-apiserver does this every 5 minutes); a later
   * watch or list from an older revision of another server is then answered 410.
   */
  async compact(revision: number): Promise<void> {
    await this.client.kv.compact({ revision: String(revision), physical: false });
  }

  /** Waits for queued commits (at most `timeoutMs`), stops following and disconnects. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.race([this.settled(), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    await this.watcher?.cancel().catch(() => undefined);
    this.client.close();
  }
}

interface EtcdKv {
  key: Buffer;
  value: Buffer;
  mod_revision: string;
}

function stampedObject(object: KubeObject, rv: number): KubeObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } };
}
