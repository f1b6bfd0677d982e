// Writes a container's stdout and stderr to a CRI log file, splitting bytes into full and partial lines.
import { createWriteStream, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { CRI_LOG_MAX_LINE_BYTES, type CriLogStream, criLogTimestamp, msToNanos } from './cri-log.ts';

/** A log file being written; feed it raw output chunks, then `end()` once the streams have closed. */
export interface CriLogWriter {
  write(stream: CriLogStream, chunk: Buffer): void;
  /** Flushes what is left of each stream (as a partial line: it had no newline, as containerd writes it) and closes. */
  end(): Promise<void>;
}

export interface CriLogWriterConfig {
  /** ms since the epoch with a sub-ms fraction; default `performance.timeOrigin + performance.now()`. */
  now?: () => number;
  /** Longest line content before it is cut into `P` entries; default 16 KiB like containerd. */
  maxLineBytes?: number;
}

/**
 * Opens (appending, creating its directory) a CRI log file at `path`.
 *
 * Output is buffered per stream until a `\n`: each complete line becomes an `F` entry (a `\r` just
 * before the `\n` is dropped, as containerd does), a line longer than `maxLineBytes` is cut into `P`
 * entries (never inside a UTF-8 sequence, where containerd cuts at the byte), and what is left when the
 * writer ends, having no newline, is written as a `P` entry, so a reader gives back the exact bytes.
 */
export function criLogWriter(path: string, config: CriLogWriterConfig = {}): CriLogWriter {
  const now = config.now ?? (() => performance.timeOrigin + performance.now());
  const max = Math.max(4, config.maxLineBytes ?? CRI_LOG_MAX_LINE_BYTES);
  mkdirSync(dirname(path), { recursive: true });
  // Opened synchronously so the file exists as soon as the container starts (a reader may come at once).
  const out = createWriteStream(path, { fd: openSync(path, 'a') });
  out.on('error', () => {});
  const pending: Record<CriLogStream, Buffer> = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  let last = 0n;
  let ended: Promise<void> | undefined;

  const entry = (stream: CriLogStream, tag: 'F' | 'P', content: Buffer) => {
    // Strictly increasing timestamps keep the order of lines visible to `--since` and `--timestamps`.
    let t = msToNanos(now());
    if (t <= last) t = last + 1n;
    last = t;
    out.write(Buffer.concat([Buffer.from(`${criLogTimestamp(t)} ${stream} ${tag} `), content, NEWLINE]));
  };

  return {
    write(stream, chunk) {
      if (ended) return;
      let data = pending[stream].length ? Buffer.concat([pending[stream], chunk]) : chunk;
      for (;;) {
        const nl = data.indexOf(10);
        if (nl >= 0 && nl <= max) {
          entry(stream, 'F', data.subarray(0, nl > 0 && data[nl - 1] === 13 ? nl - 1 : nl));
          data = data.subarray(nl + 1);
          continue;
        }
        if (data.length > max) {
          const cut = utf8Boundary(data, max);
          entry(stream, 'P', data.subarray(0, cut));
          data = data.subarray(cut);
          continue;
        }
        break;
      }
      pending[stream] = Buffer.from(data);
    },
    end() {
      ended ??= new Promise<void>((resolve) => {
        for (const stream of ['stdout', 'stderr'] as const) {
          if (pending[stream].length) entry(stream, 'P', pending[stream]);
          pending[stream] = Buffer.alloc(0);
        }
        out.end(() => resolve());
        out.once('error', () => resolve());
      });
      return ended;
    },
  };
}

const NEWLINE = Buffer.from('\n');

/** The largest cut ≤ `max` that does not split a UTF-8 sequence (falls back to `max` for binary data). */
function utf8Boundary(data: Buffer, max: number): number {
  let cut = max;
  // Walk back over continuation bytes (10xxxxxx) to the start of the sequence that straddles the cut.
  while (cut > max - 4 && cut > 0 && (data[cut]! & 0xc0) === 0x80) cut--;
  return cut > 0 && cut > max - 4 ? cut : max;
}
