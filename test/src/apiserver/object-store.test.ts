// The store: rv per commit, history window, snapshots at an rv, 410 and 504 boundaries, journal restore.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiStatusError } from '../../../src/apiserver/api-status.ts';
import { FileJournal, JOURNAL_FILE } from '../../../src/apiserver/file-journal.ts';
import { ObjectStore } from '../../../src/apiserver/object-store.ts';

const obj = (name: string, v: number) => ({ metadata: { name }, data: { v: String(v) } });

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return (error as ApiStatusError).statusCode;
  }
  return undefined;
}

describe('ObjectStore', () => {
  it('gives every commit the next resourceVersion and stamps it on the object', () => {
    const store = new ObjectStore();
    const a = store.commit('configmaps', 'a', 'ADDED', obj('a', 1));
    const b = store.commit('configmaps', 'a', 'MODIFIED', obj('a', 2));
    expect([a.rv, b.rv]).toEqual([1, 2]);
    expect(b.object.metadata?.resourceVersion).toBe('2');
    expect(b.prev?.rv).toBe(1);
    expect(store.get('configmaps', 'a')?.json).toBe(JSON.stringify(b.object));
  });

  it('rebuilds the state at any rv inside the window and refuses older or newer ones', () => {
    const store = new ObjectStore({ historyWindow: 3 });
    store.commit('cm', 'a', 'ADDED', obj('a', 1)); // 1
    store.commit('cm', 'b', 'ADDED', obj('b', 1)); // 2
    store.commit('cm', 'a', 'MODIFIED', obj('a', 2)); // 3
    store.commit('cm', 'b', 'DELETED', obj('b', 1)); // 4
    store.commit('other', 'x', 'ADDED', obj('x', 1)); // 5
    expect(store.compactedRv).toBe(2);
    const at = (rv: number) => Object.fromEntries([...store.snapshotAt('cm', rv)].map(([k, v]) => [k, v.rv]));
    expect(at(2)).toEqual({ a: 1, b: 2 });
    expect(at(3)).toEqual({ a: 3, b: 2 });
    expect(at(5)).toEqual({ a: 3 });
    expect(codeOf(() => store.snapshotAt('cm', 1))).toBe(410);
    expect(codeOf(() => store.snapshotAt('cm', 6))).toBe(504);
    expect(store.eventsAfter(3).map((e) => e.rv)).toEqual([4, 5]);
    expect(codeOf(() => store.eventsAfter(1))).toBe(410);
  });

  it('tells listeners each commit, in order, until they unsubscribe', () => {
    const store = new ObjectStore();
    const seen: number[] = [];
    const off = store.subscribe((e) => seen.push(e.rv));
    store.commit('cm', 'a', 'ADDED', obj('a', 1));
    off();
    store.commit('cm', 'a', 'MODIFIED', obj('a', 2));
    expect(seen).toEqual([1]);
  });
});

describe('FileJournal', () => {
  it('restores state, rvs and history, and drops a torn last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-journal-'));
    try {
      const { journal } = FileJournal.open(dir);
      const store = new ObjectStore({ journal });
      store.commit('cm', 'a', 'ADDED', obj('a', 1));
      store.commit('cm', 'b', 'ADDED', obj('b', 1));
      store.commit('cm', 'a', 'DELETED', obj('a', 1));
      journal.close();
      const path = join(dir, JOURNAL_FILE);
      writeFileSync(path, `${readFileSync(path, 'utf8')}{"type":"ADDED","rv":4,"resou`);
      const reopened = FileJournal.open(dir);
      expect(reopened.records).toHaveLength(3);
      const restored = new ObjectStore();
      restored.restore(reopened.records);
      expect(restored.currentRv).toBe(3);
      expect([...restored.current('cm').keys()]).toEqual(['b']);
      expect(restored.eventsAfter(0).map((e) => `${e.type} ${e.key}`)).toEqual([
        'ADDED a',
        'ADDED b',
        'DELETED a',
      ]);
      expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
      reopened.journal.compact([
        { type: 'RV', rv: 3 },
        { type: 'SNAPSHOT', rv: 2, resource: 'cm', key: 'b', object: restored.get('cm', 'b')!.object },
      ]);
      reopened.journal.close();
      const compacted = new ObjectStore();
      compacted.restore(FileJournal.open(dir).records);
      expect(compacted.currentRv).toBe(3);
      expect(compacted.compactedRv).toBe(3);
      expect(compacted.get('cm', 'b')?.rv).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a journal with a garbled line in the middle, naming the file and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-journal-'));
    try {
      writeFileSync(join(dir, JOURNAL_FILE), '{"type":"RV","rv":1}\ngarbage\n{"type":"RV","rv":2}\n');
      expect(() => FileJournal.open(dir)).toThrow(/objects\.jsonl:2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
