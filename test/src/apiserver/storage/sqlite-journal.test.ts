// The SQLite engine: one transaction per commit, rv as the log row id, restore, migration, owner-only files.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../../../src/apiserver/file-journal.ts';
import { ObjectStore } from '../../../../src/apiserver/object-store.ts';
import { DATABASE_FILE, SqliteJournal } from '../../../../src/apiserver/storage/sqlite-journal.ts';

const obj = (name: string, v: number) => ({ metadata: { name }, data: { v: String(v) } });

describe('SqliteJournal', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'kube-rx-sqlite-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function open(dir: string) {
    const store = new ObjectStore();
    const opened = SqliteJournal.open(dir, store);
    store.setJournal(opened.journal);
    return { store, ...opened };
  }

  it('writes a log row whose id is the commit’s rv, and the object, and restores both on reopen', () => {
    const dir = tempDir();
    const first = open(dir);
    first.store.commit('configmaps', 'default/a', 'ADDED', obj('a', 1));
    first.store.commit('configmaps', 'default/b', 'ADDED', obj('b', 1));
    first.store.commit('configmaps', 'default/a', 'MODIFIED', obj('a', 2));
    first.store.commit('configmaps', 'default/b', 'DELETED', obj('b', 1));
    first.journal.close();

    const db = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
    expect(
      db
        .prepare('SELECT rv, type, key FROM log ORDER BY rv')
        .all()
        .map((r) => ({ ...r })),
    ).toEqual([
      { rv: 1, type: 'ADDED', key: 'default/a' },
      { rv: 2, type: 'ADDED', key: 'default/b' },
      { rv: 3, type: 'MODIFIED', key: 'default/a' },
      { rv: 4, type: 'DELETED', key: 'default/b' },
    ]);
    expect({ ...db.prepare('SELECT journal_mode FROM pragma_journal_mode').get() }).toEqual({
      journal_mode: 'wal',
    });
    db.close();

    const again = open(dir);
    expect(again.objects).toBe(1);
    expect(again.resourceVersion).toBe(4);
    expect(again.store.currentRv).toBe(4);
    expect(again.store.get('configmaps', 'default/a')?.object).toEqual({
      metadata: { name: 'a', resourceVersion: '3' },
      data: { v: '2' },
    });
    expect(again.store.get('configmaps', 'default/b')).toBeUndefined();
    // the next commit continues the sequence; a watch cannot reach back before the restart
    expect(again.store.commit('configmaps', 'default/c', 'ADDED', obj('c', 1)).rv).toBe(5);
    expect(() => again.store.eventsAfter(3)).toThrow(/too old resource version/);
    again.journal.close();
  });

  it('applies nothing when the write fails: the store stays as it was', () => {
    const dir = tempDir();
    const { store, journal } = open(dir);
    store.commit('configmaps', 'default/a', 'ADDED', obj('a', 1));
    journal.close();
    expect(() => store.commit('configmaps', 'default/a', 'MODIFIED', obj('a', 2))).toThrow(
      /database is closed/,
    );
    expect(store.get('configmaps', 'default/a')?.rv).toBe(1);
    expect(store.currentRv).toBe(1);
  });

  it('migrates an old JSONL journal once, keeping resourceVersions, and renames it', () => {
    const dir = tempDir();
    const stamped = (name: string, rv: number) => ({ metadata: { name, resourceVersion: String(rv) } });
    writeFileSync(
      join(dir, JOURNAL_FILE),
      [
        { type: 'RV', rv: 10 },
        { type: 'SNAPSHOT', rv: 4, resource: 'namespaces', key: 'default', object: stamped('default', 4) },
        { type: 'ADDED', rv: 11, resource: 'pods', key: 'default/p', object: stamped('p', 11) },
        { type: 'ADDED', rv: 12, resource: 'pods', key: 'default/q', object: stamped('q', 12) },
        { type: 'DELETED', rv: 13, resource: 'pods', key: 'default/q' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n')
        .concat('\n{"type":"ADD'), // a torn last line: a write never acknowledged
    );
    const first = open(dir);
    expect(first.migratedRecords).toBe(5);
    expect(first.resourceVersion).toBe(13);
    expect(first.store.get('pods', 'default/p')?.rv).toBe(11);
    expect(first.store.get('namespaces', 'default')?.rv).toBe(4);
    expect(first.store.get('pods', 'default/q')).toBeUndefined();
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
    expect(existsSync(join(dir, `${JOURNAL_FILE}.migrated`))).toBe(true);
    expect(first.store.commit('pods', 'default/r', 'ADDED', stamped('r', 0)).rv).toBe(14);
    first.journal.close();
    const second = open(dir);
    expect(second.migratedRecords).toBe(0);
    expect([...second.store.current('pods').keys()].sort()).toEqual(['default/p', 'default/r']);
    second.journal.close();
  });

  it('creates the database and its WAL files readable by their owner only', () => {
    const dir = tempDir();
    const { store, journal } = open(dir);
    store.commit('secrets', 'default/s', 'ADDED', obj('s', 1));
    const files = readdirSync(dir).filter((f) => f.startsWith(DATABASE_FILE));
    expect(files).toEqual(expect.arrayContaining([DATABASE_FILE, `${DATABASE_FILE}-wal`]));
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o077, f).toBe(0);
    journal.close();
  });
});
