// The --data-dir storage engine: objects and a change log in one SQLite database (node:sqlite, WAL mode).
import { closeSync, existsSync, mkdirSync, openSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { FileJournal, JOURNAL_FILE } from '../file-journal.ts';
import type { Journal, JournalRecord, ObjectStore } from '../object-store.ts';

/** The database's file name inside the data directory. */
export const DATABASE_FILE = 'objects.db';

/**
 * node:sqlite, loaded on first use (not when the API server module loads, so commands without
 * `--data-dir` never touch it), without Node's "SQLite is an experimental feature" warning: the
 * module is stable enough for what this engine uses, and the warning would read as a fault.
 */
function sqlite(): typeof import('node:sqlite') {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('SQLite is an experimental feature')) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

/** Log rows kept behind the newest one before older ones are pruned (the rows are only an audit trail). */
const LOG_KEPT = 10_000;

/** What opening found: how many objects and the resourceVersion restored, and any migrated journal. */
export interface SqliteOpenResult {
  journal: SqliteJournal;
  objects: number;
  resourceVersion: number;
  /** Records read from an old JSONL journal and moved into the database (0 when there was none). */
  migratedRecords: number;
}

/**
 * A SQLite database holding every live object (`objects`) and one row per commit (`log`, whose
 * integer primary key is the commit's resourceVersion). Invariants: `append` writes the log row and
 * the object change in one transaction and returns only after SQLite committed it with
 * `synchronous=FULL` (the WAL is fsynced), so an acknowledged write survives SIGKILL and a write
 * cut short leaves nothing behind; the newest log row's rv is the store's rv.
 */
export class SqliteJournal implements Journal {
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly insertLog: StatementSync;
  private readonly upsert: StatementSync;
  private readonly remove: StatementSync;
  private readonly prune: StatementSync;
  private sincePrune = 0;
  private closed = false;

  private constructor(path: string) {
    this.path = path;
    // the WAL and shared-memory files SQLite creates take this file's mode: create it owner-only first
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
    this.db = new (sqlite().DatabaseSync)(path);
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = FULL;
      CREATE TABLE IF NOT EXISTS log (
        rv INTEGER PRIMARY KEY, type TEXT NOT NULL, resource TEXT NOT NULL, key TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS objects (
        resource TEXT NOT NULL, key TEXT NOT NULL, rv INTEGER NOT NULL, json TEXT NOT NULL,
        PRIMARY KEY (resource, key)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `);
    this.insertLog = this.db.prepare('INSERT INTO log (rv, type, resource, key) VALUES (?, ?, ?, ?)');
    this.upsert = this.db.prepare(
      'INSERT INTO objects (resource, key, rv, json) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (resource, key) DO UPDATE SET rv = excluded.rv, json = excluded.json',
    );
    this.remove = this.db.prepare('DELETE FROM objects WHERE resource = ? AND key = ?');
    this.prune = this.db.prepare('DELETE FROM log WHERE rv < ?');
  }

  /**
   * Opens (creating) the database in `dir` and loads its objects into `store`. An old JSONL journal
   * found there is replayed into the database once and renamed to `objects.jsonl.migrated`.
   * @throws Error naming the file when the database or an old journal cannot be read
   */
  static open(dir: string, store: ObjectStore): SqliteOpenResult {
    mkdirSync(dir, { recursive: true });
    const journal = new SqliteJournal(join(dir, DATABASE_FILE));
    let migratedRecords = 0;
    const oldJournal = join(dir, JOURNAL_FILE);
    if (existsSync(oldJournal)) {
      const { journal: old, records } = FileJournal.open(dir);
      old.close();
      migratedRecords = journal.migrate(records);
      renameSync(oldJournal, `${oldJournal}.migrated`);
    }
    const { objects, resourceVersion } = journal.loadInto(store);
    return { journal, objects, resourceVersion, migratedRecords };
  }

  /** Replays old journal records into the (empty) database in one transaction. */
  private migrate(records: readonly JournalRecord[]): number {
    const scratch = new Map<string, { json: string; rv: number }>();
    let rv = 0;
    for (const r of records) {
      rv = Math.max(rv, r.rv);
      if (r.type === 'RV') continue;
      const id = `${r.resource}\u0000${r.key}`;
      if (r.type === 'DELETED') scratch.delete(id);
      else scratch.set(id, { json: JSON.stringify(r.object), rv: r.rv });
    }
    this.db.exec('BEGIN');
    try {
      for (const [id, object] of scratch) {
        const [resource, key] = id.split('\u0000') as [string, string];
        this.upsert.run(resource, key, object.rv, object.json);
      }
      if (rv > 0)
        this.db
          .prepare("INSERT OR IGNORE INTO log (rv, type, resource, key) VALUES (?, 'RV', '', '')")
          .run(rv);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    return records.length;
  }

  /** Loads every stored object into `store` and sets its rv to the newest log row's. */
  private loadInto(store: ObjectStore): { objects: number; resourceVersion: number } {
    let objects = 0;
    let resourceVersion = 0;
    for (const row of this.db.prepare('SELECT resource, key, rv, json FROM objects').iterate()) {
      const r = row as { resource: string; key: string; rv: number; json: string };
      store.load(r.resource, r.key, r.rv, r.json);
      resourceVersion = Math.max(resourceVersion, r.rv);
      objects++;
    }
    const newest = this.db.prepare('SELECT max(rv) AS rv FROM log').get() as { rv: number | null };
    resourceVersion = Math.max(resourceVersion, newest.rv ?? 0);
    store.loaded(resourceVersion);
    return { objects, resourceVersion };
  }

  append(record: JournalRecord): void {
    if (this.closed) throw new Error(`${this.path}: database is closed`);
    if (record.type === 'RV' || record.type === 'SNAPSHOT') return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.insertLog.run(record.rv, record.type, record.resource, record.key);
      if (record.type === 'DELETED') this.remove.run(record.resource, record.key);
      else
        this.upsert.run(record.resource, record.key, record.rv, record.json ?? JSON.stringify(record.object));
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
    if (++this.sincePrune >= 1024) {
      this.sincePrune = 0;
      this.prune.run(record.rv - LOG_KEPT);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
