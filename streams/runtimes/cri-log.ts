// CRI container log files: format one line, parse lines back, and read a file as the kubelet's /containerLogs does.
import { watch as watchFile } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import {
  asyncScheduler,
  defer,
  EMPTY,
  map,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  takeWhile,
} from 'rxjs';
import { InvalidInputError } from '../../operators/errors.ts';

/**
 * The on-disk format the kubelet reads (`pkg/kubelet/kuberuntime/logs`), one entry per line:
 *
 * ```
 * 2026-11-24T21:49:10.123456789Z stdout F hello
 * 2026-11-24T21:49:10.123456790Z stderr P a long line cut in two, the first half
 * 2026-11-24T21:49:10.123456791Z stderr F and the second half
 * ```
 *
 * Invariants: `content` never contains `\n`; a `P` (partial) entry continues in the next entry of the
 * same stream; an `F` (full) entry ends a line, so the reader appends `\n` to it when it renders.
 */
export type CriLogStream = 'stdout' | 'stderr';

export interface CriLogEntry {
  /** The timestamp exactly as written (RFC3339Nano), kept for `timestamps=true` output. */
  timestamp: string;
  /** The same instant in ms since the epoch (sub-ms digits kept as a fraction). */
  time: number;
  stream: CriLogStream;
  /** `P` in the file: the line continues in the next entry. */
  partial: boolean;
  /** The bytes of the line (UTF-8), without the line break. */
  content: string;
}

/** containerd cuts log lines longer than this (bytes of content) into `P` entries. */
export const CRI_LOG_MAX_LINE_BYTES = 16 * 1024;

/**
 * An RFC3339Nano timestamp in UTC with nine fraction digits (containerd's fixed-width layout).
 * @param at ms since the epoch (a fraction gives sub-ms digits, to the ~0.25 µs a double holds), or
 *   a bigint of ns since the epoch for exact nanoseconds
 */
export function criLogTimestamp(at: number | bigint): string {
  const ns = typeof at === 'bigint' ? at : msToNanos(at);
  const whole = Number(ns / 1_000_000n);
  const nanos = Number(ns % 1_000_000_000n);
  const iso = new Date(whole).toISOString(); // 2026-11-24T21:49:10.123Z
  return `${iso.slice(0, 19)}.${String(nanos).padStart(9, '0')}Z`;
}

/** ms since the epoch (with a fraction) as integer ns. */
export function msToNanos(ms: number): bigint {
  const whole = Math.floor(ms);
  const sub = Math.min(999_999, Math.max(0, Math.round((ms - whole) * 1e6)));
  return BigInt(whole) * 1_000_000n + BigInt(sub);
}

/**
 * Parses an RFC3339 / RFC3339Nano timestamp (any number of fraction digits, `Z` or `±hh:mm`).
 * @returns ms since the epoch with sub-ms digits as a fraction, or `undefined` when it is not one
 */
export function parseCriTimestamp(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) return undefined;
  if (zone !== 'Z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    ms -= sign * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6))) * 60_000;
  }
  return ms + Number(frac.padEnd(9, '0')) / 1e6;
}

/**
 * Formats one entry as a line of the file, with its trailing `\n`.
 * @param entry `timestamp` may be omitted when `time` is given
 * @throws InvalidInputError when the content holds a line break (the writer splits lines, not this)
 */
export function formatCriLogLine(
  entry: Pick<CriLogEntry, 'stream' | 'partial' | 'content'> & { timestamp?: string; time?: number },
): string {
  if (entry.content.includes('\n')) {
    throw new InvalidInputError('CRI log entry', 'content', 'contains a line break; split it first');
  }
  const ts = entry.timestamp ?? criLogTimestamp(entry.time ?? Date.now());
  return `${ts} ${entry.stream} ${entry.partial ? 'P' : 'F'} ${entry.content}\n`;
}

/**
 * Parses one line of a CRI log file (without its `\n`). A line with no tag (the old CRI format) counts as
 * full, as the kubelet's parser does.
 * @returns the entry, or an InvalidInputError naming what is wrong (the reader logs and skips such lines)
 */
export function parseCriLogLine(line: string): CriLogEntry | InvalidInputError {
  const first = line.indexOf(' ');
  if (first < 0) return new InvalidInputError('CRI log line', 'timestamp', `no timestamp in ${quote(line)}`);
  const timestamp = line.slice(0, first);
  const time = parseCriTimestamp(timestamp);
  if (time === undefined) {
    return new InvalidInputError('CRI log line', 'timestamp', `${quote(timestamp)} is not RFC3339Nano`);
  }
  const second = line.indexOf(' ', first + 1);
  if (second < 0) return new InvalidInputError('CRI log line', 'stream', `no stream in ${quote(line)}`);
  const stream = line.slice(first + 1, second);
  if (stream !== 'stdout' && stream !== 'stderr') {
    return new InvalidInputError('CRI log line', 'stream', `unexpected stream type ${quote(stream)}`);
  }
  const rest = line.slice(second + 1);
  const tag = /^([PF](?::[^ ]*)?) /.exec(rest) ?? /^([PF])$/.exec(rest);
  if (!tag) return { timestamp, time, stream, partial: false, content: rest };
  return {
    timestamp,
    time,
    stream,
    partial: tag[1]!.split(':')[0] === 'P',
    content: rest.slice(tag[0].length),
  };
}

