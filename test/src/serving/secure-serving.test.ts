// Secure serving's /healthz and /livez with named checks (the leader election watchdog, one per controller), and /healthz/<name>.
import { request } from 'node:https';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type SecureServing, startSecureServing } from '../../../src/serving/secure-serving.ts';

function get(serving: SecureServing, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${serving.url}${path}`, { ca: serving.caPem }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('secure serving health checks', () => {
  let serving: SecureServing | undefined;
  afterEach(async () => {
    await serving?.close();
  });

  it('answers ok while every check passes, and 500 naming the failed check (reason withheld) otherwise', async () => {
    let failure: Error | undefined;
    serving = await startSecureServing({
      port: 0,
      bindAddress: '127.0.0.1',
      metrics: new Registry(),
      healthChecks: () => ({ leaderElection: failure }),
    });
    expect(await get(serving, '/healthz')).toEqual({ status: 200, body: 'ok' });
    failure = new Error('failed election to renew leadership on lease kube-scheduler');
    for (const path of ['/healthz', '/livez']) {
      const res = await get(serving, path);
      expect(res.status).toBe(500);
      expect(res.body).toBe(
        `[+]ping ok\n[-]leaderElection failed: reason withheld\n${path.slice(1)} check failed\n`,
      );
    }
  });

  it('answers one named check at /healthz/<name>: ok, 500 when it fails, 404 when there is none', async () => {
    serving = await startSecureServing({
      port: 0,
      bindAddress: '127.0.0.1',
      metrics: new Registry(),
      healthChecks: () => ({ 'job-controller': undefined, 'ttl-controller': new Error('stopped') }),
    });
    expect(await get(serving, '/healthz/job-controller')).toEqual({ status: 200, body: 'ok' });
    expect(await get(serving, '/healthz/ping')).toEqual({ status: 200, body: 'ok' });
    expect((await get(serving, '/healthz/ttl-controller')).status).toBe(500);
    expect((await get(serving, '/livez/no-such-controller')).status).toBe(404);
  });
});
