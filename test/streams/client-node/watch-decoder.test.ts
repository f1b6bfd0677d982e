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

/** The body cut into pieces at the given offsets (taken modulo its length + 1). */
function cutAt(body: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let last = 0;
  for (const p of points) {
    pieces.push(body.slice(last, p));
    last = p;
  }
  pieces.push(body.slice(last));
  return pieces;
}

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
          const pieces = cutAt(body, cuts);
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

/** The contract the batched decoder keeps: what parsing each non-blank line alone would give. */
function lineByLine(body: string): { events: unknown[]; error?: string } {
  const events: unknown[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    try {
      events.push(parseWatchLine(line, 'v1/pods'));
    } catch (error) {
      return { events, error: (error as Error).message };
    }
  }
  return { events };
}

function decodeAll(pieces: string[]): { events: unknown[]; error?: string } {
  const events: unknown[] = [];
  let error: string | undefined;
  from(pieces)
    .pipe(decodeWatchLines('v1/pods'))
    .subscribe({
      next: (e) => events.push(e),
      error: (e: Error) => {
        error = e.message;
      },
    });
  return error === undefined ? { events } : { events, error };
}

describe('decodeWatchLines: one JSON.parse per piece, the same result as line by line', () => {
  const B = { type: 'MODIFIED', object: { metadata: { name: 'b', resourceVersion: '7' } } };
  const lineB = `${JSON.stringify(B)}\n`;

  it.each([
    ['many events in one piece', lineA + lineB + lineD + lineB, [A, B, D, B], undefined],
    [
      'CRLF and blank lines between them',
      `${lineA}\r\n  \n${lineB.replace('\n', '\r\n')}\n${lineD}`,
      [A, B, D],
      undefined,
    ],
    [
      'a bad line in the middle: the events before it, then its error',
      `${lineA}${lineB}nope\n${lineD}`,
      [A, B],
      'not JSON: "nope"',
    ],
    ['JSON that is not a watch event', `${lineA}[1,2]\n${lineD}`, [A], 'not a watch event: "[1,2]"'],
    [
      'an unknown type',
      `${lineA}{"type":"UPSERTED","object":{}}\n`,
      [A],
      'unknown watch event type "UPSERTED"',
    ],
    ['an event without object', `${lineA}{"type":"ADDED"}\n${lineD}`, [A], 'event has no object'],
    [
      'two events on one line (one element too many)',
      `${lineA}${JSON.stringify(B)},${JSON.stringify(D)}\n`,
      [A],
      'not JSON',
    ],
    [
      'a line cut inside a string (the cut stays a line break)',
      `${lineA}{"type":"MODIFIED","object":{"metadata":{"name":"we\nb"}}}\n${lineD}`,
      [A],
      'not JSON',
    ],
    [
      'a line cut inside a string after two events on one line (the counts even out)',
      `${lineA}${JSON.stringify(B)},${JSON.stringify(D)}\n{"type":"MODIFIED","object":{"metadata":{"name":"we\nb"}}}\n`,
      [A],
      'not JSON',
    ],
    [
      'a line cut where a comma belongs (one element too few)',
      `${lineA}{"type":"MODIFIED"\n"object":{}}\n${lineD}`,
      [A],
      'not JSON',
    ],
  ])('%s', (_name, body, events, error) => {
    const got = decodeAll([body]);
    expect(got.events).toEqual(events);
    if (error === undefined) expect(got.error).toBeUndefined();
    else expect(got.error).toContain(error);
    expect(got).toEqual(lineByLine(body));
  });

  it('take(2) from a batch stops the source after the second event', () => {
    let out: unknown[] = [];
    of(lineA + lineB + lineD + lineB)
      .pipe(decodeWatchLines('v1/pods'), take(2), toArray())
      .subscribe((v) => {
        out = v;
      });
    expect(out).toEqual([A, B]);
  });

  it('property: any body of events, blank lines and garbage, in any chunking, decodes as line by line', () => {
    const event = fc
      .record({
        type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'),
        object: fc.record({
          metadata: fc.record({ name: fc.string(), resourceVersion: fc.nat().map(String) }),
        }),
      })
      .map((e) => JSON.stringify(e));
    // garbage without commas: with one, a line can hold two JSON values and make up for a cut elsewhere
    const garbage = fc.oneof(
      fc.string().map((g) => g.replace(/[\n,]/g, '')),
      // an event cut before its first comma
      fc.tuple(event, fc.nat()).map(([e, n]) => e.slice(0, n % e.indexOf(','))),
      fc.constantFrom(
        'nope',
        '[1]',
        '"x"',
        'null',
        '{"type":"ADDED"}',
        '{"type":"UPSERTED","object":{}}',
        '{',
        '}',
      ),
    );
    const line = fc.oneof(
      { weight: 6, arbitrary: event },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', '\r') },
      { weight: 1, arbitrary: garbage },
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), (lines, cuts) => {
        const body = lines.map((l) => `${l}\n`).join('');
        expect(decodeAll(cutAt(body, cuts))).toEqual(lineByLine(body));
      }),
      { numRuns: 300 },
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
