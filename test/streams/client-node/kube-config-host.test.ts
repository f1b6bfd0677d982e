// Tests the kubeconfig host: client-node stays out of the caller's thread, connections share and end it, proxies, errors.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { KubeConfig } from '@kubernetes/client-node';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { endKubeConfigHost, loadKubeConnection } from '../../../streams/client-node/kube-config.ts';
import { describeKubeConfig } from '../../../streams/client-node/kube-config-resolve.ts';
import { NAMESPACES } from '../../../streams/resources.ts';
import { json, type LoopbackServer, loopbackServer } from './loopback-server.ts';

let server: LoopbackServer;
let dir: string;

beforeAll(async () => {
  server = await loopbackServer((_req, res) =>
    json(res, 200, { kind: 'NamespaceList', metadata: { resourceVersion: '7' }, items: [] }),
  );
  dir = mkdtempSync(join(tmpdir(), 'kube-rx-host-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Host behaviour is tested with the host forced: a token user is otherwise read in the caller's thread. */
const HOST = { via: 'host' } as const;

/** The Authorization header of resolved request options. */
const authorization = (options: { headers?: unknown }) =>
  (options.headers as Record<string, unknown> | undefined)?.Authorization;

function kubeconfig(token: string, cluster: string[] = []): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- {name: c, cluster: {server: "${server.url}"${cluster.map((l) => `, ${l}`).join('')}}}`,
    `users: [{name: u, user: {token: ${token}}}]`,
    'contexts: [{name: x, context: {cluster: c, user: u, namespace: apps}}]',
    'current-context: x',
  ].join('\n');
}

describe('the kubeconfig host', () => {
  it.each([
    ["a token (read in this thread with client-node's parsing modules)", 'auto'],
    ['any user, when asked to use the host', 'host'],
  ])("loads kubeconfigs without client-node's KubeConfig entering the caller's thread: %s", (_name, via) => {
    // a fresh process records every module its main thread resolves; the host's thread is not hooked
    const script = join(dir, 'probe.mjs');
    const target = pathToFileURL(
      join(import.meta.dirname, '../../../streams/client-node/kube-config.ts'),
    ).href;
    writeFileSync(
      script,
      [
        "import { registerHooks } from 'node:module';",
        'const resolved = [];',
        'registerHooks({ resolve(specifier, context, next) { resolved.push(specifier); return next(specifier, context); } });',
        `const { loadKubeConnection } = await import(${JSON.stringify(target)});`,
        `const connection = loadKubeConnection({ from: 'string', yaml: ${JSON.stringify(kubeconfig('probe-token'))} }, { via: '${via}' });`,
        'const options = await connection.requestOptions();',
        'connection.close();',
        'console.log(JSON.stringify({ clientNode: resolved.filter((s) => s === "@kubernetes/client-node" || /client-node\\/dist\\/(index|config|gen)\\b/.test(s)), resolvedSome: resolved.length > 3, authorization: options.headers?.Authorization, namespace: connection.namespace }));',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
      clientNode: [],
      resolvedSome: true,
      authorization: 'Bearer probe-token',
      namespace: 'apps',
    });
  });

  it('serves several connections at once, each with its own credentials', async () => {
    const a = loadKubeConnection({ from: 'string', yaml: kubeconfig('token-a') }, HOST);
    const b = loadKubeConnection({ from: 'string', yaml: kubeconfig('token-b') }, HOST);
    const [oa, ob] = await Promise.all([a.requestOptions(), b.requestOptions()]);
    expect(authorization(oa)).toBe('Bearer token-a');
    expect(authorization(ob)).toBe('Bearer token-b');
    a.close();
    // b still works after a has gone
    const again = loadKubeConnection(
      { from: 'string', yaml: kubeconfig('token-c') },
      { ...HOST, authCacheMs: 0 },
    );
    expect(authorization(await b.requestOptions())).toBe('Bearer token-b');
    expect(authorization(await again.requestOptions())).toBe('Bearer token-c');
    b.close();
    again.close();
  });

  it('refuses options once closed, and starts afresh after the last connection closed', async () => {
    const first = loadKubeConnection({ from: 'string', yaml: kubeconfig('t1') }, HOST);
    await first.requestOptions(); // cached for a minute, yet refused once closed
    first.close();
    first.close(); // idempotent
    await expect(first.requestOptions()).rejects.toThrow(/is closed/);
    const second = loadKubeConnection({ from: 'string', yaml: kubeconfig('t2') }, HOST);
    expect(authorization(await second.requestOptions())).toBe('Bearer t2');
    const client = kubeApiClient({ kubeConfig: { from: 'string', yaml: kubeconfig('t3') } });
    const list = await firstValueFrom(client.list(NAMESPACES));
    expect(list.metadata.resourceVersion).toBe('7');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer t3');
    client.close();
    second.close();
  });

  it('keeps static credentials for good and leaves the host; credentials from files are read again', async () => {
    const fixed = loadKubeConnection(
      { from: 'string', yaml: kubeconfig('inline') },
      { ...HOST, authCacheMs: 0 },
    );
    const first = await fixed.requestOptions();
    expect(authorization(first)).toBe('Bearer inline');
    expect(await fixed.requestOptions()).toBe(first);
    fixed.close();
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'one');
    const yaml = kubeconfig('unused').replace(
      '{token: unused}',
      `{auth-provider: {name: tokenFile, config: {tokenFile: "${tokenFile}"}}}`,
    );
    const rotating = loadKubeConnection({ from: 'string', yaml }, { ...HOST, authCacheMs: 0 });
    const before = await rotating.requestOptions();
    expect(authorization(before)).toBe('Bearer one');
    expect(await rotating.requestOptions()).not.toBe(before); // asked again: the host is kept
    rotating.close();
  });

  it.each([
    ['an inline token', '{token: t}', [], true],
    ['basic auth', '{username: a, password: b}', [], true],
    ['a token file (in-cluster)', '{auth-provider: {name: tokenFile, config: {tokenFile: /t}}}', [], false],
    [
      'an exec plugin',
      '{exec: {command: get-token, apiVersion: client.authentication.k8s.io/v1}}',
      [],
      false,
    ],
    ['a CA file', '{token: t}', ['certificate-authority: /etc/ca.crt'], false],
  ])('static credentials: %s → %s', (_name, user, cluster, expected) => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig('t', cluster).replace('{token: t}', user));
    expect(describeKubeConfig(kc).staticCredentials).toBe(expected);
  });

  it("loads a connection's kubeconfig again when the host's thread has died under it", async () => {
    const c = loadKubeConnection(
      { from: 'string', yaml: kubeconfig('survivor') },
      { ...HOST, authCacheMs: 0 },
    );
    expect(authorization(await c.requestOptions())).toBe('Bearer survivor');
    endKubeConfigHost();
    expect(authorization(await c.requestOptions())).toBe('Bearer survivor');
    const client = kubeApiClient({ kubeConfig: { from: 'string', yaml: kubeconfig('after') } });
    await firstValueFrom(client.list(NAMESPACES));
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer after');
    client.close();
    c.close();
    await expect(c.requestOptions()).rejects.toThrow(/is closed/);
  });

  it('speaks its protocol: load answers on the sync port, options by request id, drop forgets', async () => {
    const sync = new MessageChannel();
    const async = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL('../../../streams/client-node/kube-config-host.ts', import.meta.url), {
      workerData: { syncPort: sync.port2, asyncPort: async.port2, flag },
      transferList: [sync.port2, async.port2],
    });
    try {
      const env = { ...process.env };
      sync.port1.postMessage({ op: 'load', id: 1, source: { from: 'string', yaml: kubeconfig('p') }, env });
      expect(Atomics.wait(flag, 0, 0, 60_000)).not.toBe('timed-out');
      const loaded = receiveMessageOnPort(sync.port1)?.message;
      expect(loaded).toMatchObject({ ok: true, value: { server: server.url, namespace: 'apps' } });
      const answers: unknown[] = [];
      const next = () => new Promise((r) => async.port1.once('message', (m) => r(answers.push(m))));
      async.port1.postMessage({ op: 'options', id: 1, request: 7, env });
      await next();
      async.port1.postMessage({ op: 'drop', id: 1 });
      async.port1.postMessage({ op: 'options', id: 1, request: 8, env });
      await next();
      expect(answers[0]).toMatchObject({
        ok: true,
        request: 7,
        value: { headers: { Authorization: 'Bearer p' } },
      });
      expect(answers[1]).toMatchObject({
        ok: false,
        request: 8,
        error: { message: expect.stringMatching(/not loaded/) },
      });
    } finally {
      sync.port1.close();
      async.port1.close();
      await worker.terminate();
    }
  });

  it('passes TLS material back as Buffers', async () => {
    const ca = Buffer.from('-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n');
    const c = loadKubeConnection({
      from: 'string',
      yaml: kubeconfig('x', [`certificate-authority-data: ${ca.toString('base64')}`]),
    });
    const options = await c.requestOptions();
    expect(Buffer.isBuffer(options.ca)).toBe(true);
    expect(options.ca).toEqual(ca);
    c.close();
  });

  it("keeps the kind of a loading error: a configuration error names the field, client-node's own errors pass unchanged", () => {
    const env = { ...process.env };
    delete process.env.KUBERNETES_SERVICE_HOST;
    try {
      expect(() => loadKubeConnection({ from: 'cluster' })).toThrow(InvalidConfigError);
      expect(() => loadKubeConnection({ from: 'cluster' })).toThrow(
        expect.objectContaining({ field: 'KUBERNETES_SERVICE_HOST' }),
      );
    } finally {
      process.env = env;
    }
    const noCluster =
      'apiVersion: v1\nkind: Config\ncontexts: [{name: x, context: {}}]\ncurrent-context: x\n';
    expect(() => loadKubeConnection({ from: 'string', yaml: noCluster })).toThrow(
      'contexts[0].context.cluster is missing',
    );
    const missing = join(dir, 'missing.yaml');
    let error: unknown;
    try {
      loadKubeConnection({ from: 'file', path: missing });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(missing);
    expect((error as { code?: string }).code).toBe('ENOENT');
  });

  it('asks a KubeConfig the caller loaded in the caller’s thread', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig('in-thread'));
    const c = loadKubeConnection({ from: 'kubeConfig', kubeConfig: kc });
    expect(c.namespace).toBe('apps');
    expect(c.summary).toEqual({ context: 'x', cluster: 'c', user: 'u', auth: 'token' });
    expect(authorization(await c.requestOptions())).toBe('Bearer in-thread');
    c.close();
  });

  it("sends requests through the cluster's HTTP proxy", async () => {
    // client-node's proxy agents tunnel with CONNECT, for plain http servers too
    const seen: string[] = [];
    const proxy = http.createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      seen.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const client = kubeApiClient({
      kubeConfig: { from: 'string', yaml: kubeconfig('via-proxy', [`proxy-url: "${proxyUrl}"`]) },
    });
    const list = await firstValueFrom(client.list(NAMESPACES));
    expect(list.metadata.resourceVersion).toBe('7');
    expect(seen).toEqual([`127.0.0.1:${server.port}`]);
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer via-proxy');
    client.close();
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
  });
});
