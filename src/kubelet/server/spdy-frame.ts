// SPDY/3.1 frames: the binary layout kubectl's port forwarding speaks (control frames and data frames), encoded and split from a byte stream.
import { InvalidInputError } from '../../../operators/errors.ts';

/** The SPDY version in every control frame this server reads and writes. */
export const SPDY_VERSION = 3;

/** Control frame types (SPDY/3 section 2.6). */
export const SPDY_TYPE = {
  synStream: 1,
  synReply: 2,
  rstStream: 3,
  settings: 4,
  ping: 6,
  goAway: 7,
  headers: 8,
  windowUpdate: 9,
} as const;

/** Frame flags: FIN ends the sender's half of a stream; UNIDIRECTIONAL (SYN_STREAM) forbids replies' data. */
export const SPDY_FLAG = { fin: 0x01, unidirectional: 0x02 } as const;

/** RST_STREAM status codes. */
export const RST_STATUS = {
  protocolError: 1,
  invalidStream: 2,
  refusedStream: 3,
  unsupportedVersion: 4,
  cancel: 5,
  internalError: 6,
  streamAlreadyClosed: 9,
} as const;

/** GOAWAY status codes. */
export const GOAWAY_STATUS = { ok: 0, protocolError: 1, internalError: 2 } as const;

/**
 * One frame. Invariants: stream ids are 31-bit, lengths 24-bit; `headerBlock` is the compressed
 * name/value block as it travels (see spdy-header-block.ts), never the decoded headers.
 */
export type SpdyFrame =
  | { type: 'DATA'; streamId: number; flags: number; data: Buffer }
  | {
      type: 'SYN_STREAM';
      streamId: number;
      associatedId: number;
      priority: number;
      flags: number;
      headerBlock: Buffer;
    }
  | { type: 'SYN_REPLY'; streamId: number; flags: number; headerBlock: Buffer }
  | { type: 'HEADERS'; streamId: number; flags: number; headerBlock: Buffer }
  | { type: 'RST_STREAM'; streamId: number; status: number }
  | { type: 'SETTINGS'; flags: number; entries: { flags: number; id: number; value: number }[] }
  | { type: 'PING'; id: number }
  | { type: 'GOAWAY'; lastGoodStreamId: number; status: number }
  | { type: 'WINDOW_UPDATE'; streamId: number; delta: number }
  /** A control frame of a type this server does not know: skipped, as the protocol asks. */
  | { type: 'UNKNOWN'; controlType: number };

const MAX_LENGTH = 0xffffff;
const ID_MASK = 0x7fffffff;

function control(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(body.length, 4);
  head.writeUInt8(flags, 4);
  return Buffer.concat([head, body]);
}

function words(...values: number[]): Buffer {
  const out = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => {
    out.writeUInt32BE(v >>> 0, 4 * i);
  });
  return out;
}

/**
 * The bytes of one frame.
 * @throws InvalidInputError when a length or id does not fit its field (a programming error)
 */
export function encodeSpdyFrame(frame: SpdyFrame): Buffer {
  if ('streamId' in frame && (frame.streamId < 0 || frame.streamId > ID_MASK)) {
    throw new InvalidInputError('SPDY frame', 'streamId', `must fit in 31 bits, got ${frame.streamId}`);
  }
  switch (frame.type) {
    case 'DATA': {
      if (frame.data.length > MAX_LENGTH) {
        throw new InvalidInputError('SPDY frame', 'data', `is ${frame.data.length} bytes, over 16 MiB`);
      }
      const head = words(frame.streamId & ID_MASK, frame.data.length);
      head.writeUInt8(frame.flags, 4);
      return Buffer.concat([head, frame.data]);
    }
    case 'SYN_STREAM': {
      const fixed = Buffer.concat([
        words(frame.streamId, frame.associatedId),
        Buffer.of(frame.priority << 5, 0),
      ]);
      return control(SPDY_TYPE.synStream, frame.flags, Buffer.concat([fixed, frame.headerBlock]));
    }
    case 'SYN_REPLY':
      return control(
        SPDY_TYPE.synReply,
        frame.flags,
        Buffer.concat([words(frame.streamId), frame.headerBlock]),
      );
    case 'HEADERS':
      return control(
        SPDY_TYPE.headers,
        frame.flags,
        Buffer.concat([words(frame.streamId), frame.headerBlock]),
      );
    case 'RST_STREAM':
      return control(SPDY_TYPE.rstStream, 0, words(frame.streamId, frame.status));
    case 'SETTINGS': {
      const body = Buffer.alloc(4 + 8 * frame.entries.length);
      body.writeUInt32BE(frame.entries.length, 0);
      frame.entries.forEach((e, i) => {
        body.writeUInt32BE(e.id & 0xffffff, 4 + 8 * i);
        body.writeUInt8(e.flags, 4 + 8 * i);
        body.writeUInt32BE(e.value >>> 0, 8 + 8 * i);
      });
      return control(SPDY_TYPE.settings, frame.flags, body);
    }
    case 'PING':
      return control(SPDY_TYPE.ping, 0, words(frame.id));
    case 'GOAWAY':
      return control(SPDY_TYPE.goAway, 0, words(frame.lastGoodStreamId, frame.status));
    case 'WINDOW_UPDATE':
      return control(SPDY_TYPE.windowUpdate, 0, words(frame.streamId, frame.delta));
    case 'UNKNOWN':
      return control(frame.controlType, 0, Buffer.alloc(0));
  }
}