function quote(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}

/** What to read from a log file; the kubelet's `/containerLogs` query maps onto these. */
export interface ReadCriLogOptions {
  /** Only the last N lines of the file (`tailLines`); counted as raw lines, partial ones included, as the kubelet does. */
  tailLines?: number;
  /** Drop entries older than this (`sinceTime`): ms since the epoch or an RFC3339 string. */
  sinceTime?: number | string;
  /** Drop entries older than this many seconds before now (`sinceSeconds`); the later of the two wins. */
  sinceSeconds?: number;
  /** Only this stream; both by default. */
  stream?: CriLogStream;
  /** Keep reading appended lines until unsubscribed (`follow`). */
  follow?: boolean;
  /**
   * For `follow`: asked each time the reader is at the end of the file with nothing new; once it says
   * false (the container is not running any more) the stream completes, as the kubelet's follow does.
   * Without it, a follower runs until unsubscribed.
   */
  isRunning?: () => boolean | Promise<boolean>;
  /** How often a follower looks for appended data besides file-change notifications; default 250 ms. */
  pollIntervalMs?: number;
  /** Called with each line that does not parse; such lines are skipped. */
  onInvalidLine?: (error: InvalidInputError) => void;
  /** Time for `sinceSeconds` and the follow poll; default asyncScheduler. */
  scheduler?: SchedulerLike;
}

const READ_CHUNK = 64 * 1024;

/**
 * Reads a CRI log file as entries: the whole file, its last `tailLines`, from `sinceTime`/`sinceSeconds`,
 * and with `follow` every entry appended later (a line is emitted once its `\n` is written; without
 * `follow` a last line not yet ended is emitted too).
 *
 * ```
 * file:    [a][b][c]        append [d]     unsubscribe
 * tail 2:  ---b--c---------------d--------!
 * ```
 *
 * A follower that finds the file rotated (renamed away and a new file at `path`) goes on with the new
 * file from its start, as the kubelet's reader does; a file truncated in place is read again from the top.
 *
 * Teardown: unsubscribing closes the file, the watcher and the poll timer; a read in flight is dropped.
 * An unreadable file (e.g. missing) is an error on the stream.
 *
 * @param path absolute path of the log file
 * @returns a cold observable of entries; completes at end of file unless `follow`
 */
export function readCriLog(path: string, options: ReadCriLogOptions = {}): Observable<CriLogEntry> {
  const scheduler = options.scheduler ?? asyncScheduler;
  return new Observable<CriLogEntry>((subscriber) => {
    let closed = false;
    let handle: FileHandle | undefined;
    let offset = 0;
    let rest: Buffer = Buffer.alloc(0);
    let pump: Promise<void> = Promise.resolve();
    let pending = false;
    const since = sinceOf(options, scheduler.now());
    const stopWatching: (() => void)[] = [];

    // Without follow, a tail reads exactly that many lines (an unfinished last line is not one of them).
    let quota =
      !options.follow && options.tailLines !== undefined ? options.tailLines : Number.POSITIVE_INFINITY;
    const emitLine = (bytes: Buffer) => {
      if (quota <= 0) return;
      const parsed = parseCriLogLine(bytes.toString('utf8'));
      if (parsed instanceof InvalidInputError) {
        options.onInvalidLine?.(parsed);
        return;
      }
      quota--;
      if (since !== undefined && parsed.time < since) return;
      if (options.stream && parsed.stream !== options.stream) return;
      subscriber.next(parsed);
    };

    const readMore = async () => {
      if (!handle) return;
      const { size } = await handle.stat();
      if (size < offset) {
        // Truncated or replaced in place: start again from the top.
        offset = 0;
        rest = Buffer.alloc(0);
      }
      while (!closed && offset < size) {
        const buf = Buffer.alloc(Math.min(READ_CHUNK, size - offset));
        const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
        let data = rest.length
          ? Buffer.concat([rest, buf.subarray(0, bytesRead)])
          : buf.subarray(0, bytesRead);
        let nl = data.indexOf(10);
        while (nl >= 0 && !closed) {
          emitLine(data.subarray(0, nl));
          data = data.subarray(nl + 1);
          nl = data.indexOf(10);
        }
        rest = Buffer.from(data);
      }
      if (options.follow && !closed) {
        const current = await stat(path).catch(() => undefined);
        if (current && current.ino !== (await handle.stat()).ino) {
          // Rotated (renamed away, a new file in its place): go on with the new file from its start.
          await handle.close();
          handle = await open(path, 'r');
          offset = 0;
          rest = Buffer.alloc(0);
          await readMore();
        }
      }
    };

    const schedulePump = () => {
      if (closed || pending) return;
      pending = true;
      pump = pump
        .then(async () => {
          pending = false;
          if (closed) return;
          const before = offset;
          await readMore();
          if (closed || offset !== before || !options.isRunning) return;
          if (await options.isRunning()) return;
          // Not running any more: take what was written meanwhile, then end.
          await readMore();
          if (closed) return;
          closed = true;
          for (const stop of stopWatching) stop();
          subscriber.complete();
        })
        .catch((error: unknown) => {
          if (!closed) subscriber.error(error);
        });
    };

    const first = (async () => {
      handle = await open(path, 'r');
      if (closed) return;
      if (options.tailLines !== undefined) offset = await tailStart(handle, options.tailLines);
      await readMore();
    })();
    pump = first.catch(() => {});
    first
      .then(() => {
        if (closed) return;
        if (!options.follow) {
          // A last line without its newline is still shown, as the kubelet does when not following.
          if (rest.length) emitLine(rest);
          subscriber.complete();
          return;
        }
        try {
          const watcher = watchFile(path, () => schedulePump());
          watcher.on('error', () => {});
          stopWatching.push(() => watcher.close());
        } catch {
          // No file-change notifications here: the poll below still sees appended lines.
        }
        const every = options.pollIntervalMs ?? 250;
        const poll = scheduler.schedule(function tick() {
          schedulePump();
          this.schedule(undefined, every);
        }, every);
        stopWatching.push(() => poll.unsubscribe());
        schedulePump();
      })
      .catch((error: unknown) => {
        if (!closed) subscriber.error(error);
      });

    return () => {
      closed = true;
      for (const stop of stopWatching) stop();
      void pump.finally(async () => {
        const h = handle;
        handle = undefined;
        await h?.close().catch(() => {});
      });
    };
  });
}

