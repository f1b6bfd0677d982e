// Tests the /metrics handler over real loopback HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { metricsRequestHandler } from '../../../src/metrics/metrics-request-handler.ts';

let server: Server | undefined;

async function serve(registry: Registry): Promise<string> {
  server = createServer(metricsRequestHandler(registry));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('metricsRequestHandler', () => {
  it('serves the registry on GET /metrics in the Prometheus text format', async () => {
    const registry = new Registry();
    new Counter({ name: 'demo_total', help: 'demo', registers: [registry] }).inc(3);
    const base = await serve(registry);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('demo_total 3');
  });

  it.each([
    ['GET', '/other', 404],
    ['POST', '/metrics', 405],
  ])('%s %s → %d', async (method, path, status) => {
    const base = await serve(new Registry());
    const res = await fetch(`${base}${path}`, { method });
    expect(res.status).toBe(status);
    await res.text();
  });
});
