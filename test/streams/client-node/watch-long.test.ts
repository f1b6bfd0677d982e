// SLOW (~35 s, real time, on purpose): a healthy watch stays open past 30 s, unlike client-node 2.0.x's Watch.
import { afterAll, describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../../operators/types.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { PODS } from '../../../streams/resources.ts';
import { httpKubeconfig, type LoopbackServer, loopbackServer, sleep } from './loopback-server.ts';

const HOLD_MS = 35_000;

let server: LoopbackServer | undefined;
afterAll(async () => {
  await server?.close();
});

describe('a long watch (the only slow test of the client adapter)', () => {
  it(
    'stays open for 35 s, receiving bookmarks every 5 s, and is not aborted by the client',
    async () => {
      const timers: NodeJS.Timeout[] = [];
      server = await loopbackServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        let rv = 1;
        res.write(
          `${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: String(rv) } } })}\n`,
        );
        timers.push(
          setInterval(() => {
            rv += 1;
            res.write(
              `${JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(rv) } } })}\n`,
            );
          }, 5_000),
        );
      });
      const client = kubeApiClient({ kubeConfig: { from: 'string', yaml: httpKubeconfig(server.url) } });
      const started = Date.now();
      const seen: { at: number; event: WatchEvent }[] = [];
      let ended: string | undefined;
      const sub = client.watch(PODS, { allowWatchBookmarks: true }).subscribe({
        next: (event) => seen.push({ at: Date.now() - started, event }),
        error: (e) => {
          ended = `error: ${e}`;
        },
        complete: () => {
          ended = 'complete';
        },
      });
      await sleep(HOLD_MS);
      expect(ended).toBeUndefined();
      expect(seen.at(-1)!.at).toBeGreaterThan(30_000);
      expect(seen.length).toBeGreaterThanOrEqual(7);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.aborted).toBe(false);
      sub.unsubscribe();
      for (const t of timers) clearInterval(t);
      client.close();
    },
    HOLD_MS + 10_000,
  );
});
