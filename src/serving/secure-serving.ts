// Secure serving of a control-plane component (kube-scheduler, kube-controller-manager): /healthz, /livez, /readyz and /metrics over HTTPS with a self-signed certificate.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { servingCertificates } from '../apiserver/certificates.ts';
import { isLoopback } from '../apiserver/index.ts';
import { metricsRequestHandler } from '../metrics/metrics-request-handler.ts';

/** Options of {@link startSecureServing}. */
export interface SecureServingOptions {
  /** `--secure-port`; 0 picks a free port here (the command treats 0 as "do not serve", as upstream). */
  port: number;
  /** `--bind-address`; default 0.0.0.0. */
  bindAddress?: string;
  /** `--authorization-always-allow-paths`: served to anyone; default /healthz, /readyz, /livez. */
  alwaysAllowPaths?: readonly string[];
  /** Named readiness checks (e.g. `sched-handler-sync`); /readyz is 200 when all pass. */
  readyChecks?: () => Readonly<Record<string, boolean>>;
  /**
   * Named health checks for /healthz and /livez (e.g. `leaderElection` from a HealthzAdaptor): an Error
   * fails the check. Both answer `ok` when all pass, else 500 listing them as upstream's healthz does;
   * `/healthz/<name>` answers one check.
   */
  healthChecks?: () => Readonly<Record<string, Error | undefined>>;
  metrics: Registry;
}

/** A running secure server. */
export interface SecureServing {
  readonly url: string;
  readonly caPem: string;
  close(): Promise<void>;
}

const DEFAULT_ALLOW = ['/healthz', '/readyz', '/livez'];

function allowed(path: string, allow: readonly string[]): boolean {
  return allow.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : p === path));
}

/**
 * Serves a component's health and metrics endpoints over HTTPS (a self-signed CA and certificate, as the embedded API
 * server's). There is no authentication: paths in `alwaysAllowPaths` are served to anyone; the other paths
 * (/metrics) only to loopback clients, others get 403 as upstream's anonymous user would.
 *
 * Teardown: `close()` closes the listener and every open connection.
 * @param options port, address, allowed paths, readiness checks and the metrics registry
 * @returns the URL (`https://127.0.0.1:PORT` for a wildcard address) and `close`
 */
export async function startSecureServing(options: SecureServingOptions): Promise<SecureServing> {
  const bindAddress = options.bindAddress ?? '0.0.0.0';
  const certs = servingCertificates(bindAddress);
  const allow = options.alwaysAllowPaths ?? DEFAULT_ALLOW;
  const metrics = metricsRequestHandler(options.metrics);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    const remote = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
    if (!allowed(path, allow) && !isLoopback(remote)) {
      res
        .writeHead(403, { 'content-type': 'text/plain' })
        .end(`forbidden: User "system:anonymous" cannot get path "${path}"\n`);
      return;
    }
    const single = /^\/(healthz|livez)\/([^/]+)$/.exec(path);
    if (single) {
      // one named check, as upstream's /healthz/<name>
      const checks = options.healthChecks?.() ?? {};
      const name = single[2]!;
      if (name === 'ping' || (name in checks && checks[name] === undefined)) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      } else if (name in checks) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal server error: reason withheld\n');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
      }
      return;
    }
    if (path === '/healthz' || path === '/livez') {
      const checks = Object.entries(options.healthChecks?.() ?? {});
      if (checks.every(([, error]) => error === undefined)) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      }
      const lines = [
        '[+]ping ok',
        ...checks.map(([name, error]) => (error ? `[-]${name} failed: reason withheld` : `[+]${name} ok`)),
        `${path.slice(1)} check failed`,
      ];
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${lines.join('\n')}\n`);
      return;
    }
    if (path === '/readyz') {
      const checks = options.readyChecks?.() ?? {};
      const failed = Object.entries(checks).filter(([, ok]) => !ok);
      const body = [
        ...Object.entries(checks).map(([name, ok]) => `[${ok ? '+' : '-'}]${name} ${ok ? 'ok' : 'failed'}`),
        failed.length ? 'readyz check failed' : 'readyz check passed',
      ].join('\n');
      res.writeHead(failed.length ? 500 : 200, { 'content-type': 'text/plain' }).end(`${body}\n`);
      return;
    }
    if (path === '/metrics') {
      metrics(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
  };
  const server = createServer({ cert: certs.certPem, key: certs.keyPem }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bindAddress, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    caPem: certs.caPem,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
