// Properties of the watch's response-head hedge: at most two requests, the first head wins whole, every other request is aborted when it arrives.
import fc from 'fast-check';
import { NEVER, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../operators/errors.ts';
import type { WatchEvent } from '../../../operators/types.ts';
import type { ResourceDescriptor } from '../../../streams/api-client.ts';
import type { HttpStreamPart, HttpTransport } from '../../../streams/client-node/http-transport.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { inVirtualTime } from './virtual-time.ts';

const PODS: ResourceDescriptor = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const REQUEST_TIMEOUT_MS = 20_000;

/** What one request does: its head at `at` (then one line naming it), an error at `at`, or nothing ever. */
type Fate = { kind: 'head' | 'error'; at: number } | { kind: 'never' };
const fate: fc.Arbitrary<Fate> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('head' as const, 'error' as const),
    at: fc.integer({ min: 0, max: 8000 }),
  }),
  fc.constant({ kind: 'never' as const }),
);

const added = (name: string): WatchEvent => ({
  type: 'ADDED',
  object: { kind: 'Pod', metadata: { name, namespace: 'ns', resourceVersion: '1' } },
});

/**
 * The naive model: request A at 0; B at `bound` when A has neither answered nor failed by then. Events are
 * taken in time order (A before B at the same time). The first head wins; before a head an error is passed
 * on only when no other request is waiting; nothing by the request timeout is a TimeoutError.
 */
type Who = 'A' | 'B';
type Outcome = { winner: Who; at: number } | { error: Who; at: number } | { timeout: true; at: number };

function model(a: Fate, b: Fate, bound: number): { hedged: boolean; outcome: Outcome } {
  const aAt = a.kind === 'never' ? Number.POSITIVE_INFINITY : a.at;
  const hedged = aAt > bound;
  const events: { who: Who; fate: Fate; at: number }[] = [{ who: 'A', fate: a, at: aAt }];
  if (hedged)
    events.push({
      who: 'B' as const,
      fate: b,
      at: b.kind === 'never' ? Number.POSITIVE_INFINITY : bound + b.at,
    });
  events.sort((x, y) => x.at - y.at); // stable: A first at the same time
  const waiting = new Set(events.map((e) => e.who));
  for (const e of events) {
    if (e.at >= REQUEST_TIMEOUT_MS) break;
    if (e.fate.kind === 'head') return { hedged, outcome: { winner: e.who, at: e.at } };
    waiting.delete(e.who);
    if (waiting.size === 0) return { hedged, outcome: { error: e.who, at: e.at } };
  }
  return { hedged, outcome: { timeout: true, at: REQUEST_TIMEOUT_MS } };
}

describe('kubeApiClient watch: hedge properties (virtual time)', () => {
  it('whatever the two requests do, the result is the model’s, and no request outlives the head that won', () => {
    fc.assert(
      fc.property(fate, fate, fc.integer({ min: 1, max: 5000 }), (a, b, bound) => {
        const expected = model(a, b, bound);
        inVirtualTime((ts, { cold, expectObservable, expectSubscriptions }) => {
          const answer = (f: Fate, name: string): ReturnType<typeof cold<HttpStreamPart>> => {
            if (f.kind === 'never') return cold<HttpStreamPart>('-');
            if (f.kind === 'error') return cold<HttpStreamPart>(`${f.at}ms #`, undefined, new Error(name));
            return cold<HttpStreamPart>(`${f.at}ms h t`, {
              h: { type: 'head', statusCode: 200, headers: {} },
              t: { type: 'text', text: `${JSON.stringify(added(name))}\n` },
            });
          };
          const streams = [answer(a, 'A'), answer(b, 'B')];
          const sentAt: number[] = [];
          const transport: HttpTransport = {
            request: () => NEVER,
            stream: () => {
              sentAt.push(ts.now());
              return streams[sentAt.length - 1] as Observable<HttpStreamPart>;
            },
          };
          const client = kubeApiClient({ transport, scheduler: ts, requestTimeoutMs: REQUEST_TIMEOUT_MS });
          const end = REQUEST_TIMEOUT_MS + 1000;
          const o = expected.outcome;
          const marble =
            'winner' in o ? `${o.at}ms - a` : 'error' in o ? `${o.at}ms #` : `${REQUEST_TIMEOUT_MS}ms #`;
          const error =
            'error' in o ? new Error(o.error) : new TimeoutError('watch v1/pods', REQUEST_TIMEOUT_MS);
          expectObservable(client.watch(PODS, { responseHeadHedgeMs: bound }), `^ ${end - 1}ms !`).toBe(
            marble,
            'winner' in o ? { a: added(o.winner) } : undefined,
            error,
          );
          // each request is aborted when another's head wins, when the watch fails, or at the final unsubscribe
          const until = (who: 'A' | 'B', own: number) => {
            if ('winner' in o) return o.winner === who ? end : Math.min(own, o.at);
            return Math.min(own, o.at);
          };
          const ownEnd = (f: Fate, sent: number) =>
            f.kind === 'error' ? sent + f.at : Number.POSITIVE_INFINITY;
          const subs = (from: number, to: number) =>
            to - from <= 0 ? `${from}ms (^!)` : `${from}ms ^ ${to - from - 1}ms !`;
          expectSubscriptions(streams[0]!.subscriptions).toBe(subs(0, until('A', ownEnd(a, 0))));
          expectSubscriptions(streams[1]!.subscriptions).toBe(
            expected.hedged ? subs(bound, until('B', ownEnd(b, bound))) : [],
          );
          ts.flush();
          expect(sentAt).toEqual(expected.hedged ? [0, bound] : [0]);
        });
      }),
      { numRuns: 300 },
    );
  });
});
