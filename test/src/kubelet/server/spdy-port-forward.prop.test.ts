// Property of SPDY port forwarding: whatever bytes, in whatever chunks, over however many concurrent requests, each request's pod connection gets exactly its bytes and the client gets exactly the pod's answer.
import { createServer, type Server } from 'node:net';
import { duplexPair } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSpdyPortForward } from '../../../../src/kubelet/server/spdy-port-forward.ts';
import { SpdyTestClient } from './spdy-test-client.ts';

let echo: Server;
let port: number;

beforeAll(async () => {
  // a plain echo that ends when its client ends
  echo = createServer({ allowHalfOpen: true }, (socket) => {
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  port = (echo.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

const request = fc.array(fc.uint8Array({ minLength: 1, maxLength: 40_000 }), { minLength: 1, maxLength: 4 });

describe('serveSpdyPortForward (property)', () => {
  it('each request echoes back exactly the bytes it sent, in order, then both streams end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 3 }), async (requests) => {
        const [serverSide, clientSide] = duplexPair();
        const done = serveSpdyPortForward(serverSide, { host: '127.0.0.1', podName: 'p', podUid: 'u' });
        const client = new SpdyTestClient(clientSide);
        requests.forEach((_, i) => {
          client.open(4 * i + 1, { streamtype: 'error', port: String(port), requestid: String(i) });
          client.open(4 * i + 3, { streamtype: 'data', port: String(port), requestid: String(i) });
        });
        requests.forEach((chunks, i) => {
          for (const chunk of chunks) client.data(4 * i + 3, Buffer.from(chunk));
          client.data(4 * i + 3, '', true);
        });
        await client.until(
          () => requests.every((_, i) => client.stream(4 * i + 3).fin && client.stream(4 * i + 1).fin),
          'every stream to end',
        );
        requests.forEach((chunks, i) => {
          const sent = Buffer.concat(chunks.map((c) => Buffer.from(c)));
          const got = Buffer.concat(
            client.received.flatMap((f) => (f.type === 'DATA' && f.streamId === 4 * i + 3 ? [f.data] : [])),
          );
          expect(got.equals(sent)).toBe(true);
          expect(client.stream(4 * i + 1).text).toBe('');
        });
        client.close();
        await done;
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
