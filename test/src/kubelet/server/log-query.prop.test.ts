// Property of parseLogQuery: any valid PodLogOptions written as a query parses back to itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LogQuery, parseLogQuery } from '../../../../src/kubelet/server/log-query.ts';
import { criLogTimestamp } from '../../../../streams/runtimes/cri-log.ts';

const validQuery: fc.Arbitrary<LogQuery> = fc
  .record(
    {
      follow: fc.boolean(),
      previous: fc.boolean(),
      timestamps: fc.boolean(),
      tailLines: fc.integer({ min: 0, max: 1_000_000 }),
      limitBytes: fc.integer({ min: 1, max: 2 ** 40 }),
      since: fc.oneof(
        fc.record({ sinceSeconds: fc.integer({ min: 1, max: 10 ** 9 }) }),
        // whole milliseconds, so the RFC3339 text holds the instant exactly
        fc.record({ sinceTime: fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }) }),
      ),
    },
    { requiredKeys: ['follow', 'previous', 'timestamps'] },
  )
  .map(({ since, ...rest }) => ({ ...rest, ...(since ?? {}) }));

function toQuery(q: LogQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(q)) {
    if (value === undefined) continue;
    params.set(key, key === 'sinceTime' ? criLogTimestamp(value as number) : String(value));
  }
  return params;
}

describe('parseLogQuery', () => {
  it('parses any valid query back to the options it was written from', () => {
    fc.assert(
      fc.property(validQuery, (q) => {
        expect(parseLogQuery(toQuery(q))).toEqual(q);
      }),
    );
  });
});
