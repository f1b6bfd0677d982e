// Property of atomicWrite: after any sequence of payloads the volume shows exactly the last one, through links into one data directory.
import { lstat, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atomicWrite } from '../../../../src/kubelet/volumes/atomic-writer.ts';

const arbPath = fc.constantFrom('a', 'b', 'token', 'd/x', 'd/y', 'e/f/g');
const arbPayload = fc.dictionary(arbPath, fc.string({ maxLength: 8 }), { maxKeys: 4 });

describe('atomicWrite', () => {
  it('leaves exactly the last payload visible, one timestamped directory and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbPayload, { minLength: 1, maxLength: 5 }), async (payloads) => {
        const dir = await mkdtemp(join(tmpdir(), 'kube-rx-atomic-prop-'));
        try {
          for (const p of payloads)
            await atomicWrite(dir, new Map(Object.entries(p).map(([k, v]) => [k, { data: v }])));
          const last = payloads[payloads.length - 1] ?? {};
          const tops = new Set(Object.keys(last).map((k) => k.split('/')[0]));
          const entries = await readdir(dir);
          const data = await readlink(join(dir, '..data'));
          expect(entries.filter((e) => e.startsWith('..')).sort()).toEqual(['..data', data].sort());
          expect(entries.filter((e) => !e.startsWith('..')).sort()).toEqual([...tops].sort());
          for (const name of tops)
            expect((await lstat(join(dir, name as string))).isSymbolicLink()).toBe(true);
          for (const [path, value] of Object.entries(last))
            expect(await readFile(join(dir, path), 'utf8')).toBe(value);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
