// Properties of the CRI log format: format → parse keeps every entry; writer → reader → output keeps every byte.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  criLogOutput,
  criLogTimestamp,
  formatCriLogLine,
  parseCriLogLine,
  parseCriTimestamp,
  readCriLog,
} from '../../../streams/runtimes/cri-log.ts';
import { criLogWriter } from '../../../streams/runtimes/cri-log-writer.ts';

/** Any unicode text without a line break (content of one entry). */
const lineContent = fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/\n/g, ''));
/** ns since the epoch, up to year 2100. */
const nanos = fc.bigInt({ min: 0n, max: 4_102_444_800_000n * 1_000_000n - 1n });

describe('CRI log format properties', () => {
  it('any entry, partial or full, with any unicode content survives format then parse', () => {
    fc.assert(
      fc.property(
        nanos,
        fc.constantFrom('stdout' as const, 'stderr' as const),
        fc.boolean(),
        lineContent,
        (ns, stream, partial, content) => {
          const timestamp = criLogTimestamp(ns);
          const line = formatCriLogLine({ timestamp, stream, partial, content });
          expect(line.endsWith('\n')).toBe(true);
          expect(line.slice(0, -1)).not.toContain('\n');
          expect(parseCriLogLine(line.slice(0, -1))).toEqual({
            timestamp,
            time: parseCriTimestamp(timestamp),
            stream,
            partial,
            content,
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('timestamps keep their order and their nanoseconds', () => {
    fc.assert(
      fc.property(nanos, nanos, (a, b) => {
        const [ta, tb] = [criLogTimestamp(a), criLogTimestamp(b)];
        expect(Math.sign(ta.localeCompare(tb))).toBe(a < b ? -1 : a > b ? 1 : 0);
        expect(BigInt(ta.slice(20, 29))).toBe(a % 1_000_000_000n);
      }),
    );
  });

  it('whatever a container writes, in any chunks, kubectl logs of each stream gives back the same bytes', async () => {
    const chunked = fc.array(
      fc.record({
        stream: fc.constantFrom('stdout' as const, 'stderr' as const),
        text: fc.string({ unit: 'grapheme', maxLength: 30 }),
      }),
      { maxLength: 20 },
    );
    await fc.assert(
      fc.asyncProperty(chunked, fc.integer({ min: 4, max: 24 }), async (chunks, maxLineBytes) => {
        const path = join(mkdtempSync(join(tmpdir(), 'kube-rx-prop-')), '0.log');
        const writer = criLogWriter(path, { maxLineBytes });
        for (const { stream, text } of chunks) writer.write(stream, Buffer.from(text));
        await writer.end();
        for (const stream of ['stdout', 'stderr'] as const) {
          const written = chunks
            .filter((c) => c.stream === stream)
            .map((c) => c.text)
            .join('');
          const out = await lastValueFrom(readCriLog(path, { stream }).pipe(criLogOutput(), toArray()));
          // Exactly what was written, but for CRLF line ends, which become LF as containerd writes them.
          expect(Buffer.concat(out).toString('utf8')).toBe(written.replace(/\r\n/g, '\n'));
        }
      }),
      { numRuns: 150 },
    );
  });
});
