// Fault proxy tests: each fault against a small loopback upstream, pass-through, scoping, reproducibility and teardown.
import http, { type IncomingMessage, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { type FaultPlan, isFirstRequest } from '../../../src/testing/fault-plan.ts';
import { type FaultProxy, startFaultProxy } from '../../../src/testing/fault-proxy.ts';
import { malformedReason } from '../../../streams/list-watch-state.ts';

const LINES = Array.from(
  { length: 8 },
  (_, i) =>
    `${JSON.stringify({
      type: 'MODIFIED',
      object: {
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, resourceVersion: String(10 + i) },
        data: { t: 'é日本🙂' },
      },
    })}\n`,
);
const WATCH_BODY = LINES.join('');
const LIST_BODY = JSON.stringify({
  kind: 'ConfigMapList',
  metadata: { resourceVersion: '20' },
  items: [{ metadata: { name: 'a', resourceVersion: '3' } }],
});
const MANY = 50;
const MANY_BODY = JSON.stringify({
  kind: 'ConfigMapList',
  metadata: { resourceVersion: '90' },
  items: Array.from({ length: MANY }, (_, i) => ({
    metadata: { name: `cm-${i}`, resourceVersion: String(i + 1) },
  })),
});

let upstream: Server;
let upstreamUrl = '';
const posted: string[] = [];

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      if (req.method === 'POST') {
        posted.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': 'yes' });
        res.end('{"ok":true}');
      } else if (url.startsWith('/many')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(MANY_BODY);
      } else if (url.startsWith('/missing')) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{"kind":"Status","code":404}');
      } else if (url.includes('watch=true')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        // the whole watch in one write: any split the client sees is the proxy's doing
        res.end(WATCH_BODY);
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(LIST_BODY);
      }
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = upstream.address() as { port: number };
  upstreamUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

interface Answer {
  status?: number;
  headers?: IncomingMessage['headers'];
  body: Buffer;
  /** How the exchange ended. */
  end: 'complete' | 'broken' | 'aborted';
  pieces: number;
}

/** One request through the proxy; aborts it after `abortAfterMs` if given. */
function request(
  proxy: FaultProxy,
  path: string,
  options: { method?: string; body?: string; abortAfterMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const answer: Answer = { body: Buffer.alloc(0), end: 'complete', pieces: 0 };
    let settled = false;
    const settle = (end: Answer['end']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      answer.end = end;
      answer.body = Buffer.concat(chunks);
      resolve(answer);
    };
    const req = http.request(`${proxy.url}${path}`, {
      method: options.method ?? 'GET',
      agent: false,
      headers: options.body ? { 'Content-Type': 'application/json' } : {},
    });
    const timer = options.abortAfterMs
      ? setTimeout(() => {
          req.destroy();
          settle('aborted');
        }, options.abortAfterMs)
      : undefined;
    req.on('response', (res) => {
      answer.status = res.statusCode;
      answer.headers = res.headers;
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        answer.pieces++;
      });
      res.on('error', () => {});
      res.on('close', () => settle(res.complete ? 'complete' : 'broken'));
    });
    req.on('error', () => settle('broken'));
    req.end(options.body);
  });
}

async function withProxy<T>(plan: FaultPlan, run: (proxy: FaultProxy) => Promise<T>, seed = 1): Promise<T> {
  const proxy = await startFaultProxy({ upstream: { url: upstreamUrl }, seed, plan });
  try {
    return await run(proxy);
  } finally {
    await proxy.close();
  }
}

const WATCH = '/api/v1/configmaps?watch=true';
const LIST = '/api/v1/configmaps';