function decodeControl(type: number, flags: number, body: Buffer): SpdyFrame | InvalidInputError {
  const need = (n: number, name: string) =>
    body.length < n
      ? new InvalidInputError('SPDY frame', name, `needs ${n} bytes, got ${body.length}`)
      : undefined;
  switch (type) {
    case SPDY_TYPE.synStream:
      return (
        need(10, 'SYN_STREAM') ?? {
          type: 'SYN_STREAM',
          streamId: body.readUInt32BE(0) & ID_MASK,
          associatedId: body.readUInt32BE(4) & ID_MASK,
          priority: body.readUInt8(8) >> 5,
          flags,
          headerBlock: body.subarray(10),
        }
      );
    case SPDY_TYPE.synReply:
    case SPDY_TYPE.headers:
      return (
        need(4, type === SPDY_TYPE.synReply ? 'SYN_REPLY' : 'HEADERS') ?? {
          type: type === SPDY_TYPE.synReply ? 'SYN_REPLY' : 'HEADERS',
          streamId: body.readUInt32BE(0) & ID_MASK,
          flags,
          headerBlock: body.subarray(4),
        }
      );
    case SPDY_TYPE.rstStream:
      return (
        need(8, 'RST_STREAM') ?? {
          type: 'RST_STREAM',
          streamId: body.readUInt32BE(0) & ID_MASK,
          status: body.readUInt32BE(4),
        }
      );
    case SPDY_TYPE.settings: {
      const short = need(4, 'SETTINGS');
      if (short) return short;
      const count = body.readUInt32BE(0);
      const tooShort = need(4 + 8 * count, 'SETTINGS');
      if (tooShort) return tooShort;
      const entries = Array.from({ length: count }, (_, i) => ({
        flags: body.readUInt8(4 + 8 * i),
        id: body.readUInt32BE(4 + 8 * i) & 0xffffff,
        value: body.readUInt32BE(8 + 8 * i),
      }));
      return { type: 'SETTINGS', flags, entries };
    }
    case SPDY_TYPE.ping:
      return need(4, 'PING') ?? { type: 'PING', id: body.readUInt32BE(0) };
    case SPDY_TYPE.goAway:
      return (
        need(4, 'GOAWAY') ?? {
          type: 'GOAWAY',
          lastGoodStreamId: body.readUInt32BE(0) & ID_MASK,
          status: body.length >= 8 ? body.readUInt32BE(4) : GOAWAY_STATUS.ok,
        }
      );
    case SPDY_TYPE.windowUpdate:
      return (
        need(8, 'WINDOW_UPDATE') ?? {
          type: 'WINDOW_UPDATE',
          streamId: body.readUInt32BE(0) & ID_MASK,
          delta: body.readUInt32BE(4) & ID_MASK,
        }
      );
    default:
      return { type: 'UNKNOWN', controlType: type };
  }
}

/**
 * Splits a byte stream into frames. Bytes are pushed as they arrive (any chunking); each complete frame
 * comes out once, in order; an incomplete tail waits for more. A control frame of another SPDY version
 * or a malformed body comes out as an InvalidInputError naming the frame, after which the connection
 * should go away: the reader keeps no state that could resynchronise.
 */
export class SpdyFrameReader {
  private pending: Buffer = Buffer.alloc(0);

  /** Appends `bytes` and returns every frame now complete. */
  push(bytes: Buffer): (SpdyFrame | InvalidInputError)[] {
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    const out: (SpdyFrame | InvalidInputError)[] = [];
    while (this.pending.length >= 8) {
      const length = this.pending.readUInt32BE(4) & 0xffffff;
      if (this.pending.length < 8 + length) break;
      const first = this.pending.readUInt32BE(0);
      const flags = this.pending.readUInt8(4);
      const body = this.pending.subarray(8, 8 + length);
      this.pending = this.pending.subarray(8 + length);
      if ((first & 0x80000000) === 0) {
        out.push({ type: 'DATA', streamId: first & ID_MASK, flags, data: Buffer.from(body) });
        continue;
      }
      const version = (first >>> 16) & 0x7fff;
      if (version !== SPDY_VERSION) {
        out.push(new InvalidInputError('SPDY frame', 'version', `unsupported SPDY version ${version}`));
        continue;
      }
      out.push(decodeControl(first & 0xffff, flags, Buffer.from(body)));
    }
    return out;
  }
}
