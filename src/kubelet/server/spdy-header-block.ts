// SPDY/3 header blocks: name/value pairs, zlib-compressed with the SPDY dictionary in one stream per direction.
import { constants, createInflate, type Inflate } from 'node:zlib';
import { InvalidInputError } from '../../../operators/errors.ts';
import { SPDY3_HEADER_DICTIONARY } from './spdy-header-dictionary.ts';

/** Header names (lower case, as SPDY requires) to values; several values of one name are joined by NUL. */
export type SpdyHeaders = Record<string, string>;

/** The uncompressed block: a pair count, then each name and value with a 4-byte length before it. */
export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const parts: Buffer[] = [];
  const count = Buffer.alloc(4);
  const entries = Object.entries(headers);
  count.writeUInt32BE(entries.length, 0);
  parts.push(count);
  for (const [name, value] of entries) {
    for (const text of [name.toLowerCase(), value]) {
      const bytes = Buffer.from(text, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length, 0);
      parts.push(length, bytes);
    }
  }
  return Buffer.concat(parts);
}

/**
 * Reads an uncompressed block.
 * @returns the headers (names lower-cased), or an error naming what was short or repeated
 */
export function decodeHeaderBlock(block: Buffer): SpdyHeaders | InvalidInputError {
  const bad = (reason: string) => new InvalidInputError('SPDY header block', 'headers', reason);
  if (block.length < 4) return bad(`needs a 4-byte pair count, got ${block.length} bytes`);
  const count = block.readUInt32BE(0);
  let at = 4;
  const read = (): string | undefined => {
    if (block.length < at + 4) return undefined;
    const length = block.readUInt32BE(at);
    if (block.length < at + 4 + length) return undefined;
    const text = block.subarray(at + 4, at + 4 + length).toString('utf8');
    at += 4 + length;
    return text;
  };
  const headers: SpdyHeaders = {};
  for (let i = 0; i < count; i++) {
    const name = read();
    const value = read();
    if (name === undefined || value === undefined) return bad(`ends inside pair ${i + 1} of ${count}`);
    const key = name.toLowerCase();
    if (key === '') return bad(`pair ${i + 1} has an empty name`);
    if (key in headers) return bad(`repeats the name "${key}"`);
    headers[key] = value;
  }
  return headers;
}

/** The zlib stream header: deflate, 32 KiB window, no preset dictionary needed, check bits valid. */
const ZLIB_HEADER = Buffer.of(0x78, 0x01);
const MAX_STORED = 0xffff;
const SYNC_FLUSH_MARKER = Buffer.of(0x00, 0x00, 0x00, 0xff, 0xff);

/**
 * The sending half: each block becomes stored (uncompressed) deflate blocks of one zlib stream that
 * lasts as long as the connection, closed by a sync-flush marker, so any SPDY peer's inflater (with
 * or without the dictionary) reads it. Stored blocks cost a few bytes per frame and need no asynchronous zlib call, so frames
 * keep their order without a queue.
 */
export class HeaderDeflater {
  private started = false;

  /** The bytes to put in the next frame's header block field. */
  deflate(headers: SpdyHeaders): Buffer {
    const raw = encodeHeaderBlock(headers);
    const parts: Buffer[] = [];
    if (!this.started) {
      parts.push(ZLIB_HEADER);
      this.started = true;
    }
    let at = 0;
    do {
      const chunk = raw.subarray(at, at + MAX_STORED);
      const head = Buffer.alloc(5);
      head.writeUInt8(0, 0); // BFINAL 0, BTYPE 00: a stored block, more to come
      head.writeUInt16LE(chunk.length, 1);
      head.writeUInt16LE(~chunk.length & 0xffff, 3);
      parts.push(head, chunk);
      at += MAX_STORED;
    } while (at < raw.length);
    // an empty stored block, as zlib's Z_SYNC_FLUSH writes: inflaters (Go's among them) hand out
    // what they hold only when they meet it, and it ends the frame's bytes on a block boundary
    parts.push(SYNC_FLUSH_MARKER);
    return Buffer.concat(parts);
  }
}

/**
 * The receiving half: one zlib inflater with the SPDY dictionary for the connection's whole life, fed
 * each frame's block in arrival order (callers must not start the next before the last settled).
 */
export class HeaderInflater {
  private readonly inflater: Inflate = createInflate({ dictionary: SPDY3_HEADER_DICTIONARY });
  private failure: Error | undefined;
  private output: Buffer[] = [];

  constructor() {
    this.inflater.on('error', (error: Error) => {
      this.failure = error;
    });
    // flowing, so a large block never stalls zlib on a full read buffer
    this.inflater.on('data', (chunk: Buffer) => this.output.push(chunk));
  }

  /** The headers of one compressed block, or an error naming the block (a broken zlib stream stays broken). */
  async inflate(compressed: Buffer): Promise<SpdyHeaders | InvalidInputError> {
    const bad = (reason: string) => new InvalidInputError('SPDY header block', 'compression', reason);
    if (this.failure) return bad(this.failure.message);
    const raw = await new Promise<Buffer | Error>((resolve) => {
      const onError = (error: Error) => resolve(error);
      this.inflater.once('error', onError);
      this.inflater.write(compressed);
      this.inflater.flush(constants.Z_SYNC_FLUSH, () => {
        // output a busy stream buffered rather than emitted is handed out on a later tick: take it
        // after those ticks (a block read as empty under load failed a test with "got 0 bytes")
        setImmediate(() => {
          this.inflater.off('error', onError);
          const out = Buffer.concat(this.output);
          this.output = [];
          resolve(out);
        });
      });
    });
    if (raw instanceof Error) return bad(raw.message);
    return decodeHeaderBlock(raw);
  }

  /** Releases zlib's memory. */
  close(): void {
    this.inflater.destroy();
  }
}
