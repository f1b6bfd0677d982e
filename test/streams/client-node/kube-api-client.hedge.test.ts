// Tests the watch's response-head hedge in virtual time over a scripted streaming transport: which request's head wins, what is aborted when.
import { NEVER, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../operators/errors.ts';
import type { WatchEvent } from '../../../operators/types.ts';
import type { ResourceDescriptor } from '../../../streams/api-client.ts';
import type {
  HttpRequestSpec,
  HttpStreamPart,
  HttpTransport,
} from '../../../streams/client-node/http-transport.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { inVirtualTime } from './virtual-time.ts';

const PODS: ResourceDescriptor = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const event = (name: string): WatchEvent => ({
  type: 'ADDED',
  object: { kind: 'Pod', metadata: { name, namespace: 'ns', resourceVersion: '5' } },
});
const line = (name: string) => `${JSON.stringify(event(name))}\n`;
/** Marble values of a streamed answer: `h` a 200 head, `e` a 429 head, `1`/`2` watch lines, `s` a Status body. */
const PARTS: Record<string, HttpStreamPart> = {
  h: { type: 'head', statusCode: 200, headers: {} },
  e: { type: 'head', statusCode: 429, headers: { 'retry-after': '1' } },
  1: { type: 'text', text: line('one') },
  2: { type: 'text', text: line('two') },
  s: {
    type: 'text',
    text: JSON.stringify({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'slow down' }),
  },
};

/** A transport whose n-th stream is the n-th scripted answer; it notes when each request was sent. */
function scripted(ts: TestScheduler, answers: Observable<HttpStreamPart>[]) {
  const sent: { at: number; spec: HttpRequestSpec }[] = [];
  const transport: HttpTransport = {
    request: () => NEVER,
    stream: (spec) => {
      sent.push({ at: ts.now(), spec });
      const next = answers[sent.length - 1];
      if (!next) throw new Error('no more scripted answers');
      return next;
    },
  };
  return { transport, sent };
}

const run = inVirtualTime;

describe('kubeApiClient watch: the response-head hedge (virtual time)', () => {
  it.each([
    {
      name: 'a head that never comes: the hedge is sent at the bound, its head wins, the first is aborted',
      first: '-',
      hedge: '10ms h 5ms 1',
      out: '1010ms - 5ms a',
      sentAt: [0, 1000],
      firstSubs: '^ 1009ms !',
      hedgeSubs: '1000ms ^ 2000ms !',
    },
    {
      name: 'a slow head within the bound is kept: no second request',
      first: '800ms h 1',
      hedge: '-',
      out: '800ms - a',
      sentAt: [0],
      firstSubs: '^ 3000ms !',
      hedgeSubs: [],
    },
    {
      name: 'the first head, late but before the hedge answers, wins: the hedge is aborted',
      first: '1200ms h 1',
      hedge: '-',
      out: '1200ms - a',
      sentAt: [0, 1000],
      firstSubs: '^ 3000ms !',
      hedgeSubs: '1000ms ^ 199ms !',
    },
    {
      name: 'the first connection drops after the hedge went out: the hedge carries on',
      first: '1500ms #',
      hedge: '700ms h 1',
      out: '1700ms - a',
      sentAt: [0, 1000],
      firstSubs: '^ 1499ms !',
      hedgeSubs: '1000ms ^ 2000ms !',
    },
  ])('$name', ({ first, hedge, out, sentAt, firstSubs, hedgeSubs }) => {
    run((ts, { cold, expectObservable, expectSubscriptions }) => {
      const a = cold(first, PARTS, new Error('reset'));
      const b = cold(hedge, PARTS);
      const { transport, sent } = scripted(ts, [a, b]);
      const client = kubeApiClient({ transport, scheduler: ts });
      const events$ = client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: 1000 });
      expectObservable(events$, '^ 3000ms !').toBe(out, { a: event('one') });
      ts.flush();
      expect(sent.map((s) => s.at)).toEqual(sentAt);
      expect(sent.every((s) => s.spec.path === sent[0]!.spec.path)).toBe(true);
      expectSubscriptions(a.subscriptions).toBe(firstSubs);
      expectSubscriptions(b.subscriptions).toBe(hedgeSubs);
    });
  });

  it('without the option a head that never comes waits for the request timeout, one request only (as before)', () => {
    run((ts, { expectObservable }) => {
      const { transport, sent } = scripted(ts, [NEVER]);
      const client = kubeApiClient({ transport, scheduler: ts, requestTimeoutMs: 5000 });
      expectObservable(client.watch(PODS, { namespace: 'ns' })).toBe(
        '5000ms #',
        undefined,
        new TimeoutError('watch v1/pods', 5000),
      );
      ts.flush();
      expect(sent).toHaveLength(1);
    });
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('a bound of %s sends no hedge', (bound) => {
    run((ts, { expectObservable }) => {
      const { transport, sent } = scripted(ts, [NEVER]);
      const client = kubeApiClient({ transport, scheduler: ts, requestTimeoutMs: 5000 });
      expectObservable(client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: bound })).toBe(
        '5000ms #',
        undefined,
        new TimeoutError('watch v1/pods', 5000),
      );
      ts.flush();
      expect(sent).toHaveLength(1);
    });
  });

  it('neither head before the request timeout: a TimeoutError, both requests aborted', () => {
    run((ts, { expectObservable, expectSubscriptions, cold }) => {
      const a = cold<HttpStreamPart>('-');
      const b = cold<HttpStreamPart>('-');
      const { transport } = scripted(ts, [a, b]);
      const client = kubeApiClient({ transport, scheduler: ts, requestTimeoutMs: 5000 });
      expectObservable(client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: 1000 })).toBe(
        '5000ms #',
        undefined,
        new TimeoutError('watch v1/pods', 5000),
      );
      expectSubscriptions(a.subscriptions).toBe('^ 4999ms !');
      expectSubscriptions(b.subscriptions).toBe('1000ms ^ 3999ms !');
    });
  });

  it('an error before the bound is passed on at once: no hedge', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport, sent } = scripted(ts, [cold('300ms #', undefined, new Error('refused'))]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: 1000 })).toBe(
        '300ms #',
        undefined,
        new Error('refused'),
      );
      ts.flush();
      expect(sent).toHaveLength(1);
    });
  });

  it('both requests fail before a head: the last error is passed on', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport } = scripted(ts, [
        cold('1500ms #', undefined, new Error('first')),
        cold('800ms #', undefined, new Error('second')),
      ]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: 1000 })).toBe(
        '1800ms #',
        undefined,
        new Error('second'),
      );
    });
  });

  it('the hedge answers with an error status: it wins, and the watch fails with its Status', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport } = scripted(ts, [cold('-'), cold('20ms e s|', PARTS)]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: 1000 })).toBe(
        '1022ms #',
        undefined,
        expect.objectContaining({ statusCode: 429, retryAfterSeconds: 1 }),
      );
    });
  });

  it('the winner’s events go on after its head, the loser’s never show', () => {
    run((ts, { cold, expectObservable }) => {
      const { transport } = scripted(ts, [cold('1100ms h 1 2|', PARTS), cold('50ms h 2', PARTS)]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: 1000 })).toBe(
        '1050ms - a',
        { a: event('two') },
      );
    });
  });

  it('unsubscribing before any head aborts both requests and the timers', () => {
    run((ts, { cold, expectObservable, expectSubscriptions }) => {
      const a = cold<HttpStreamPart>('-');
      const b = cold<HttpStreamPart>('-');
      const { transport, sent } = scripted(ts, [a, b]);
      const client = kubeApiClient({ transport, scheduler: ts });
      expectObservable(client.watch(PODS, { namespace: 'ns', responseHeadHedgeMs: 1000 }), '^ 1500ms !').toBe(
        '',
      );
      ts.flush();
      expectSubscriptions(a.subscriptions).toBe('^ 1500ms !');
      expectSubscriptions(b.subscriptions).toBe('1000ms ^ 500ms !');
      expect(sent).toHaveLength(2);
    });
  });
});
