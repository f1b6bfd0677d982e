// Property on real files: garbage manifests, next to a valid one or written over it, never remove the valid pod.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/pod-config/types.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { filePodSource } from '../../../streams/pod-sources/file.ts';

const GOOD = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'good', uid: 'good-uid' },
  spec: { containers: [{ name: 'c', image: 'i' }] },
});

const arbGarbage = fc.oneof(
  fc.string(),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.json(),
  fc.constantFrom(
    'apiVersion: v1\nkind: Pod\n',
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":[]}}',
    '{"apiVersion":"v1","kind":"PodList","items":[]}',
    'a: [',
  ),
);

async function nextSet(sets: Pod[][], count: number): Promise<Pod[]> {
  const deadline = Date.now() + 3000;
  while (sets.length < count) {
    if (Date.now() > deadline) throw new Error('no set emitted');
    await new Promise((r) => setTimeout(r, 5));
  }
  return sets[count - 1]!;
}

describe('filePodSource properties', () => {
  it('garbage files never remove a valid pod, whether beside it or written over it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .uniqueArray(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { maxLength: 4 })
          .filter((ns) => !ns.includes('good')),
        fc.array(arbGarbage, { minLength: 4, maxLength: 4 }),
        arbGarbage,
        async (names, contents, overwrite) => {
          const dir = await mkdtemp(join(tmpdir(), 'kube-rx-file-prop-'));
          const clock = new VirtualClock();
          const sets: Pod[][] = [];
          const sub = filePodSource({
            path: dir,
            nodeName: 'n',
            watch: false,
            scheduler: clock.scheduler,
          }).subscribe((p) => sets.push(p));
          try {
            await nextSet(sets, 1);
            await writeFile(join(dir, 'good'), GOOD);
            await Promise.all(names.map((name, i) => writeFile(join(dir, name), contents[i]!)));
            clock.advance(20_000);
            const withGarbage = await nextSet(sets, 2);
            expect(withGarbage.map((p) => p.metadata?.uid)).toContain('good-uid');
            await writeFile(join(dir, 'good'), overwrite);
            clock.advance(20_000);
            const overwritten = await nextSet(sets, 3);
            expect(overwritten.map((p) => p.metadata?.uid)).toContain('good-uid');
          } finally {
            sub.unsubscribe();
            await rm(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
