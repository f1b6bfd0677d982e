// CRI log helpers: parsing lines (cases after the kubelet's logs tests), reading with tail/since/follow, output.
import { appendFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom, of, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../operators/errors.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import {
  type CriLogEntry,
  criLogOutput,
  criLogTimestamp,
  formatCriLogLine,
  parseCriLogLine,
  parseCriTimestamp,
  readCriLog,
} from '../../../streams/runtimes/cri-log.ts';
import { criLogWriter } from '../../../streams/runtimes/cri-log-writer.ts';
import { until } from '../../helpers/until.ts';

const T = '2016-10-20T18:39:20.57606443Z';
const T9 = '2016-10-20T18:39:20.576064430Z';

describe('parseCriLogLine', () => {
  it.each([
    [
      'a full stdout line',
      `${T} stdout F cri log content`,
      { stream: 'stdout', partial: false, content: 'cri log content' },
    ],
    [
      'a partial stderr line',
      `${T} stderr P cri log content`,
      { stream: 'stderr', partial: true, content: 'cri log content' },
    ],
    ['an empty full line', `${T} stderr F `, { stream: 'stderr', partial: false, content: '' }],
    ['a tag with no content', `${T} stdout F`, { stream: 'stdout', partial: false, content: '' }],
    [
      'the old format without a tag (full)',
      `${T} stderr cri log content`,
      { stream: 'stderr', partial: false, content: 'cri log content' },
    ],
    [
      'more tags after a colon',
      `${T} stdout P:x content`,
      { stream: 'stdout', partial: true, content: 'content' },
    ],
    [
      'content with spaces and a tag-like start',
      `${T} stdout F F  two spaces`,
      { stream: 'stdout', partial: false, content: 'F  two spaces' },
    ],
  ])('%s', (_name, line, expected) => {
    expect(parseCriLogLine(line)).toEqual({ timestamp: T, time: parseCriTimestamp(T), ...expected });
  });

  it.each([
    ['an empty line', '', 'timestamp'],
    ['a bad timestamp', 'yesterday stdout F x', 'timestamp'],
    ['no stream', `${T}`, 'timestamp'],
    ['a stream without content separator', `${T} stdout`, 'stream'],
    ['an unknown stream', `${T} stdin F x`, 'stream'],
  ])('%s is an InvalidInputError naming the field', (_name, line, field) => {
    const parsed = parseCriLogLine(line);
    expect(parsed).toBeInstanceOf(InvalidInputError);
    expect((parsed as InvalidInputError).field).toBe(field);
  });

  it('reads timestamps with any fraction and an offset', () => {
    expect(parseCriTimestamp('2016-10-20T18:39:20Z')).toBe(Date.UTC(2016, 9, 20, 18, 39, 20));
    expect(parseCriTimestamp('2016-10-20T20:39:20.5+02:00')).toBe(Date.UTC(2016, 9, 20, 18, 39, 20, 500));
    expect(parseCriTimestamp('2016-10-20T18:39:20.000000001Z')).toBeCloseTo(
      Date.UTC(2016, 9, 20, 18, 39, 20) + 1e-6,
      9,
    );
    expect(criLogTimestamp(BigInt(Date.UTC(2016, 9, 20, 18, 39, 20)) * 1_000_000n + 576_064_430n)).toBe(
      '2016-10-20T18:39:20.576064430Z',
    );
    expect(criLogTimestamp(Date.UTC(2016, 9, 20, 18, 39, 20, 576))).toBe('2016-10-20T18:39:20.576000000Z');
  });

  it('formatCriLogLine refuses content holding a line break', () => {
    expect(() => formatCriLogLine({ stream: 'stdout', partial: false, content: 'a\nb', time: 0 })).toThrow(
      InvalidInputError,
    );
  });
});

function logFile(
  lines: { stream?: 'stdout' | 'stderr'; partial?: boolean; content: string; time: number }[],
) {
  const path = join(mkdtempSync(join(tmpdir(), 'kube-rx-log-')), '0.log');
  writeFileSync(
    path,
    lines
      .map((l) =>
        formatCriLogLine({
          stream: l.stream ?? 'stdout',
          partial: l.partial ?? false,
          content: l.content,
          time: l.time,
        }),
      )
      .join(''),
  );
  return path;
}

const contents = (entries: CriLogEntry[]) => entries.map((e) => e.content);
const base = Date.UTC(2026, 0, 1);

describe('readCriLog', () => {
  const path = logFile([
    { content: 'one', time: base },
    { content: 'two', time: base + 1000, stream: 'stderr' },
    { content: 'thr', time: base + 2000, partial: true },
    { content: 'ee', time: base + 2001 },
    { content: 'four', time: base + 3000 },
  ]);
  const read = (options: Parameters<typeof readCriLog>[1]) =>
    lastValueFrom(readCriLog(path, options).pipe(toArray()));

  it.each([
    ['everything', {}, ['one', 'two', 'thr', 'ee', 'four']],
    ['the last 2 lines (partial lines count, as the kubelet counts them)', { tailLines: 2 }, ['ee', 'four']],
    ['tail 0', { tailLines: 0 }, []],
    ['a tail longer than the file', { tailLines: 50 }, ['one', 'two', 'thr', 'ee', 'four']],
    ['since a time in ms', { sinceTime: base + 1000 }, ['two', 'thr', 'ee', 'four']],
    ['since an RFC3339 time', { sinceTime: new Date(base + 2001).toISOString() }, ['ee', 'four']],
    ['stderr only', { stream: 'stderr' }, ['two']],
    ['tail then since', { tailLines: 3, sinceTime: base + 2001 }, ['ee', 'four']],
  ] as const)('%s', async (_name, options, expected) => {
    expect(contents(await read({ ...options }))).toEqual(expected);
  });

  it('sinceSeconds counts back from the scheduler clock', async () => {
    const clock = new VirtualClock();
    clock.advance(base + 3500);
    expect(contents(await read({ sinceSeconds: 2, scheduler: clock.scheduler }))).toEqual([
      'thr',
      'ee',
      'four',
    ]);
  });

  it('skips lines that do not parse and reports them; shows a last line not yet ended, except in a tail', async () => {
    const broken = logFile([{ content: 'good', time: base }]);
    appendFileSync(broken, 'garbage line\n');
    appendFileSync(
      broken,
      `${criLogTimestamp(base + 1)} stdout F later\n${criLogTimestamp(base + 2)} stdout F incompl`,
    );
    const bad: InvalidInputError[] = [];
    const entries = await lastValueFrom(
      readCriLog(broken, { onInvalidLine: (e) => bad.push(e) }).pipe(toArray()),
    );
    expect(contents(entries)).toEqual(['good', 'later', 'incompl']);
    expect(bad.map((e) => e.field)).toEqual(['timestamp']);
    expect(contents(await lastValueFrom(readCriLog(broken, { tailLines: 1 }).pipe(toArray())))).toEqual([
      'later',
    ]);
  });

  it('a missing file is an error on the stream', async () => {
    await expect(firstValueFrom(readCriLog('/no/such/kube-rx.log'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('follow emits lines appended later, a line written in two pieces once, and stops on unsubscribe', async () => {
    const followed = logFile([{ content: 'old', time: base }]);
    const seen: string[] = [];
    const sub = readCriLog(followed, { follow: true, tailLines: 1, pollIntervalMs: 20 }).subscribe((e) =>
      seen.push(e.content),
    );
    await until(() => seen.length === 1, 'the existing line');
    appendFileSync(
      followed,
      formatCriLogLine({ stream: 'stdout', partial: false, content: 'new', time: base + 1 }),
    );
    await until(() => seen.length === 2, 'the appended line');
    const split = formatCriLogLine({
      stream: 'stdout',
      partial: false,
      content: 'in two pieces',
      time: base + 2,
    });
    appendFileSync(followed, split.slice(0, 20));
    await new Promise((r) => setTimeout(r, 60));
    appendFileSync(followed, split.slice(20));
    await until(() => seen.length === 3, 'the line written in two pieces');
    sub.unsubscribe();
    appendFileSync(
      followed,
      formatCriLogLine({ stream: 'stdout', partial: false, content: 'after', time: base + 3 }),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['old', 'new', 'in two pieces']);
  });

  it('follow ends once the container is not running and everything written is read', async () => {
    const followed = logFile([{ content: 'first', time: base }]);
    let running = true;
    const done = lastValueFrom(
      readCriLog(followed, { follow: true, pollIntervalMs: 20, isRunning: () => running }).pipe(toArray()),
    );
    await new Promise((r) => setTimeout(r, 60));
    appendFileSync(
      followed,
      formatCriLogLine({ stream: 'stdout', partial: false, content: 'last', time: base + 1 }),
    );
    running = false;
    expect(contents(await done)).toEqual(['first', 'last']);
  });

  it('follow goes on with the new file after a rotation', async () => {
    const followed = logFile([{ content: 'before', time: base }]);
    const seen: string[] = [];
    const sub = readCriLog(followed, { follow: true, pollIntervalMs: 20 }).subscribe((e) =>
      seen.push(e.content),
    );
    await until(() => seen.length === 1, 'the first line');
    renameSync(followed, `${followed}.20260101-000000`);
    writeFileSync(
      followed,
      formatCriLogLine({ stream: 'stdout', partial: false, content: 'after', time: base + 1 }),
    );
    await until(() => seen.length === 2, 'the line of the new file');
    sub.unsubscribe();
    expect(seen).toEqual(['before', 'after']);
  });

  it('follow ends with its subscriber: take(n) completes it and releases the file', async () => {
    const followed = logFile([
      { content: 'a', time: base },
      { content: 'b', time: base + 1 },
    ]);
    const before = process
      .getActiveResourcesInfo()
      .filter((r) => r === 'FSEventWrap' || r === 'Timeout').length;
    const entries = await lastValueFrom(readCriLog(followed, { follow: true }).pipe(take(2), toArray()));
    expect(contents(entries)).toEqual(['a', 'b']);
    await new Promise((r) => setTimeout(r, 20));
    const after = process
      .getActiveResourcesInfo()
      .filter((r) => r === 'FSEventWrap' || r === 'Timeout').length;
    expect(after).toBeLessThanOrEqual(before);
  });
});

describe('criLogOutput', () => {
  const entries: CriLogEntry[] = [
    { timestamp: T, time: 0, stream: 'stdout', partial: true, content: 'hel' },
    { timestamp: T, time: 0, stream: 'stdout', partial: false, content: 'lo' },
    { timestamp: T, time: 0, stream: 'stderr', partial: false, content: 'wörld' },
  ];
  const render = (options: Parameters<typeof criLogOutput>[0]) =>
    lastValueFrom(of(...entries).pipe(criLogOutput(options), toArray())).then((b) =>
      Buffer.concat(b).toString(),
    );

  it.each([
    ['joins partial lines and ends full ones with a newline', {}, 'hello\nwörld\n'],
    ['prefixes timestamps, nine fraction digits', { timestamps: true }, `${T9} hel${T9} lo\n${T9} wörld\n`],
    ['stops at limitBytes', { limitBytes: 7 }, 'hello\nw'],
    ['limitBytes 0 gives nothing', { limitBytes: 0 }, ''],
  ] as const)('%s', async (_name, options, expected) => {
    expect(await render({ ...options })).toBe(expected);
  });
});

describe('criLogWriter', () => {
  it('writes full lines (CRLF as LF), cuts long ones at a UTF-8 boundary into partial lines, flushes the rest as partial', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'kube-rx-log-')), 'c', '0.log');
    let t = base;
    const writer = criLogWriter(path, { maxLineBytes: 8, now: () => t });
    writer.write('stdout', Buffer.from('short\nééééé'));
    writer.write('stderr', Buffer.from('err'));
    writer.write('stdout', Buffer.from('\r\nend'));
    t = base - 10; // a clock going backwards still gives increasing timestamps
    await writer.end();
    const entries = readFileSync(path, 'utf8').trimEnd().split('\n').map(parseCriLogLine) as CriLogEntry[];
    expect(entries.map((e) => [e.stream, e.partial ? 'P' : 'F', e.content])).toEqual([
      ['stdout', 'F', 'short'],
      ['stdout', 'P', 'éééé'],
      ['stdout', 'F', 'é'],
      ['stdout', 'P', 'end'],
      ['stderr', 'P', 'err'],
    ]);
    const times = entries.map((e) => e.timestamp);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
  });
});
