// spdyServerConnection against an in-memory SPDY client: replies, refusals, pings, half-closes, resets and teardown.
import { duplexPair } from 'node:stream';
import { firstValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { RST_STATUS } from '../../../../src/kubelet/server/spdy-frame.ts';
import {
  type SpdyStream,
  spdyServerConnection,
} from '../../../../src/kubelet/server/spdy-server-connection.ts';
import { SpdyTestClient } from './spdy-test-client.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function session(accept?: (h: Record<string, string>) => string | undefined) {
  const [serverSide, clientSide] = duplexPair();
  const connection = spdyServerConnection(serverSide, accept ? { accept } : {});
  const streams: SpdyStream[] = [];
  const all = firstValueFrom(connection.streams$.pipe(toArray()));
  connection.streams$.subscribe((s) => streams.push(s));
  const client = new SpdyTestClient(clientSide);
  cleanups.push(() => client.close());
  return { connection, client, streams, all, serverSide };
}

describe('spdyServerConnection', () => {
  it('answers a SYN_STREAM with an empty SYN_REPLY and hands the stream over with its headers', async () => {
    const { client, streams } = session();
    client.open(1, { streamtype: 'data', port: '80' });
    const [reply] = await client.until((f) => f.length >= 1, 'SYN_REPLY');
    expect(reply).toMatchObject({ type: 'SYN_REPLY', streamId: 1, flags: 0, headers: {} });
    expect(streams).toHaveLength(1);
    expect(streams[0]!.streamId).toBe(1);
    expect(streams[0]!.headers).toEqual({ streamtype: 'data', port: '80' });
  });

  it('carries data both ways; the peer FIN ends reading, end() sends FIN', async () => {
    const { client, streams } = session();
    client.open(1, {});
    await client.until(() => streams.length === 1, 'the stream');
    const stream = streams[0]!;
    const read: Buffer[] = [];
    stream.on('data', (c: Buffer) => read.push(c));
    const ended = new Promise<void>((resolve) => stream.once('end', () => resolve()));
    client.data(1, 'ping ');
    client.data(1, 'pong', true);
    await ended;
    expect(Buffer.concat(read).toString()).toBe('ping pong');
    stream.end('reply');
    await client.until(() => client.stream(1).fin, 'FIN');
    expect(client.stream(1)).toEqual({ text: 'reply', fin: true });
  });

  it('a large write is split into frames and arrives whole', async () => {
    const { client, streams } = session();
    client.open(1, {});
    await client.until(() => streams.length === 1, 'the stream');
    const big = 'abcdefgh'.repeat(40_000); // 320 KB
    streams[0]!.end(big);
    await client.until(() => client.stream(1).fin, 'FIN');
    expect(client.stream(1).text).toBe(big);
    expect(client.received.filter((f) => f.type === 'DATA').length).toBeGreaterThan(4);
  });

  it('a stream whose reader lags holds the session: frames after it wait until it is read', async () => {
    const { client, streams } = session();
    client.open(1, {});
    await client.until(() => streams.length === 1, 'the stream');
    const chunk = Buffer.alloc(64 * 1024, 7);
    for (let i = 0; i < 32; i++) client.data(1, chunk); // 2 MiB, twice what a stream holds unread
    await new Promise((r) => setTimeout(r, 100)); // what was read before the session paused is handled
    client.send({ type: 'PING', id: 9 });
    await new Promise((r) => setTimeout(r, 200));
    expect(client.received.filter((f) => f.type === 'PING')).toEqual([]);
    let read = 0;
    streams[0]!.on('data', (c: Buffer) => {
      read += c.length;
    });
    await client.until((f) => f.some((x) => x.type === 'PING'), 'the PING answer');
    expect(read).toBe(32 * chunk.length);
  });

  it('a stream the accept check refuses gets RST_STREAM REFUSED_STREAM and is not handed over', async () => {
    const { client, streams } = session((h) => (h.port ? undefined : '"port" header is required'));
    client.open(1, { streamtype: 'data' });
    await client.until((f) => f.length >= 1, 'RST_STREAM');
    expect(client.received[0]).toEqual({ type: 'RST_STREAM', streamId: 1, status: RST_STATUS.refusedStream });
    expect(streams).toHaveLength(0);
  });

  it('answers the client PINGs (odd ids) and ignores even ones', async () => {
    const { client } = session();
    client.send({ type: 'PING', id: 2 });
    client.send({ type: 'PING', id: 7 });
    await client.until((f) => f.length >= 1, 'PING');
    expect(client.received).toEqual([{ type: 'PING', id: 7 }]);
  });

  it('a stream id that is even or not increasing is a PROTOCOL_ERROR reset', async () => {
    const { client, streams } = session();
    client.open(3, {});
    client.open(2, {});
    client.open(1, {});
    await client.until((f) => f.length >= 3, 'three answers');
    expect(client.received.slice(1)).toEqual([
      { type: 'RST_STREAM', streamId: 2, status: RST_STATUS.protocolError },
      { type: 'RST_STREAM', streamId: 1, status: RST_STATUS.protocolError },
    ]);
    expect(streams.map((s) => s.streamId)).toEqual([3]);
  });

  it('a reset from the peer destroys the stream quietly', async () => {
    const { client, streams } = session();
    client.open(1, {});
    await client.until(() => streams.length === 1, 'the stream');
    const closed = new Promise<void>((resolve) => streams[0]!.once('close', () => resolve()));
    client.send({ type: 'RST_STREAM', streamId: 1, status: RST_STATUS.cancel });
    await closed;
    expect(streams[0]!.wasReset).toBe(true);
    expect(client.received.filter((f) => f.type === 'RST_STREAM')).toEqual([]);
  });

  it('destroying a stream before both halves are done resets it with CANCEL', async () => {
    const { client, streams } = session();
    client.open(1, {});
    await client.until(() => streams.length === 1, 'the stream');
    streams[0]!.destroy();
    await client.until(() => client.stream(1).reset !== undefined, 'RST_STREAM');
    expect(client.stream(1).reset).toBe(RST_STATUS.cancel);
  });

  it('a malformed frame sends GOAWAY PROTOCOL_ERROR and ends the session', async () => {
    const { client, connection, all } = session();
    client.send({ type: 'PING', id: 1 });
    const bad = Buffer.from('80030003' + '00000002' + '0000', 'hex'); // RST_STREAM with a 2-byte body
    (client as unknown as { transport: NodeJS.WritableStream }).transport.write(bad);
    await client.until((f) => f.some((x) => x.type === 'GOAWAY'), 'GOAWAY');
    expect(client.received.find((f) => f.type === 'GOAWAY')).toEqual({
      type: 'GOAWAY',
      lastGoodStreamId: 0,
      status: 1,
    });
    client.close();
    await connection.closed;
    expect(await all).toEqual([]);
  });

  it('the transport closing destroys every stream and completes streams$', async () => {
    const { client, connection, streams, all } = session();
    client.open(1, {});
    client.open(3, {});
    await client.until(() => streams.length === 2, 'two streams');
    client.close();
    await connection.closed;
    expect(streams.every((s) => s.destroyed)).toBe(true);
    expect((await all).length).toBe(2);
  });
});
