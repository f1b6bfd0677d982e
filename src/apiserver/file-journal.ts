// The old --data-dir journal (JSON lines, fsynced per write): read once to migrate into SQLite, kept for that.
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Journal, JournalRecord } from './object-store.ts';

/** The journal's file name inside the data directory. */
export const JOURNAL_FILE = 'objects.jsonl';

/**
 * An append-only journal file. Invariant: `append` returns after the line is written and fsynced,
 * so an acknowledged write survives SIGKILL; a torn last line (a write never acknowledged) is
 * dropped on the next open.
 */
export class FileJournal implements Journal {
  readonly path: string;
  private fd: number | undefined;

  private constructor(path: string) {
    this.path = path;
    this.fd = openSync(path, 'a');
  }

  /**
   * Opens (creating) the journal in `dir` and returns it with the records it already holds.
   * @throws Error naming the file and line when a line other than the last is not valid JSON
   */
  static open(dir: string): { journal: FileJournal; records: JournalRecord[] } {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, JOURNAL_FILE);
    const records: JournalRecord[] = [];
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      let offset = 0;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        const isLast = i === lines.length - 1 || (i === lines.length - 2 && lines[lines.length - 1] === '');
        if (line === '') {
          offset += 1;
          continue;
        }
        try {
          records.push(JSON.parse(line) as JournalRecord);
        } catch (error) {
          if (isLast) {
            truncateSync(path, offset);
            break;
          }
          throw new Error(`${path}:${i + 1}: not a journal record`, { cause: error });
        }
        offset += Buffer.byteLength(line) + 1;
      }
    }
    return { journal: new FileJournal(path), records };
  }

  append(record: JournalRecord): void {
    if (this.fd === undefined) throw new Error(`${this.path}: journal is closed`);
    const {
      json: _json,
      prevJson: _prev,
      ...line
    } = record as JournalRecord & { json?: string; prevJson?: string };
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    fsyncSync(this.fd);
  }

  /**
   * Rewrites the journal as a snapshot (a RV line then one SNAPSHOT line per object), atomically.
   * @param records the snapshot's records
   */
  compact(records: Iterable<JournalRecord>): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      let buf = '';
      for (const r of records) {
        buf += `${JSON.stringify(r)}\n`;
        if (buf.length > 1 << 20) {
          writeSync(fd, buf);
          buf = '';
        }
      }
      writeSync(fd, buf);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (this.fd !== undefined) closeSync(this.fd);
    renameSync(tmp, this.path);
    this.fd = openSync(this.path, 'a');
  }

  close(): void {
    if (this.fd !== undefined) {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
