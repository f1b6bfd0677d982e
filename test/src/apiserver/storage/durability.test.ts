// Durability of each engine: SIGKILL an API server process under a stream of writes at a random moment, restart, find every acknowledged write whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killApiServerChild, startApiServerChild } from '../fixtures/api-server-child.ts';
import { request } from '../fixtures/http.ts';
import { ETCD_BINARY, NO_ETCD, startPrivateEtcd } from './private-etcd.ts';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const WRITERS = 4;
const ROUNDS = 3;

/** A small seeded generator, so a failing kill moment can be replayed from the seed in the test name. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Runs ROUNDS rounds: start the server, check what survived, then WRITERS clients write (each its
 * own three keys, values rising) until a random number of writes were acknowledged, and SIGKILL.
 */
async function killUnderWrites(dataDir: string, extra: string[], seed: number): Promise<number> {
  const next = random(seed);
  /** key → the last acknowledged value, and the value of a write sent after it, unanswered at the kill. */
  const acknowledged = new Map<string, number>();
  const inFlight = new Map<string, number>();
  let value = 0;
  let checked = 0;
  for (let round = 0; round <= ROUNDS; round++) {
    const child = await startApiServerChild(dataDir, extra);
    try {
      const listed = await request(child.server, 'GET', CONFIGMAPS);
      expect(listed.status).toBe(200);
      const stored = new Map<string, { v: number; check: number }>(
        listed.body.items.map((c: { metadata: { name: string }; data: { v: string; check: string } }) => [
          c.metadata.name,
          { v: Number(c.data.v), check: Number(c.data.check) },
        ]),
      );
      for (const [key, { v, check }] of stored) expect(check, `${key} written whole`).toBe(v);
      for (const [key, v] of acknowledged) {
        const got = stored.get(key)?.v;
        expect([v, inFlight.get(key)], `${key}: acknowledged ${v}, stored ${got}`).toContain(got);
        checked++;
      }
      for (const [key, { v }] of stored) acknowledged.set(key, v); // adopt what the in-flight writes left
      inFlight.clear();
      if (round === ROUNDS) break;

      const killAfter = 10 + Math.floor(next() * 60);
      let acked = 0;
      let killed = false;
      const writer = async (w: number) => {
        while (!killed) {
          const key = `w${w}-k${Math.floor(next() * 3)}`;
          const v = ++value;
          const body = { metadata: { name: key }, data: { v: String(v), check: String(v) } };
          inFlight.set(key, v);
          const res = await (acknowledged.has(key)
            ? request(child.server, 'PUT', `${CONFIGMAPS}/${key}`, { body })
            : request(child.server, 'POST', CONFIGMAPS, { body })
          ).catch(() => undefined);
          if (!res) return; // the connection died with the server: this write is unacknowledged
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
          acknowledged.set(key, v);
          inFlight.delete(key);
          if (++acked >= killAfter && !killed) {
            killed = true;
            await killApiServerChild(child);
          }
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    } finally {
      await killApiServerChild(child);
    }
  }
  return checked;
}

describe('durability under SIGKILL', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'kube-rx-durable-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const seed = Math.floor(Math.random() * 2 ** 31);

  it(`SQLite (--data-dir): every acknowledged write survives, none is torn (seed ${seed})`, async () => {
    expect(await killUnderWrites(tempDir(), [], seed)).toBeGreaterThan(0);
  }, 90_000);

  it.skipIf(!ETCD_BINARY)(
    `etcd (--etcd-servers): every acknowledged write survives, none is torn (seed ${seed})${NO_ETCD}`,
    async () => {
      const etcd = await startPrivateEtcd();
      try {
        expect(await killUnderWrites(tempDir(), ['--etcd-servers', etcd.url], seed)).toBeGreaterThan(0);
      } finally {
        await etcd.stop();
      }
    },
    120_000,
  );
});
