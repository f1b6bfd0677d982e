// Tests of the real prober against loopback HTTP and TCP servers and a fake exec runtime (prober_test.go, probe/http, probe/tcp).
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Container, Pod, PodStatus, Probe } from '../../../../operators/api/core-v1.ts';
import type { ProbeResult } from '../../../../operators/kubelet/probe-worker-state.ts';
import { servingCertificates } from '../../../../src/apiserver/certificates.ts';
import { prober, resolveProbePort } from '../../../../src/kubelet/prober/prober.ts';
import type { ExecResult } from '../../../../streams/runtimes/runtime.ts';
import { until } from '../../../helpers/until.ts';

let server: http.Server;
let port = 0;
const seenHeaders: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seenHeaders.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://x');
    const code = Number(url.searchParams.get('code') ?? '200');
    if (url.pathname === '/redirect-same') {
      res.writeHead(302, { location: '/fail' }).end();
    } else if (url.pathname === '/redirect-away') {
      res.writeHead(302, { location: 'http://elsewhere.invalid/' }).end('moved');
    } else if (url.pathname === '/fail') {
      res.writeHead(500).end('nope');
    } else if (url.pathname === '/slow') {
      // answers only after the probe's timeout
      setTimeout(() => res.writeHead(200).end('late'), 3000).unref();
    } else {
      res.writeHead(code).end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const status: PodStatus = { phase: 'Running', podIP: '127.0.0.1' };
const pod: Pod = { metadata: { uid: 'u', name: 'p', namespace: 'ns' }, spec: { containers: [] } };

function withProbe(probe: Probe, ports: Container['ports'] = []): Container {
  return { name: 'c', readinessProbe: probe, ports };
}

async function run(probe: Probe, ports?: Container['ports']): Promise<ProbeResult> {
  return prober()('readiness', pod, status, withProbe(probe, ports), 'test://c') as Promise<ProbeResult>;
}

describe('prober: HTTP GET', () => {
  it.each([
    ['200', '/?code=200', 'Success'],
    ['204', '/?code=204', 'Success'],
    ['301 without a location counts as success (below 400)', '/?code=301', 'Success'],
    ['399', '/?code=399', 'Success'],
    ['400', '/?code=400', 'Failure'],
    ['404', '/?code=404', 'Failure'],
    ['500', '/?code=500', 'Failure'],
    ['a redirect to the same host is followed (to a 500)', '/redirect-same', 'Failure'],
    ['a redirect to another host is not followed and succeeds', '/redirect-away', 'Success'],
  ])('%s', async (_name, path, expected) => {
    expect(await run({ httpGet: { port, path } })).toBe(expected);
  });

  it('fails when nothing listens, and when the answer outlives timeoutSeconds', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await run({ httpGet: { port: closedPort } })).toBe('Failure');
    expect(await run({ httpGet: { port, path: '/slow' }, timeoutSeconds: 1 })).toBe('Failure');
  });

  it('sends the kubelet user agent, Accept and the probe headers (Host included)', async () => {
    seenHeaders.length = 0;
    await run({
      httpGet: {
        port,
        path: '/',
        httpHeaders: [
          { name: 'X-Probe', value: 'yes' },
          { name: 'Host', value: 'example.test' },
        ],
      },
    });
    expect(seenHeaders[0]).toMatchObject({
      'user-agent': 'kube-probe/1.33',
      accept: '*/*',
      'x-probe': 'yes',
      host: 'example.test',
    });
  });

  it('resolves a named port from the container ports', async () => {
    expect(await run({ httpGet: { port: 'web', path: '/' } }, [{ name: 'web', containerPort: port }])).toBe(
      'Success',
    );
    expect(resolveProbePort('8080', withProbe({}))).toBe(8080);
    expect(() => resolveProbePort('missing', withProbe({}))).toThrow(/couldn't find port: missing/);
  });

  it('an unknown port name is a probe error (thrown away), not a failure', async () => {
    await expect(run({ httpGet: { port: 'missing' } })).rejects.toThrow(/couldn't find port/);
  });

  it('uses podHost when the probe names no host (the process runtime probes loopback)', async () => {
    const noIp: PodStatus = { phase: 'Running' };
    const viaLoopback = prober({ podHost: () => '127.0.0.1' });
    expect(await viaLoopback('readiness', pod, noIp, withProbe({ httpGet: { port } }), 'id')).toBe('Success');
    await expect(prober()('readiness', pod, noIp, withProbe({ httpGet: { port } }), 'id')).rejects.toThrow(
      /no IP/,
    );
  });

  it('reports failures to onFailure with upstream output', async () => {
    const outputs: string[] = [];
    const p = prober({ onFailure: (f) => outputs.push(f.output) });
    await p('readiness', pod, status, withProbe({ httpGet: { port, path: '/?code=503' } }), 'id');
    expect(outputs).toEqual(['HTTP probe failed with statuscode: 503']);
  });
});

describe('prober: HTTPS GET', () => {
  it('does not verify the certificate, as the kubelet does not', async () => {
    const { certPem, keyPem } = servingCertificates('127.0.0.1');
    const tls = https.createServer({ cert: certPem, key: keyPem }, (_req, res) =>
      res.writeHead(200).end('secure'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const tlsPort = (tls.address() as net.AddressInfo).port;
      expect(await run({ httpGet: { port: tlsPort, scheme: 'HTTPS', path: '/' } })).toBe('Success');
      // plain HTTP against the TLS port fails
      expect(await run({ httpGet: { port: tlsPort, path: '/' } })).toBe('Failure');
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});

describe('prober: teardown', () => {
  it('leaves no socket or timer behind after HTTP and TCP probes, timed out ones included', async () => {
    const handles = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'Timeout').length;
    const before = handles();
    await Promise.all([
      run({ httpGet: { port, path: '/' } }),
      run({ httpGet: { port, path: '/?code=500' } }),
      run({ httpGet: { port, path: '/slow' }, timeoutSeconds: 1 }),
      run({ tcpSocket: { port } }),
    ]);
    // the test server's own 3 s timer for /slow is unref'd but still listed; wait for it too
    await until(() => handles() <= before, 'probe sockets to close', 6000);
    expect(handles()).toBeLessThanOrEqual(before);
  });
});

describe('prober: TCP socket', () => {
  it('succeeds when the port accepts and fails when it refuses', async () => {
    expect(await run({ tcpSocket: { port } })).toBe('Success');
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await run({ tcpSocket: { port: closedPort } })).toBe('Failure');
  });
});

describe('prober: exec', () => {
  const runtime = (answer: (command: string[]) => Promise<ExecResult>) => ({
    execSync: (_id: string, command: string[]) => answer(command),
  });
  const result = (exitCode: number): ExecResult => ({
    stdout: Buffer.from('out'),
    stderr: Buffer.alloc(0),
    exitCode,
  });

  it.each([
    ['exit 0 is success', 0, 'Success'],
    ['exit 1 is failure', 1, 'Failure'],
    ['exit 137 is failure', 137, 'Failure'],
  ])('%s', async (_name, code, expected) => {
    const p = prober({ runtime: runtime(async () => result(code)) });
    expect(
      await p('liveness', pod, status, { name: 'c', livenessProbe: { exec: { command: ['true'] } } }, 'id'),
    ).toBe(expected);
  });

  it('a command that times out fails; another exec error is retried three times and then thrown away', async () => {
    const timedOut = prober({ runtime: runtime(async () => Promise.reject(new Error('command timed out'))) });
    expect(
      await timedOut(
        'liveness',
        pod,
        status,
        { name: 'c', livenessProbe: { exec: { command: ['sleep', '9'] } } },
        'id',
      ),
    ).toBe('Failure');
    let calls = 0;
    const broken = prober({
      runtime: runtime(async () => {
        calls += 1;
        throw new Error('container not found');
      }),
    });
    await expect(
      broken('liveness', pod, status, { name: 'c', livenessProbe: { exec: { command: ['x'] } } }, 'id'),
    ).rejects.toThrow(/not found/);
    expect(calls).toBe(3);
  });

  it('passes the command and the timeout to the runtime', async () => {
    const seen: unknown[] = [];
    const p = prober({
      runtime: {
        execSync: async (id, command, timeoutSeconds) => {
          seen.push([id, command, timeoutSeconds]);
          return result(0);
        },
      },
    });
    await p(
      'startup',
      pod,
      status,
      { name: 'c', startupProbe: { exec: { command: ['cat', '/tmp/ready'] }, timeoutSeconds: 4 } },
      'cid',
    );
    expect(seen).toEqual([['cid', ['cat', '/tmp/ready'], 4]]);
  });
});
