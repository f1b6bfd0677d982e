// The kubelet's /portForward spoken to directly: the SPDY/3.1 upgrade handshake (protocol negotiation and refusals) and a forwarded request to a pod's TCP port.
import { request } from 'node:https';
import type { Socket } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import { NODES, PODS } from '../../../../streams/resources.ts';
import { waitForPod } from '../kubelet-fixture.ts';
import { freePort } from './free-port.ts';
import { useServingKubelet } from './serving-kubelet.ts';
import { SpdyTestClient } from './spdy-test-client.ts';

const NODE = 'node-spdy-direct';
const serving = useServingKubelet(NODE);
let kubeletPort: number;
let podPort: number;
let uid: string;

beforeAll(async () => {
  const node = await firstValueFrom(serving.cluster.api.get<Node>(NODES, NODE));
  kubeletPort = node.status!.daemonEndpoints!.kubeletEndpoint!.Port;
  podPort = await freePort();
  const echo = `require('net').createServer((s) => s.pipe(s)).listen(${podPort}, '127.0.0.1')`;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'echo', namespace: 'default' },
    spec: {
      nodeName: NODE,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'echo', image: 'node', command: [process.execPath, '-e', echo] }],
    },
  };
  await firstValueFrom(serving.cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
  const running = await waitForPod(
    serving.cluster.api,
    'echo',
    (p) => p?.status?.phase === 'Running',
    'Running',
  );
  uid = running!.metadata.uid!;
}, 30_000);

type Upgrade = {
  code: number;
  headers: Record<string, string | string[] | undefined>;
  socket?: Socket;
  body: string;
};

function upgrade(path: string, headers: Record<string, string>): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: kubeletPort,
      path,
      method: 'POST',
      rejectUnauthorized: false,
      headers: { Connection: 'Upgrade', ...headers },
    });
    req.on('upgrade', (res, socket) =>
      resolve({ code: res.statusCode ?? 0, headers: res.headers, socket, body: '' }),
    );
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the kubelet /portForward over SPDY', () => {
  it('switches protocols, names the version, and forwards a request to the pod port', async () => {
    const up = await upgrade(`/portForward/default/echo/${uid}`, {
      Upgrade: 'SPDY/3.1',
      'X-Stream-Protocol-Version': 'portforward.k8s.io',
    });
    expect(up.code).toBe(101);
    expect(up.headers).toMatchObject({
      upgrade: 'SPDY/3.1',
      'x-stream-protocol-version': 'portforward.k8s.io',
    });
    const client = new SpdyTestClient(up.socket!);
    try {
      // the echo may still be starting: retry a few requests until one answers
      const deadline = Date.now() + 10_000;
      for (let request = 0; ; request++) {
        const errorId = 4 * request + 1;
        const dataId = 4 * request + 3;
        client.open(errorId, { streamtype: 'error', port: String(podPort), requestid: String(request) });
        client.data(errorId, '', true);
        client.open(dataId, { streamtype: 'data', port: String(podPort), requestid: String(request) });
        client.data(dataId, 'marco', true);
        await client.until(() => client.stream(errorId).fin && client.stream(dataId).fin, 'both FINs');
        if (client.stream(dataId).text === 'marco' || Date.now() > deadline) {
          expect(client.stream(dataId)).toEqual({ text: 'marco', fin: true });
          expect(client.stream(errorId)).toEqual({ text: '', fin: true });
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      client.close();
      up.socket!.destroy();
    }
  }, 20_000);

  it.each([
    [
      'an unknown protocol version',
      '/portForward/default/echo',
      { Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'portforward.example.com' },
      403,
      'unable to negotiate protocol: client supports [portforward.example.com], server accepts [portforward.k8s.io]',
    ],
    [
      'an Upgrade other than SPDY or WebSocket',
      '/portForward/default/echo',
      { Upgrade: 'h2c' },
      400,
      'h2c upgrade is not supported',
    ],
    [
      'a pod the kubelet does not run',
      '/portForward/default/nope',
      { Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'portforward.k8s.io' },
      404,
      'pod "nope" does not exist',
    ],
    [
      'a uid that is not the pod’s',
      '/portForward/default/echo/not-the-uid',
      { Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'portforward.k8s.io' },
      404,
      'pod "echo" does not exist',
    ],
  ])('refuses %s', async (_name, path, headers, code, message) => {
    const up = await upgrade(path, headers);
    expect(up.code).toBe(code);
    expect(up.body).toContain(message);
  });
});
