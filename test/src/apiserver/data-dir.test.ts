// --data-dir durability: SIGKILL the server between (and during) writes, restart, find every acknowledged write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killApiServerChild, startApiServerChild } from './fixtures/api-server-child.ts';
import { podManifest, request } from './fixtures/http.ts';

describe('the API server with --data-dir', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('restores every acknowledged write after SIGKILL, with resourceVersions intact', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kube-rx-data-'));
    dirs.push(dataDir);
    /** name → labels of every pod whose last acknowledged write left it present. */
    const acknowledged = new Map<string, { n: string; rv: string }>();
    const deleted = new Set<string>();
    let lastRv = 0;
    let seq = 0;
    for (let round = 0; round < 3; round++) {
      const child = await startApiServerChild(dataDir);
      try {
        const base = '/api/v1/namespaces/default/pods';
        // What survived the previous kill.
        const listed = await request(child.server, 'GET', base);
        expect(listed.status).toBe(200);
        const present = new Map<string, { n: string; rv: string }>(
          listed.body.items.map(
            (p: { metadata: { name: string; labels: { n: string }; resourceVersion: string } }) => [
              p.metadata.name,
              { n: p.metadata.labels.n, rv: p.metadata.resourceVersion },
            ],
          ),
        );
        for (const [name, state] of acknowledged) expect(present.get(name), name).toEqual(state);
        for (const name of deleted) expect(present.has(name), name).toBe(false);
        expect(Number(listed.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(lastRv);
        // Adopt whatever the unacknowledged in-flight write left behind.
        for (const [name, state] of present) acknowledged.set(name, state);

        for (let i = 0; i < 12; i++) {
          const name = `p${(seq * 7) % 9}`;
          const n = String(seq++);
          const r = acknowledged.has(name)
            ? i % 3 === 0
              ? await request(child.server, 'DELETE', `${base}/${name}`)
              : await request(child.server, 'PATCH', `${base}/${name}`, {
                  body: { metadata: { labels: { n } } },
                  headers: { 'Content-Type': 'application/merge-patch+json' },
                })
            : await request(child.server, 'POST', base, { body: podManifest(name, { n }) });
          expect(r.status).toBeLessThan(300);
          lastRv = Number(r.body.metadata.resourceVersion);
          if (
            r.status === 200 &&
            r.body.metadata.deletionTimestamp === undefined &&
            i % 3 === 0 &&
            acknowledged.has(name)
          ) {
            acknowledged.delete(name);
            deleted.add(name);
          } else {
            acknowledged.set(name, { n, rv: r.body.metadata.resourceVersion });
            deleted.delete(name);
          }
        }
        // One more write in flight when the process dies: it may or may not survive.
        const inFlight = request(child.server, 'POST', base, {
          body: podManifest(`x${round}`, { n: 'x' }),
        }).catch(() => undefined);
        await killApiServerChild(child);
        const landed = await inFlight;
        if (landed?.status === 201)
          acknowledged.set(`x${round}`, { n: 'x', rv: landed.body.metadata.resourceVersion });
      } finally {
        await killApiServerChild(child);
      }
    }
  }, 60_000);
});
