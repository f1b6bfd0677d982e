// startApiServer: configuration checks, bearer tokens, plain HTTP on loopback, the kubeconfig, and teardown.
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { isLoopback, startApiServer } from '../../../src/apiserver/index.ts';
import { request, watchLines } from './fixtures/http.ts';

describe('startApiServer', () => {
  it.each([
    [
      'plain HTTP on a non-loopback address',
      { plainHttp: true, bindAddress: '0.0.0.0', token: 't' },
      'plainHttp',
    ],
    ['a non-loopback address without a token', { bindAddress: '0.0.0.0' }, 'token'],
    ['a token with spaces', { token: 'a b' }, 'token'],
    ['a port out of range', { port: 70000 }, 'port'],
  ])('refuses %s, naming the option', async (_name, options, field) => {
    await expect(startApiServer(options)).rejects.toSatisfy(
      (e) => e instanceof InvalidConfigError && e.field === field,
    );
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['10.0.0.1', false],
  ])('isLoopback(%s) is %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });

  it('requires the bearer token and writes it into the kubeconfig', async () => {
    const server = await startApiServer({ token: 'sekret' });
    try {
      const anonymous = await request({ ...server, token: undefined }, 'GET', '/api/v1/namespaces');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
      expect((await request({ ...server, token: 'wrong' }, 'GET', '/api/v1/namespaces')).status).toBe(401);
      expect((await request(server, 'GET', '/api/v1/namespaces')).status).toBe(200);
      expect((await request({ ...server, token: undefined }, 'GET', '/healthz')).status).toBe(200);
      const config = parse(server.kubeconfig);
      expect(config.users[0].user.token).toBe('sekret');
      expect(Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(
        server.caPem,
      );
      const kc = new KubeConfig();
      kc.loadFromString(server.kubeconfig);
      expect(kc.getCurrentCluster()?.server).toBe(server.url);
    } finally {
      await server.close();
    }
  });

  it('serves plain HTTP on loopback when asked', async () => {
    const server = await startApiServer({ plainHttp: true });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.caPem).toBe('');
      expect((await request(server, 'GET', '/api/v1/namespaces/default')).body.metadata.name).toBe('default');
    } finally {
      await server.close();
    }
  });

  it('creates the system namespaces', async () => {
    const server = await startApiServer();
    try {
      const names = (await request(server, 'GET', '/api/v1/namespaces')).body.items.map(
        (n: { metadata: { name: string } }) => n.metadata.name,
      );
      expect(names).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    } finally {
      await server.close();
    }
  });

  it('releases every handle on close, ending open watches', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
    const server = await startApiServer({ bookmarkIntervalMs: 50 });
    const w = watchLines(
      server,
      '/api/v1/pods?watch=true&allowWatchBookmarks=true&resourceVersion=0&timeoutSeconds=100',
    );
    await w.waitFor(1).catch(() => undefined);
    await server.close();
    await w.ended;
    await new Promise((r) => setTimeout(r, 50));
    const after = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
    expect(after).toBeLessThanOrEqual(before);
    await server.close(); // idempotent
  });
});
