// Tests the ApiClient's timing in virtual time over a scripted transport: retries, Retry-After, timeouts, write limits.
import { NEVER, type Observable } from 'rxjs';
import { map } from 'rxjs/operators';
import type { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ApiError, TimeoutError } from '../../../operators/errors.ts';
import type { ResourceDescriptor } from '../../../streams/api-client.ts';
import type {
  HttpAnswer,
  HttpRequestSpec,
  HttpStreamPart,
  HttpTransport,
} from '../../../streams/client-node/http-transport.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { inVirtualTime } from './virtual-time.ts';

const PODS: ResourceDescriptor = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const ok = (body: unknown): HttpAnswer => ({ statusCode: 200, headers: {}, body: JSON.stringify(body) });
const status = (code: number, headers: Record<string, string> = {}): HttpAnswer => ({
  statusCode: code,
  headers,
  body: JSON.stringify({
    kind: 'Status',
    code,
    reason: code === 429 ? 'TooManyRequests' : 'ServiceUnavailable',
  }),
});
const LIST = { kind: 'PodList', metadata: { resourceVersion: '1' }, items: [] };

function scripted(ts: TestScheduler, answers: (() => Observable<HttpAnswer>)[]) {
  const sent: { at: number; spec: HttpRequestSpec }[] = [];
  const transport: HttpTransport = {
    request: (spec) => {
      sent.push({ at: ts.now(), spec });
      const next = answers.shift();
      if (!next) throw new Error('no more scripted answers');
      return next();
    },
    stream: () => NEVER as Observable<HttpStreamPart>,
  };
  return { transport, sent };
}

const run = inVirtualTime;

describe('kubeApiClient timing (virtual time)', () => {
  it('retries reads after 503 with doubling backoff (no jitter when random is 0)', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [
        () => cold('10ms (a|)', { a: status(503) }),
        () => cold('10ms (a|)', { a: status(503) }),
        () => cold('10ms (a|)', { a: ok(LIST) }),
      ]);
      const client = kubeApiClient({ transport, scheduler: ts, random: () => 0, retryInitialMs: 100 });
      expectObservable(client.list(PODS).pipe(map(() => 'l'))).toBe('330ms (l|)');
      ts.flush();
      expect(sent.map((s) => s.at)).toEqual([0, 110, 320]);
    });
  });

  it('honours Retry-After on 429 instead of the backoff', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [
        () => cold('(a|)', { a: status(429, { 'retry-after': '3' }) }),
        () => cold('(a|)', { a: ok({ metadata: { name: 'p' } }) }),
      ]);
      const client = kubeApiClient({ transport, scheduler: ts, random: () => 0 });
      expectObservable(client.get(PODS, 'p', { namespace: 'ns' }).pipe(map(() => 'g'))).toBe('3000ms (g|)');
      ts.flush();
      expect(sent.map((s) => s.at)).toEqual([0, 3_000]);
    });
  });

  it('gives up after maxReadRetries with the last error', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport } = scripted(ts, [
        () => cold('(a|)', { a: status(500) }),
        () => cold('(a|)', { a: status(500) }),
        () => cold('(a|)', { a: status(502) }),
      ]);
      const client = kubeApiClient({
        transport,
        scheduler: ts,
        random: () => 0,
        retryInitialMs: 100,
        maxReadRetries: 2,
      });
      expectObservable(client.list(PODS)).toBe(
        '300ms #',
        undefined,
        expect.objectContaining({ statusCode: 502 }),
      );
    });
  });

  it('a 404 on a read is not retried', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [() => cold('(a|)', { a: status(404) })]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.get(PODS, 'p', { namespace: 'ns' })).toBe('#', undefined, expect.any(ApiError));
      ts.flush();
      expect(sent).toHaveLength(1);
    });
  });

  it('a hung read fails at the request timeout (60 s by default)', () => {
    run((ts, { expectObservable }) => {
      const { transport } = scripted(ts, [() => NEVER]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.list(PODS)).toBe(
        '60000ms #',
        undefined,
        new TimeoutError('list v1/pods', 60_000),
      );
    });
  });

  it('a read and its retries share one request timeout: each retry gets what is left of it', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [() => cold('600ms (a|)', { a: status(503) }), () => NEVER]);
      const client = kubeApiClient({
        transport,
        scheduler: ts,
        random: () => 0,
        retryInitialMs: 100,
        requestTimeoutMs: 1000,
      });
      // 600 ms answer + 100 ms wait: the second attempt has 300 ms left, not a fresh 1000 ms
      expectObservable(client.list(PODS)).toBe('1000ms #', undefined, new TimeoutError('list v1/pods', 1000));
      ts.flush();
      expect(sent.map((s) => s.at)).toEqual([0, 700]);
    });
  });

  it('a Retry-After that would pass the request timeout is not waited for: the 429 is returned with it', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [
        () => cold('10ms (a|)', { a: status(429, { 'retry-after': '90' }) }),
      ]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.list(PODS)).toBe(
        '10ms #',
        undefined,
        expect.objectContaining({ statusCode: 429, retryAfterSeconds: 90 }),
      );
      ts.flush();
      expect(sent).toHaveLength(1);
    });
  });

  it('writes are limited to qps 5, burst 10 by default', () => {
    run((ts) => {
      const answers = Array.from({ length: 12 }, () => () => ts.createColdObservable('(a|)', { a: ok({}) }));
      const { transport, sent } = scripted(ts, answers);
      const client = kubeApiClient({ transport, scheduler: ts });
      for (let i = 0; i < 12; i += 1)
        client.create(PODS, { metadata: { name: `p${i}`, namespace: 'ns' } }).subscribe();
      ts.flush();
      expect(sent.map((s) => Math.round(s.at))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200, 400]);
    });
  });

  it('a write stuck behind the limiter times out with an error naming it', () => {
    run((ts, { expectObservable }) => {
      const { transport } = scripted(ts, [() => NEVER]);
      const client = kubeApiClient({
        transport,
        scheduler: ts,
        qps: 0.001,
        burst: 1,
        requestTimeoutMs: 5_000,
      });
      client.create(PODS, { metadata: { name: 'first', namespace: 'ns' } }).subscribe({ error: () => {} });
      expectObservable(client.create(PODS, { metadata: { name: 'second', namespace: 'ns' } })).toBe(
        '5000ms #',
        undefined,
        new TimeoutError('create v1/pods ns/second', 5_000),
      );
    });
  });

  it('a write is retried only after a 429 that carries Retry-After', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [
        () => cold('(a|)', { a: status(429, { 'retry-after': '1' }) }),
        () => cold('(a|)', { a: ok({ metadata: { name: 'p' } }) }),
      ]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(
        client.create(PODS, { metadata: { name: 'p', namespace: 'ns' } }).pipe(map(() => 'c')),
      ).toBe('1000ms (c|)');
      ts.flush();
      expect(sent).toHaveLength(2);
    });
  });

  it('unsubscribing during a retry wait sends nothing more', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [
        () => cold('(a|)', { a: status(503, { 'retry-after': '10' }) }),
      ]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.list(PODS), '^ 5000ms !').toBe('');
      ts.flush();
      expect(sent).toHaveLength(1);
    });
  });
});
