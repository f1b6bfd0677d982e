// Answers to writes wait for the store's acknowledgement; a refused write turns the answer into the refusal.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../operators/logger.ts';
import { conflict, STALE_OBJECT_MESSAGE } from '../../../../src/apiserver/api-status.ts';
import { holdUntilDurable } from '../../../../src/apiserver/storage/hold-until-durable.ts';
import { type AcknowledgedWrite, pendingWrites } from '../../../../src/apiserver/storage/pending-writes.ts';
import { request } from '../fixtures/http.ts';

/** A server whose handler registers one write per request, settled when the test says. */
function serve() {
  const writes: { resolve(ack: AcknowledgedWrite): void; reject(e: unknown): void }[] = [];
  let answered = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET') {
      const list = pendingWrites.getStore();
      list?.push(
        new Promise<AcknowledgedWrite>((resolve, reject) => {
          writes.push({ resolve, reject });
        }),
      );
    }
    const text = JSON.stringify({ ok: true, metadata: { name: 'web', resourceVersion: '7' } });
    res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text, () => {
      answered++;
    });
  };
  const server = createServer(holdUntilDurable(handler, silentLogger));
  return {
    writes,
    answered: () => answered,
    listen: () =>
      new Promise<{ url: string; caPem: string; token: undefined }>((r) =>
        server.listen(0, '127.0.0.1', () => {
          const a = server.address();
          r({
            url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`,
            caPem: '',
            token: undefined,
          });
        }),
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Resolves once `n` writes were registered (each arrives on its own request's tick). */
async function registered(writes: unknown[], n: number): Promise<void> {
  while (writes.length < n) await new Promise((r) => setImmediate(r));
}

describe('holdUntilDurable', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('sends a write’s answer only after its write is acknowledged', async () => {
    const s = serve();
    close = s.close;
    const target = await s.listen();
    const pending = request(target, 'POST', '/x', { body: {} });
    await registered(s.writes, 1);
    expect(s.answered()).toBe(0);
    s.writes[0]!.resolve({ predictedRv: 7, storedRv: 7 });
    const res = await pending;
    expect([res.status, res.body]).toEqual([
      201,
      { ok: true, metadata: { name: 'web', resourceVersion: '7' } },
    ]);
  });

  it('answers the stored resourceVersion when the store gave the write another one', async () => {
    const s = serve();
    close = s.close;
    const target = await s.listen();
    const pending = request(target, 'POST', '/x', { body: {} });
    await registered(s.writes, 1);
    s.writes[0]!.resolve({ predictedRv: 7, storedRv: 1234 });
    const res = await pending;
    expect(res.body.metadata).toEqual({ name: 'web', resourceVersion: '1234' });
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });

  it('answers the refusal instead when the store refused the write', async () => {
    const s = serve();
    close = s.close;
    const target = await s.listen();
    const pending = request(target, 'PUT', '/x', { body: {} });
    await registered(s.writes, 1);
    s.writes[0]!.reject(conflict({ name: 'web' }, 'pods', STALE_OBJECT_MESSAGE));
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    expect(res.body.message).toBe(`Operation cannot be fulfilled on pods "web": ${STALE_OBJECT_MESSAGE}`);
  });

  it('answers 500 naming the store when the write failed for another reason', async () => {
    const s = serve();
    close = s.close;
    const target = await s.listen();
    const pending = request(target, 'DELETE', '/x');
    await registered(s.writes, 1);
    s.writes[0]!.reject(new Error('connection refused'));
    const res = await pending;
    expect([res.status, res.body.reason, res.body.message]).toEqual([
      500,
      'InternalError',
      'storage: connection refused',
    ]);
  });

  it('passes reads straight through', async () => {
    const s = serve();
    close = s.close;
    const target = await s.listen();
    const res = await request(target, 'GET', '/x');
    expect([res.status, s.writes.length]).toEqual([201, 0]);
  });
});