describe('startFaultProxy without faults', () => {
  it('passes watches, lists, error answers and request bodies through unchanged', async () => {
    await withProxy({}, async (proxy) => {
      const watch = await request(proxy, WATCH);
      expect(watch).toMatchObject({ status: 200, end: 'complete' });
      expect(watch.body.toString('utf8')).toBe(WATCH_BODY);
      const list = await request(proxy, LIST);
      expect(list.body.toString('utf8')).toBe(LIST_BODY);
      const missing = await request(proxy, '/missing');
      expect(missing.status).toBe(404);
      const created = await request(proxy, LIST, { method: 'POST', body: '{"name":"x"}' });
      expect(created.status).toBe(201);
      expect(created.headers?.['x-upstream']).toBe('yes');
      expect(posted.at(-1)).toBe('{"name":"x"}');
      expect(proxy.injected).toEqual([]);
      expect(proxy.requests()).toBe(4);
    });
  });

  it('speaks plain HTTP to an http upstream and offers a kubeconfig pointing at itself', async () => {
    await withProxy({}, async (proxy) => {
      expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(proxy.caPem).toBe('');
      expect(proxy.kubeconfig).toContain(`server: ${proxy.url}`);
    });
  });
});

describe('request faults', () => {
  it.each([
    ['tooManyRequests', 429, 'TooManyRequests'],
    ['serverError', 500, 'InternalError'],
    ['unavailable', 503, 'ServiceUnavailable'],
  ] as const)('%s answers %i with a Status, never reaching the upstream', async (fault, code, reason) => {
    await withProxy({ [fault]: 1, retryAfterSeconds: 3 }, async (proxy) => {
      const answer = await request(proxy, WATCH);
      expect(answer.status).toBe(code);
      const status = JSON.parse(answer.body.toString('utf8'));
      expect(status).toMatchObject({ kind: 'Status', code, reason });
      if (code === 429) {
        expect(answer.headers?.['retry-after']).toBe('3');
        expect(status.details).toEqual({ retryAfterSeconds: 3 });
      } else expect(answer.headers?.['retry-after']).toBeUndefined();
      expect(proxy.counts()[fault]).toBe(1);
    });
  });

  it('dropBeforeHeaders destroys the connection before any answer', async () => {
    await withProxy({ dropBeforeHeaders: 1 }, async (proxy) => {
      const answer = await request(proxy, LIST);
      expect(answer.status).toBeUndefined();
      expect(answer.end).toBe('broken');
      expect(proxy.injected).toEqual([{ kind: 'dropBeforeHeaders', request: 1, method: 'GET', path: LIST }]);
    });
  });

  it('hang never answers, until the client gives up', async () => {
    await withProxy({ hang: 1 }, async (proxy) => {
      const answer = await request(proxy, LIST, { abortAfterMs: 150 });
      expect(answer.status).toBeUndefined();
      expect(answer.end).toBe('aborted');
    });
  });

  it('delay forwards the request after a pause from delayMs', async () => {
    await withProxy({ delay: 1, delayMs: [120, 120] }, async (proxy) => {
      const started = performance.now();
      const answer = await request(proxy, LIST);
      expect(performance.now() - started).toBeGreaterThanOrEqual(100);
      expect(answer.body.toString('utf8')).toBe(LIST_BODY);
      expect(proxy.counts().delay).toBe(1);
    });
  });
});

