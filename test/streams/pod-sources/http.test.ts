// httpPodSource: http_test.go's cases against a real loopback server, plus timeouts, size cap and teardown in virtual time.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../operators/logger.ts';
import type { Pod } from '../../../operators/pod-config/types.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { httpPodSource } from '../../../streams/pod-sources/http.ts';
import { until } from '../../helpers/until.ts';

const NODE = 'different-value';
const pod = (name: string, uid: string, image = 'foo') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, uid, namespace: 'mynamespace' },
  spec: { containers: [{ name: '1', image }] },
});

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A loopback server answering with whatever `answer` says now; records the requests. */
async function serve(answer: () => { status: number; body: string }) {
  const requests: IncomingMessage[] = [];
  server = createServer((req, res) => {
    requests.push(req);
    const { status, body } = answer();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/pods`;
  return { url, requests };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

function recordingLogger(lines: Record<string, unknown>[]): Logger {
  const push = (level: string) => (o: unknown, msg?: string) => {
    lines.push({ level, msg, ...(typeof o === 'object' ? (o as object) : { msg: o }) });
  };
  const logger = {
    trace: push('trace'),
    debug: push('debug'),
    info: push('info'),
    warn: push('warn'),
    error: push('error'),
    child: () => logger,
  };
  return logger as unknown as Logger;
}

const names = (pods: Pod[]) =>
  pods.map((p) => `${p.metadata?.name}=${p.spec?.containers?.[0]?.image}`).join(' ');

describe('httpPodSource over loopback', () => {
  it('reads a single pod with the static-pod defaults (TestExtractPodsFromHTTP "Single pod")', async () => {
    const { url } = await serve(() => ({ status: 200, body: JSON.stringify(pod('foo', '111')) }));
    const sets: Pod[][] = [];
    const sub = httpPodSource({ url, nodeName: NODE }).subscribe((p) => sets.push(p));
    await until(() => sets.length > 0, 'the first set');
    sub.unsubscribe();
    expect(sets[0]).toHaveLength(1);
    expect(sets[0]![0]!.metadata).toMatchObject({
      name: `foo-${NODE}`,
      uid: '111',
      namespace: 'mynamespace',
    });
    expect(sets[0]![0]!.spec?.tolerations).toBeUndefined();
    expect(sets[0]![0]!.status?.phase).toBe('Pending');
  });

  it('reads a PodList (TestExtractPodsFromHTTP "Multiple pods")', async () => {
    const list = {
      apiVersion: 'v1',
      kind: 'PodList',
      items: [pod('foo', '111'), pod('bar', '222', 'bar:bartag')],
    };
    const { url } = await serve(() => ({ status: 200, body: JSON.stringify(list) }));
    const sets: Pod[][] = [];
    const sub = httpPodSource({ url, nodeName: NODE }).subscribe((p) => sets.push(p));
    await until(() => sets.length > 0, 'the first set');
    sub.unsubscribe();
    expect(names(sets[0]!)).toBe(`foo-${NODE}=foo bar-${NODE}=bar:bartag`);
  });

  it('sends the configured headers, every value of a repeated key (TestURLWithHeader)', async () => {
    const { url, requests } = await serve(() => ({ status: 200, body: JSON.stringify(pod('foo', '111')) }));
    const sets: Pod[][] = [];
    const headers: [string, string][] = [
      ['Metadata-Flavor', 'Google'],
      ['X-Multi', 'a'],
      ['X-Multi', 'b'],
    ];
    const sub = httpPodSource({ url, nodeName: NODE, headers }).subscribe((p) => sets.push(p));
    await until(() => sets.length > 0, 'the first set');
    sub.unsubscribe();
    expect(requests[0]!.headers['metadata-flavor']).toBe('Google');
    expect(requests[0]!.headers['x-multi']).toBe('a, b');
  });

  it('emits nothing when nobody listens (TestURLErrorNotExistNoUpdate) and logs the failure', async () => {
    const { url } = await serve(() => ({ status: 200, body: '' }));
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const lines: Record<string, unknown>[] = [];
    const sets: Pod[][] = [];
    const sub = httpPodSource({ url, nodeName: NODE, logger: recordingLogger(lines) }).subscribe((p) =>
      sets.push(p),
    );
    await until(() => lines.some((l) => l.level === 'warn'), 'the warning');
    sub.unsubscribe();
    expect(sets).toEqual([]);
  });

  it('keeps the last good pods when the URL starts failing, and follows it again when it recovers', async () => {
    let answer = { status: 200, body: JSON.stringify(pod('foo', '111')) };
    const { url, requests } = await serve(() => answer);
    const sets: Pod[][] = [];
    const lines: Record<string, unknown>[] = [];
    const sub = httpPodSource({
      url,
      nodeName: NODE,
      checkFrequencyMs: 20,
      logger: recordingLogger(lines),
    }).subscribe((p) => sets.push(p));
    await until(() => sets.length === 1, 'the first set');
    answer = { status: 500, body: 'oops' };
    const failingFrom = requests.length;
    await until(() => requests.length >= failingFrom + 3, 'three failing polls');
    answer = { status: 200, body: '{"broken": ' };
    const brokenFrom = requests.length;
    await until(() => requests.length >= brokenFrom + 2, 'two broken polls');
    expect(sets).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'warn').length).toBeGreaterThanOrEqual(3);
    answer = { status: 200, body: JSON.stringify(pod('foo', '111', 'foo:2')) };
    await until(() => sets.length === 2, 'the recovered set');
    sub.unsubscribe();
    expect(names(sets[1]!)).toBe(`foo-${NODE}=foo:2`);
    expect(lines.some((l) => l.level === 'info' && String(l.msg).includes('successfully'))).toBe(true);
  });
});

/** A fake fetch driven by the test: each call takes the next answer; 'hang' never answers until aborted. */
function fakeFetch(answers: (string | { status: number; body: string } | 'hang')[]) {
  const calls: { signal: AbortSignal; headers: Headers }[] = [];
  const fetchFn = ((_url: string, init: RequestInit) => {
    const signal = init.signal!;
    calls.push({ signal, headers: new Headers(init.headers) });
    const next = answers.shift() ?? 'hang';
    if (next === 'hang') {
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason ?? new Error('aborted')), { once: true });
      });
    }
    const { status, body } = typeof next === 'string' ? { status: 200, body: next } : next;
    return Promise.resolve(new Response(body, { status }));
  }) as unknown as typeof fetch;
  return { fetchFn, calls };
}

/**
 * Runs httpPodSource on a virtual clock over a fake fetch answering `answers` in turn; records the pod
 * sets, the requests and the log lines. `config` overrides the URL, period, timeout, size cap...
 */
function polledSource(
  answers: Parameters<typeof fakeFetch>[0],
  config: Partial<Parameters<typeof httpPodSource>[0]> = {},
) {
  const clock = new VirtualClock();
  const lines: Record<string, unknown>[] = [];
  const { fetchFn, calls } = fakeFetch(answers);
  const sets: Pod[][] = [];
  const sub = httpPodSource({
    url: 'http://x',
    nodeName: NODE,
    fetch: fetchFn,
    scheduler: clock.scheduler,
    logger: recordingLogger(lines),
    ...config,
  }).subscribe((p) => sets.push(p));
  return { clock, lines, calls, sets, sub };
}

describe('httpPodSource in virtual time', () => {
  it('polls at once and every check period, emitting only new bodies', async () => {
    const good = JSON.stringify(pod('foo', '111'));
    const { clock, calls, sets, sub } = polledSource([good, good, JSON.stringify(pod('bar', '222'))], {
      url: 'http://x/pods',
    });
    clock.advance(0);
    await tick();
    expect(sets.map(names)).toEqual([`foo-${NODE}=foo`]);
    clock.advance(20_000);
    await tick();
    expect(calls).toHaveLength(2);
    expect(sets).toHaveLength(1);
    clock.advance(20_000);
    await tick();
    expect(sets.map(names)).toEqual([`foo-${NODE}=foo`, `bar-${NODE}=foo`]);
    sub.unsubscribe();
  });

  it('emits an empty set for an empty body (zero-length data)', async () => {
    const { clock, sets, sub } = polledSource(['']);
    clock.advance(0);
    await tick();
    expect(sets).toEqual([[]]);
    sub.unsubscribe();
  });

  it('times out a request that does not answer, keeps the last good set, and polls again', async () => {
    const { clock, lines, calls, sets, sub } = polledSource(
      [JSON.stringify(pod('foo', '111')), 'hang', JSON.stringify(pod('bar', '2'))],
      { checkFrequencyMs: 20_000, timeoutMs: 10_000 },
    );
    clock.advance(0);
    await tick();
    clock.advance(20_000);
    await tick();
    expect(calls[1]!.signal.aborted).toBe(false);
    clock.advance(10_000);
    await tick();
    expect(calls[1]!.signal.aborted).toBe(true);
    expect(lines.some((l) => String(l.reason).includes('did not answer within 10000 ms'))).toBe(true);
    expect(sets).toHaveLength(1);
    clock.advance(10_000);
    await tick();
    expect(sets.map(names)).toEqual([`foo-${NODE}=foo`, `bar-${NODE}=foo`]);
    sub.unsubscribe();
  });

  it('refuses a body over the size cap', async () => {
    const { clock, lines, sets, sub } = polledSource([JSON.stringify(pod('foo', '111', 'x'.repeat(200)))], {
      maxBytes: 100,
    });
    clock.advance(0);
    await tick();
    await tick();
    expect(sets).toEqual([]);
    expect(lines.some((l) => String(l.reason).includes('100-byte limit'))).toBe(true);
    sub.unsubscribe();
  });

  it('aborts the request in flight and stops polling on unsubscribe', async () => {
    const { clock, calls, sub } = polledSource(['hang']);
    clock.advance(0);
    expect(calls).toHaveLength(1);
    sub.unsubscribe();
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(calls).toHaveLength(1);
  });

  it('property: garbage bodies never remove a valid pod', async () => {
    const arbGarbage = fc.oneof(
      fc.string({ minLength: 1 }),
      fc.json().filter((s) => s.length > 0),
      fc.constantFrom(
        '{"apiVersion":"v1","kind":"Pod"}',
        '{"apiVersion":"v1","kind":"PodList","items":[{}]}',
        '\u0000\u0001',
      ),
      fc.record({ status: fc.constantFrom(404, 500, 503), body: fc.string() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(arbGarbage, { minLength: 1, maxLength: 6 }), async (garbage) => {
        const good = JSON.stringify(pod('foo', '111'));
        const { clock, sets, sub } = polledSource([good, ...garbage], { checkFrequencyMs: 1000 });
        for (let i = 0; i <= garbage.length; i++) {
          clock.advance(i === 0 ? 0 : 1000);
          await tick();
          await tick();
        }
        sub.unsubscribe();
        expect(sets.length).toBeGreaterThan(0);
        for (const set of sets) expect(names(set)).toContain(`foo-${NODE}=foo`);
      }),
      { numRuns: 100 },
    );
  });
});
