// atomicWrite: the ..data symlink swap (upstream atomic_writer_test cases): paths validated, unchanged payloads untouched, removed files pruned.
import { lstat, mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  atomicWrite,
  type FileProjection,
  invalidPayloadPath,
} from '../../../../src/kubelet/volumes/atomic-writer.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const payload = (files: Record<string, string | FileProjection>) =>
  new Map(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? { data: v } : v]));

describe('invalidPayloadPath', () => {
  it.each([
    { path: 'foo', error: undefined },
    { path: 'foo/bar/baz', error: undefined },
    { path: '.dotfile', error: undefined },
    { path: '..foo.bar', error: "invalid path: must not start with '..': ..foo.bar" },
    { path: '../foo', error: "invalid path: must not contain '..': ../foo" },
    { path: 'foo/../../bar', error: "invalid path: must not contain '..': foo/../../bar" },
    { path: '/foo', error: 'invalid path: must be relative path: /foo' },
    { path: '', error: 'invalid path: must not be empty: ""' },
    { path: 'a'.repeat(256), error: 'invalid path: filenames must be less than or equal to 255 characters' },
    { path: `${'a/'.repeat(2048)}a`, error: 'invalid path: must be less than or equal to 4096 characters' },
  ])('$path', ({ path, error }) => {
    expect(invalidPayloadPath(path)).toBe(error);
  });
});

describe('atomicWrite', () => {
  it('makes user-visible links into ..data, which points at a timestamped directory', async () => {
    const now = Date.UTC(2026, 10, 25, 0, 10, 24);
    const r = await atomicWrite(dir, payload({ token: 'abc', 'sub/ca.crt': 'CA' }), () => now);
    expect(r.written).toBe(true);
    expect(r.dataDir).toMatch(/^\.\.2026_11_25_00_10_24\./);
    expect(await readlink(join(dir, '..data'))).toBe(r.dataDir);
    expect(await readlink(join(dir, 'token'))).toBe('..data/token');
    expect(await readlink(join(dir, 'sub'))).toBe('..data/sub');
    expect(await readFile(join(dir, 'token'), 'utf8')).toBe('abc');
    expect(await readFile(join(dir, 'sub', 'ca.crt'), 'utf8')).toBe('CA');
  });

  it('leaves an unchanged payload alone and swaps a changed one, removing the old directory', async () => {
    const first = await atomicWrite(dir, payload({ token: 'abc' }));
    const again = await atomicWrite(dir, payload({ token: 'abc' }));
    expect(again).toEqual({ written: false, dataDir: first.dataDir });
    const second = await atomicWrite(dir, payload({ token: 'def' }));
    expect(second.written).toBe(true);
    expect(second.dataDir).not.toBe(first.dataDir);
    expect(await readFile(join(dir, 'token'), 'utf8')).toBe('def');
    const entries = (await readdir(dir)).sort();
    expect(entries).toEqual(['..data', second.dataDir, 'token'].sort());
  });

  it('a mode change alone is a change', async () => {
    await atomicWrite(dir, payload({ f: { data: 'x', mode: 0o644 } }));
    const r = await atomicWrite(dir, payload({ f: { data: 'x', mode: 0o600 } }));
    expect(r.written).toBe(true);
    expect((await stat(join(dir, 'f'))).mode & 0o777).toBe(0o600);
  });

  it.each<{ name: string; before: Record<string, string>; after: Record<string, string>; visible: string[] }>(
    [
      {
        name: 'a file that goes away is unlinked',
        before: { a: '1', b: '2' },
        after: { a: '1' },
        visible: ['a'],
      },
      {
        name: 'a directory that goes away is unlinked',
        before: { a: '1', 'd/x': '2' },
        after: { a: '1' },
        visible: ['a'],
      },
      {
        name: 'a new file gets its link',
        before: { a: '1' },
        after: { a: '1', c: '3' },
        visible: ['a', 'c'],
      },
      {
        name: 'a nested file going keeps its directory',
        before: { 'd/x': '1', 'd/y': '2' },
        after: { 'd/x': '1' },
        visible: ['d'],
      },
    ],
  )('$name', async ({ before, after, visible }) => {
    await atomicWrite(dir, payload(before));
    await atomicWrite(dir, payload(after));
    const names = (await readdir(dir)).filter((n) => !n.startsWith('..')).sort();
    expect(names).toEqual(visible);
    for (const [path, data] of Object.entries(after))
      expect(await readFile(join(dir, path), 'utf8')).toBe(data);
    for (const n of names) expect((await lstat(join(dir, n))).isSymbolicLink()).toBe(true);
  });

  it('refuses a bad path before touching the directory', async () => {
    await expect(atomicWrite(join(dir, 'v'), payload({ '../escape': 'x' }))).rejects.toThrow(
      "invalid path: must not contain '..': ../escape",
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('readers always see a whole payload while it is rewritten', async () => {
    await atomicWrite(dir, payload({ a: '0', b: '0' }));
    let stop = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!stop) {
        try {
          const data = await readlink(join(dir, '..data'));
          const [a, b] = await Promise.all([
            readFile(join(dir, data, 'a'), 'utf8'),
            readFile(join(dir, data, 'b'), 'utf8'),
          ]);
          seen.add(`${a}${b}`);
        } catch {
          // the old directory went between readlink and read: read again
        }
      }
    })();
    for (let i = 1; i <= 20; i++) await atomicWrite(dir, payload({ a: String(i), b: String(i) }));
    stop = true;
    await reader;
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].every((p) => p.slice(0, p.length / 2) === p.slice(p.length / 2))).toBe(true);
  });
});
