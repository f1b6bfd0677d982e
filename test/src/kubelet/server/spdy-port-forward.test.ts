// serveSpdyPortForward over an in-memory SPDY client: stream pairs by request id, relaying to a real local TCP server, errors in kubelet's words, the 30 s pairing timeout in virtual time.
import { createServer, type Server, type Socket } from 'node:net';
import { duplexPair } from 'node:stream';
import { VirtualTimeScheduler } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RST_STATUS } from '../../../../src/kubelet/server/spdy-frame.ts';
import {
  portForwardStreamRefusal,
  serveSpdyPortForward,
} from '../../../../src/kubelet/server/spdy-port-forward.ts';
import { freePort } from './free-port.ts';
import { SpdyTestClient } from './spdy-test-client.ts';

let echo: Server;
let echoPort: number;
const serverSockets = new Set<Socket>();

beforeAll(async () => {
  // answers each chunk upper-cased and ends when the client ends
  echo = createServer({ allowHalfOpen: true }, (socket) => {
    serverSockets.add(socket);
    socket.on('close', () => serverSockets.delete(socket));
    socket.on('data', (c: Buffer) => socket.write(c.toString().toUpperCase()));
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

function forwardSession(scheduler?: VirtualTimeScheduler) {
  const [serverSide, clientSide] = duplexPair();
  const done = serveSpdyPortForward(serverSide, {
    host: '127.0.0.1',
    podName: 'web',
    podUid: 'uid-1',
    ...(scheduler ? { scheduler } : {}),
  });
  const client = new SpdyTestClient(clientSide);
  return { client, done };
}

const headers = (type: 'data' | 'error', port: number, requestid: string) => ({
  streamtype: type,
  port: String(port),
  requestid,
});

describe('portForwardStreamRefusal (kubelet httpStreamReceived)', () => {
  it.each([
    [{ streamtype: 'data' }, '"port" header is required'],
    [{ streamtype: 'data', port: 'http' }, 'unable to parse "http" as a port'],
    [{ streamtype: 'data', port: '70000' }, 'unable to parse "70000" as a port'],
    [{ streamtype: 'data', port: '0' }, 'port "0" must be > 0'],
    [{ port: '80' }, '"streamType" header is required'],
    [{ port: '80', streamtype: 'resize' }, 'invalid stream type "resize"'],
    [{ port: '80', streamtype: 'error' }, undefined],
    [{ port: '80', streamtype: 'data', requestid: '4' }, undefined],
  ])('%j → %s', (h, reason) => {
    expect(portForwardStreamRefusal(h)).toBe(reason);
  });
});

describe('serveSpdyPortForward', () => {
  it('relays a request once its error and data streams are both open, both ways, then ends both', async () => {
    const { client, done } = forwardSession();
    client.open(1, headers('error', echoPort, '0'));
    client.data(1, '', true); // kubectl half-closes the error stream at once
    client.open(3, headers('data', echoPort, '0'));
    await client.until((f) => f.filter((x) => x.type === 'SYN_REPLY').length === 2, 'two replies');
    client.data(3, 'hello');
    await client.until(() => client.stream(3).text === 'HELLO', 'the echo');
    client.data(3, '', true); // the local connection closed
    await client.until(() => client.stream(3).fin && client.stream(1).fin, 'both FINs');
    expect(client.stream(1)).toEqual({ text: '', fin: true });
    client.close();
    await done;
  });

  it('pairs streams by request id whatever their order, several requests at once', async () => {
    const { client, done } = forwardSession();
    client.open(1, headers('data', echoPort, '7'));
    client.open(3, headers('error', echoPort, '8'));
    client.open(5, headers('data', echoPort, '8'));
    client.open(7, headers('error', echoPort, '7'));
    await client.until((f) => f.filter((x) => x.type === 'SYN_REPLY').length === 4, 'four replies');
    client.data(1, 'seven');
    client.data(5, 'eight');
    await client.until(
      () => client.stream(1).text === 'SEVEN' && client.stream(5).text === 'EIGHT',
      'both echoes',
    );
    client.close();
    await done;
  });

  it('a port nothing listens on: the error stream says so in the kubelet words, then both streams end', async () => {
    const closed = await freePort();
    const { client, done } = forwardSession();
    client.open(1, headers('error', closed, '0'));
    client.open(3, headers('data', closed, '0'));
    await client.until(() => client.stream(1).fin && client.stream(3).fin, 'both FINs');
    expect(client.stream(1).text).toBe(
      `error forwarding port ${closed} to pod web, uid uid-1: dial tcp4 127.0.0.1:${closed}: connect: connection refused`,
    );
    client.close();
    await done;
  });

  it('a stream with a bad port header is refused and nothing is dialled', async () => {
    const { client, done } = forwardSession();
    client.open(1, { streamtype: 'data', port: 'x', requestid: '0' });
    await client.until((f) => f.length >= 1, 'RST_STREAM');
    expect(client.received[0]).toEqual({ type: 'RST_STREAM', streamId: 1, status: RST_STATUS.refusedStream });
    client.close();
    await done;
  });

  it('a request whose second stream never comes times out after 30 s (virtual time) on its error stream', async () => {
    const scheduler = new VirtualTimeScheduler();
    const { client, done } = forwardSession(scheduler);
    client.open(1, headers('error', echoPort, '0'));
    await client.until((f) => f.length >= 1, 'SYN_REPLY');
    scheduler.maxFrames = 29_999;
    scheduler.flush();
    expect(client.stream(1).text).toBe('');
    scheduler.maxFrames = Number.POSITIVE_INFINITY;
    scheduler.flush();
    await client.until(() => client.stream(1).fin, 'FIN');
    expect(client.stream(1).text).toBe('(conn=web, request=0) timed out waiting for streams');
    client.close();
    await done;
  });

  it('closing the session closes the connections to the pod', async () => {
    const { client, done } = forwardSession();
    client.open(1, headers('error', echoPort, '0'));
    client.open(3, headers('data', echoPort, '0'));
    client.data(3, 'x');
    await client.until(() => client.stream(3).text === 'X', 'the echo');
    expect(serverSockets.size).toBe(1);
    client.close();
    await done;
    const deadline = Date.now() + 5_000;
    while (serverSockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(serverSockets.size).toBe(0);
  });
});
