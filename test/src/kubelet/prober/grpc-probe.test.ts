// Tests of the gRPC probe against a loopback HTTP/2 server speaking grpc.health.v1.Health/Check.
import http2 from 'node:http2';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod, PodStatus } from '../../../../operators/api/core-v1.ts';
import { grpcProbe } from '../../../../src/kubelet/prober/grpc-probe.ts';
import { prober } from '../../../../src/kubelet/prober/prober.ts';

let server: http2.Http2Server;
let port = 0;
const requests: { service: string; userAgent: string | undefined }[] = [];

/** Service name → health status the fake server answers (1 SERVING, 2 NOT_SERVING); 'unimplemented' answers 12. */
const health: Record<string, number | 'unimplemented' | 'hang'> = {
  '': 1,
  ok: 1,
  down: 2,
  gone: 'unimplemented',
  slow: 'hang',
};

function frame(message: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

beforeAll(async () => {
  server = http2.createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const body = Buffer.concat(chunks).subarray(5);
      const service = body.length > 2 ? body.subarray(2, 2 + body[1]!).toString('utf8') : '';
      requests.push({ service, userAgent: headers['user-agent'] });
      const answer = health[service] ?? 3;
      if (answer === 'hang') return;
      if (answer === 'unimplemented') {
        stream.respond(
          {
            ':status': 200,
            'content-type': 'application/grpc',
            'grpc-status': '12',
            'grpc-message': 'unknown service',
          },
          { endStream: true },
        );
        return;
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(frame(Buffer.from([0x08, answer])));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('grpcProbe (pkg/probe/grpc)', () => {
  it.each([
    ['the whole server SERVING', '', 'Success', 'service healthy'],
    ['a SERVING service', 'ok', 'Success', 'service healthy'],
    ['a NOT_SERVING service', 'down', 'Failure', 'service unhealthy (responded with "NOT_SERVING")'],
    ['an unknown service', 'who', 'Failure', 'service unhealthy (responded with "SERVICE_UNKNOWN")'],
    [
      'a server without the health service',
      'gone',
      'Failure',
      'error: this server does not implement the grpc health protocol (grpc.health.v1.Health): unknown service',
    ],
  ])('%s', async (_name, service, result, output) => {
    expect(await grpcProbe('127.0.0.1', port, service, 2000, 'kube-probe/1.33')).toEqual({ result, output });
  });

  it('sends the service name and the kubelet user agent', async () => {
    requests.length = 0;
    await grpcProbe('127.0.0.1', port, 'ok', 2000, 'kube-probe/1.33');
    expect(requests).toEqual([{ service: 'ok', userAgent: 'kube-probe/1.33' }]);
  });

  it('fails on a refused connection and on the timeout', async () => {
    const refused = await grpcProbe('127.0.0.1', 1, '', 2000, 'kube-probe/1.33');
    expect(refused.result).toBe('Failure');
    expect(refused.output).toMatch(/^error: failed to connect service at "127.0.0.1:1"/);
    expect(await grpcProbe('127.0.0.1', port, 'slow', 300, 'kube-probe/1.33')).toEqual({
      result: 'Failure',
      output: 'timeout: health rpc did not complete within 0.3s',
    });
  });

  it('runs through the prober for a probe with grpc set', async () => {
    const pod: Pod = { metadata: { uid: 'u', name: 'p', namespace: 'ns' }, spec: { containers: [] } };
    const status: PodStatus = { podIP: '127.0.0.1' };
    const p = prober();
    expect(
      await p('liveness', pod, status, { name: 'c', livenessProbe: { grpc: { port, service: 'ok' } } }, 'id'),
    ).toBe('Success');
    expect(
      await p(
        'liveness',
        pod,
        status,
        { name: 'c', livenessProbe: { grpc: { port, service: 'down' } } },
        'id',
      ),
    ).toBe('Failure');
  });
});