describe('stream faults on a watch', () => {
  it('cut sends part of the first line, then breaks the connection', async () => {
    await withProxy({ cut: 1 }, async (proxy) => {
      const answer = await request(proxy, WATCH);
      expect(answer).toMatchObject({ status: 200, end: 'broken' });
      expect(Buffer.from(LINES[0]!).subarray(0, answer.body.length).equals(answer.body)).toBe(true);
      expect(answer.body.length).toBeLessThan(Buffer.byteLength(LINES[0]!));
    });
  });

  it('cleanEnd ends the answer cleanly before the line', async () => {
    await withProxy({ cleanEnd: 1 }, async (proxy) => {
      const answer = await request(proxy, WATCH);
      expect(answer).toMatchObject({ status: 200, end: 'complete' });
      expect(answer.body.length).toBe(0);
    });
  });

  it('expire replaces the line by a 410 Expired ERROR event and ends the answer', async () => {
    await withProxy({ expire: 1 }, async (proxy) => {
      const answer = await request(proxy, WATCH);
      expect(answer.end).toBe('complete');
      const lines = answer.body.toString('utf8').split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        type: 'ERROR',
        object: { kind: 'Status', code: 410, reason: 'Expired' },
      });
    });
  });

  it('stall holds each line for a while, then sends it unchanged', async () => {
    await withProxy({ stall: 1, stallMs: [5, 5] }, async (proxy) => {
      const answer = await request(proxy, WATCH);
      expect(answer.body.toString('utf8')).toBe(WATCH_BODY);
      expect(proxy.counts().stall).toBe(LINES.length);
      expect(proxy.injected.map((f) => f.line)).toEqual(LINES.map((_, i) => i + 1));
    });
  });

  it('stallForever sends the head and nothing more, keeping the connection open', async () => {
    await withProxy({ stallForever: 1 }, async (proxy) => {
      const answer = await request(proxy, WATCH, { abortAfterMs: 200 });
      expect(answer).toMatchObject({ status: 200, end: 'aborted' });
      expect(answer.body.length).toBe(0);
    });
  });

  it('malformed replaces every line by one that is not a well-formed watch event', async () => {
    await withProxy({ malformed: 1 }, async (proxy) => {
      const answer = await request(proxy, WATCH);
      const lines = answer.body.toString('utf8').split('\n').filter(Boolean);
      expect(lines).toHaveLength(LINES.length);
      for (const line of lines) {
        let reason: string | undefined;
        try {
          reason = malformedReason(JSON.parse(line));
        } catch {
          reason = 'not JSON';
        }
        expect(reason, line).toBeDefined();
      }
    });
  });

  it('split sends the same bytes in more pieces than lines', async () => {
    await withProxy({ split: 1 }, async (proxy) => {
      const answer = await request(proxy, WATCH);
      expect(answer.body.toString('utf8')).toBe(WATCH_BODY);
      expect(answer.pieces).toBeGreaterThan(LINES.length);
      expect(proxy.counts().split).toBe(LINES.length);
    });
  });
});

describe('stream faults on other answers', () => {
  it('cut breaks a list body part-way', async () => {
    await withProxy({ cut: 1 }, async (proxy) => {
      const answer = await request(proxy, LIST);
      expect(answer.end).toBe('broken');
      expect(answer.body.length).toBeLessThan(LIST_BODY.length);
    });
  });

  it('malformed ends a list body cleanly but truncated', async () => {
    await withProxy({ malformed: 1 }, async (proxy) => {
      const answer = await request(proxy, LIST);
      expect(answer.end).toBe('complete');
      expect(() => JSON.parse(answer.body.toString('utf8'))).toThrow();
    });
  });

  it('stallForever leaves a list unanswered after its head (a hung list)', async () => {
    await withProxy({ stallForever: 1 }, async (proxy) => {
      const answer = await request(proxy, LIST, { abortAfterMs: 150 });
      expect(answer.end).toBe('aborted');
      expect(answer.body.length).toBeLessThan(LIST_BODY.length);
    });
  });
});

describe('list faults per item (listFaultsPerItem)', () => {
  it('a per-object hazard cuts a list at an object’s place in the body, and some lists get through whole', async () => {
    const ends: Answer[] = [];
    await withProxy({ cut: 0.02, listFaultsPerItem: true }, async (proxy) => {
      for (let i = 0; i < 20; i++) ends.push(await request(proxy, '/many'));
    });
    const broken = ends.filter((a) => a.end === 'broken');
    const whole = ends.filter((a) => a.end === 'complete');
    expect(broken.length).toBeGreaterThan(0);
    expect(whole.length).toBeGreaterThan(0);
    const places = Array.from({ length: MANY }, (_, i) => Math.floor((MANY_BODY.length * i) / MANY));
    for (const a of broken) expect(places).toContain(a.body.length);
    for (const a of whole) expect(a.body.toString('utf8')).toBe(MANY_BODY);
  });

  it('stallForever per object holds a list after the objects before it', async () => {
    await withProxy({ stallForever: 0.05, listFaultsPerItem: true }, async (proxy) => {
      let held: Answer | undefined;
      for (let i = 0; i < 10 && !held; i++) {
        const a = await request(proxy, '/many', { abortAfterMs: 300 });
        if (a.end === 'aborted') held = a;
      }
      expect(held).toBeDefined();
      expect(held!.body.length).toBeLessThan(MANY_BODY.length);
      expect(proxy.counts().stallForever).toBe(1);
    });
  });

  it('hangsInList’s scope: only the first request gets faults', async () => {
    await withProxy({ serverError: 1, applies: isFirstRequest }, async (proxy) => {
      expect((await request(proxy, LIST)).status).toBe(500);
      expect((await request(proxy, LIST)).status).toBe(200);
      expect((await request(proxy, WATCH)).status).toBe(200);
    });
  });
});

