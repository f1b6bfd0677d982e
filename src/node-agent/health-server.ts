// The node agent's health endpoints: /healthz, /readyz (every informer synced and watching) and /metrics.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { ReflectorHealth } from '../../operators/types.ts';

/** What /readyz reports: one entry per stream (an informer's list-watch, a source). */
export interface ReadinessSource {
  name: string;
  /** The latest health; `undefined` before the stream started. */
  health(): ReflectorHealth | undefined;
}

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

/** Ready when every stream has synced and none is backing off. */
export function readiness(sources: readonly ReadinessSource[]): {
  ready: boolean;
  checks: Record<string, ReflectorHealth | { state: 'notStarted'; synced: false }>;
} {
  const checks: Record<string, ReflectorHealth | { state: 'notStarted'; synced: false }> = {};
  let ready = true;
  for (const source of sources) {
    const health = source.health();
    checks[source.name] = health ?? { state: 'notStarted', synced: false };
    if (!health?.synced || health.state !== 'watching') ready = false;
  }
  return { ready, checks };
}

/**
 * Serves `/healthz` (the process answers), `/readyz` (JSON per stream; 503 until all are synced and
 * watching) and `/metrics` (the registry's text format) on loopback.
 *
 * @param port the port (0 = a free one)
 * @param sources the streams /readyz reports on
 * @param registry the Prometheus registry /metrics serves
 * @param host the address to bind; default 127.0.0.1
 */
export async function startHealthServer(
  port: number,
  sources: () => readonly ReadinessSource[],
  registry: Registry,
  host = '127.0.0.1',
): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' || path === '/livez') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else if (path === '/readyz') {
      const report = readiness(sources());
      res
        .writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify(report));
    } else if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
