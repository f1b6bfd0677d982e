// Tests decodeWatchLines: marbles for the five questions, every split point, and a property over random chunkings.
import fc from 'fast-check';
import { from, of, take, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../operators/errors.ts';
import { decodeWatchLines, parseWatchLine } from '../../../streams/client-node/watch-decoder.ts';

const ts = () => new TestScheduler((a, b) => expect(a).toEqual(b));
const A = { type: 'ADDED', object: { metadata: { name: 'a' } } };
const D = { type: 'DELETED', object: { metadata: { name: 'a' } } };
const lineA = `${JSON.stringify(A)}\n`;
const lineD = `${JSON.stringify(D)}\n`;

describe('decodeWatchLines', () => {
  it('values: lines split across pieces (the doc diagram)', () => {
    ts().run(({ cold, expectObservable }) => {
      const src = cold('-x-y-z-|', {
        x: lineA.slice(0, 12),
        y: lineA.slice(12) + lineD.slice(0, 4),
        z: lineD.slice(4),
      });
      expectObservable(src.pipe(decodeWatchLines('v1/pods'))).toBe('---a-d-|', { a: A, d: D });
    });
  });

  it('error: a source error passes through; a bad line errors with InvalidInputError', () => {
    ts().run(({ cold, expectObservable }) => {
      expectObservable(cold('-x-#', { x: lineA }).pipe(decodeWatchLines('v1/pods'))).toBe('-a-#', { a: A });
      const bad = cold('-x-y-z|', { x: lineA, y: 'nope\n', z: lineD }).pipe(decodeWatchLines('v1/pods'));
      expectObservable(bad).toBe(
        '-a-#',
        { a: A },
        new InvalidInputError('watch v1/pods', 'line', 'not JSON: "nope"'),
      );
    });
  });

  it('empty: an empty source completes without events; blank lines are skipped', () => {
    ts().run(({ cold, expectObservable }) => {
      expectObservable(cold('--|').pipe(decodeWatchLines('v1/pods'))).toBe('--|');
      expectObservable(cold('-x|', { x: '\n\r\n \n' }).pipe(decodeWatchLines('v1/pods'))).toBe('--|');
    });
  });

  it('early unsubscribe unsubscribes the source', () => {
    ts().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-x-y-|', { x: lineA, y: lineD });
      expectObservable(src.pipe(decodeWatchLines('v1/pods')), '^--!').toBe('-a-', { a: A });
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('synchronous source then take: stops after the first event', () => {
    let out: unknown[] = [];
    of(lineA + lineD + lineA)
      .pipe(decodeWatchLines('v1/pods'), take(1), toArray())
      .subscribe((v) => {
        out = v;
      });
    expect(out).toEqual([A]);
  });

  it('parses a final line without a newline at completion', () => {
    let out: unknown[] = [];
    from([lineA, JSON.stringify(D)])
      .pipe(decodeWatchLines('v1/pods'), toArray())
      .subscribe((v) => {
        out = v;
      });
    expect(out).toEqual([A, D]);
  });

  it('reassembles at every split point', () => {
    const body = lineA + lineD + lineA;
    for (let at = 0; at <= body.length; at += 1) {
      let out: unknown[] = [];
      from([body.slice(0, at), body.slice(at)])
        .pipe(decodeWatchLines('v1/pods'), toArray())
        .subscribe((v) => {
          out = v;
        });
      expect(out).toEqual([A, D, A]);
    }
  });

  it('property: any chunking of any events decodes to the same events', () => {
    const event = fc.record({
      type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'),
      object: fc.record({
        metadata: fc.record({ name: fc.string({ minLength: 1 }), resourceVersion: fc.nat().map(String) }),
      }),
    });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (events, cuts) => {
          const body = events.map((e) => `${JSON.stringify(e)}\n`).join('');
          const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
          const pieces: string[] = [];
          let last = 0;
          for (const p of points) {
            pieces.push(body.slice(last, p));
            last = p;
          }
          pieces.push(body.slice(last));
          let out: unknown[] = [];
          from(pieces)
            .pipe(decodeWatchLines('r'), toArray())
            .subscribe((v) => {
              out = v;
            });
          expect(out).toEqual(events);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('parseWatchLine', () => {
  it.each([
    ['not JSON', '{"type":', /not JSON/, 'line'],
    ['not an object', '[1,2]', /not a watch event/, 'line'],
    ['unknown type', '{"type":"UPSERTED","object":{}}', /unknown watch event type "UPSERTED"/, 'type'],
    ['missing type', '{"object":{}}', /unknown watch event type undefined/, 'type'],
    ['no object', '{"type":"ADDED"}', /event has no object/, 'object'],
    ['object not an object', '{"type":"ADDED","object":"x"}', /event has no object/, 'object'],
  ])('rejects %s naming the field', (_name, line, message, field) => {
    expect(() => parseWatchLine(line, 'v1/pods')).toThrow(message);
    expect(() => parseWatchLine(line, 'v1/pods')).toThrow(
      expect.objectContaining({ field, input: 'watch v1/pods' }),
    );
  });

  it('truncates long lines in the message', () => {
    const line = `{"type":"ADDED","object":${'x'.repeat(5000)}`;
    try {
      parseWatchLine(line, 'v1/pods');
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(400);
      expect((error as Error).message).toContain(`${line.length} chars`);
    }
    expect.assertions(2);
  });
});