describe('plans', () => {
  it('applies only to the requests the plan selects', async () => {
    await withProxy({ serverError: 1, applies: (r) => r.watch }, async (proxy) => {
      expect((await request(proxy, LIST)).status).toBe(200);
      expect((await request(proxy, WATCH)).status).toBe(500);
      expect((await request(proxy, '/api/v1/watch/configmaps')).status).toBe(500);
    });
  });

  it('setPlan changes the faults of later requests', async () => {
    await withProxy({ serverError: 1 }, async (proxy) => {
      expect((await request(proxy, LIST)).status).toBe(500);
      proxy.setPlan({});
      expect((await request(proxy, LIST)).status).toBe(200);
    });
  });

  it.each([
    [{ cut: 1.5 }, 'faultPlan.cut'],
    [{ hang: -0.1 }, 'faultPlan.hang'],
    [{ cut: 0.6, malformed: 0.6 }, 'faultPlan'],
    [{ retryAfterSeconds: 1.5 }, 'faultPlan.retryAfterSeconds'],
    [{ stallMs: [10, 5] as const }, 'faultPlan.stallMs'],
  ])('rejects the plan %j naming %s', async (plan, field) => {
    await expect(startFaultProxy({ upstream: { url: upstreamUrl }, seed: 1, plan })).rejects.toSatisfy(
      (e: unknown) => e instanceof InvalidConfigError && e.field === field,
    );
  });

  it('rejects a bad seed and upstream', async () => {
    await expect(startFaultProxy({ upstream: { url: upstreamUrl }, seed: Number.NaN })).rejects.toThrow(
      /faultProxy\.seed/,
    );
    await expect(startFaultProxy({ upstream: { url: 'ftp://x' }, seed: 1 })).rejects.toThrow(
      /faultProxy\.upstream\.url/,
    );
  });

  it('makes the same decisions for the same seed and request sequence', async () => {
    const plan: FaultPlan = {
      serverError: 0.3,
      delay: 0.2,
      delayMs: [1, 2],
      split: 0.3,
      stall: 0.2,
      stallMs: [1, 2],
    };
    const run = (seed: number) =>
      withProxy(
        plan,
        async (proxy) => {
          for (let i = 0; i < 6; i++) await request(proxy, i % 2 ? LIST : WATCH);
          return proxy.injected.map((f) => `${f.request}:${f.kind}:${f.line ?? ''}`);
        },
        seed,
      );
    const a = await run(11);
    expect(await run(11)).toEqual(a);
    expect(a.length).toBeGreaterThan(0);
    expect(await run(12)).not.toEqual(a);
  });
});

describe('teardown', () => {
  it('close() ends held requests and leaves no handle behind', async () => {
    await sleep(20);
    const before = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
    const proxy = await startFaultProxy({
      upstream: { url: upstreamUrl },
      seed: 3,
      plan: { hang: 0.5, stallForever: 0.5 },
    });
    const pending = [request(proxy, LIST), request(proxy, WATCH), request(proxy, LIST)];
    await sleep(50);
    await proxy.close();
    const answers = await Promise.all(pending);
    expect(answers.every((a) => a.end === 'broken')).toBe(true);
    await sleep(50);
    expect(process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length).toBeLessThanOrEqual(
      before,
    );
  });
});