function sinceOf(options: ReadCriLogOptions, now: number): number | undefined {
  const candidates: number[] = [];
  if (options.sinceTime !== undefined) {
    const t =
      typeof options.sinceTime === 'number' ? options.sinceTime : parseCriTimestamp(options.sinceTime);
    if (t === undefined) {
      throw new InvalidInputError(
        'log options',
        'sinceTime',
        `${quote(String(options.sinceTime))} is not RFC3339`,
      );
    }
    candidates.push(t);
  }
  if (options.sinceSeconds !== undefined) candidates.push(now - options.sinceSeconds * 1000);
  return candidates.length ? Math.max(...candidates) : undefined;
}

/**
 * The offset where the last `lines` complete lines of the file begin (0 when it has fewer). A last line
 * whose `\n` is not written yet is not counted: the reader emits it only once it is complete.
 */
async function tailStart(handle: FileHandle, lines: number): Promise<number> {
  const { size } = await handle.stat();
  if (lines <= 0) return size;
  let endFound = false;
  let found = 0;
  let position = size;
  while (position > 0) {
    const start = Math.max(0, position - READ_CHUNK);
    const buf = Buffer.alloc(position - start);
    await handle.read(buf, 0, buf.length, start);
    for (let i = buf.length - 1; i >= 0; i--) {
      if (buf[i] !== 10) continue;
      if (!endFound) {
        endFound = true; // the newline ending the last complete line
        continue;
      }
      found++;
      if (found === lines) return start + i + 1;
    }
    position = start;
  }
  return 0;
}

/** How entries become the bytes `kubectl logs` prints. */
export interface CriLogOutputOptions {
  /** Prefix each line with its timestamp and a space (`timestamps=true`). */
  timestamps?: boolean;
  /** Stop after this many bytes (`limitBytes`); the last chunk is cut to fit. */
  limitBytes?: number;
}

/**
 * Renders entries as the kubelet writes them to the client: the content, `\n` after a full entry, the
 * timestamp first when asked (with nine fraction digits); completes once `limitBytes` bytes have gone out.
 *
 * ```
 * entries:  --a(P)--b(F)--c(F)--|
 * output:   --"a"---"b\n"-"c\n"-|
 * ```
 */
export function criLogOutput(options: CriLogOutputOptions = {}): OperatorFunction<CriLogEntry, Buffer> {
  return (source) =>
    defer(() => {
      let left = options.limitBytes ?? Number.POSITIVE_INFINITY;
      if (left <= 0) return EMPTY;
      return source.pipe(
        map((entry) => {
          const stamp = options.timestamps ? `${fixedNanos(entry.timestamp)} ` : '';
          const text = `${stamp}${entry.content}${entry.partial ? '' : '\n'}`;
          let bytes = Buffer.from(text, 'utf8');
          if (bytes.length > left) bytes = bytes.subarray(0, left);
          left -= bytes.length;
          return bytes;
        }),
        takeWhile(() => left > 0, true),
      );
    });
}

/** The timestamp with exactly nine fraction digits (the kubelet's RFC3339NanoFixed output layout). */
function fixedNanos(timestamp: string): string {
  return timestamp.replace(
    /^([^.]*?:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/,
    (_m, head: string, frac = '', zone: string) => {
      return `${head}.${frac.padEnd(9, '0')}${zone}`;
    },
  );
}
