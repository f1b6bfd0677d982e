// Properties of the SPDY/3.1 framing: any sequence of frames, cut into any chunks, comes back whole and in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../../operators/errors.ts';
import {
  encodeSpdyFrame,
  type SpdyFrame,
  SpdyFrameReader,
} from '../../../../src/kubelet/server/spdy-frame.ts';

const id = fc.integer({ min: 0, max: 0x7fffffff });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const bytes = fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b));

const frame: fc.Arbitrary<SpdyFrame> = fc.oneof(
  fc.record({
    type: fc.constant('DATA' as const),
    streamId: id,
    flags: fc.integer({ min: 0, max: 1 }),
    data: bytes,
  }),
  fc.record({
    type: fc.constant('SYN_STREAM' as const),
    streamId: id,
    associatedId: id,
    priority: fc.integer({ min: 0, max: 7 }),
    flags: fc.integer({ min: 0, max: 3 }),
    headerBlock: bytes,
  }),
  fc.record({
    type: fc.constant('SYN_REPLY' as const),
    streamId: id,
    flags: fc.integer({ min: 0, max: 1 }),
    headerBlock: bytes,
  }),
  fc.record({
    type: fc.constant('HEADERS' as const),
    streamId: id,
    flags: fc.integer({ min: 0, max: 1 }),
    headerBlock: bytes,
  }),
  fc.record({ type: fc.constant('RST_STREAM' as const), streamId: id, status: u32 }),
  fc.record({
    type: fc.constant('SETTINGS' as const),
    flags: fc.integer({ min: 0, max: 1 }),
    entries: fc.array(
      fc.record({
        flags: fc.integer({ min: 0, max: 3 }),
        id: fc.integer({ min: 0, max: 0xffffff }),
        value: u32,
      }),
      { maxLength: 5 },
    ),
  }),
  fc.record({ type: fc.constant('PING' as const), id: u32 }),
  fc.record({ type: fc.constant('GOAWAY' as const), lastGoodStreamId: id, status: u32 }),
  fc.record({ type: fc.constant('WINDOW_UPDATE' as const), streamId: id, delta: id }),
);

/** Cuts `buffer` at the given fractions (any number of chunks, empty ones included). */
function cut(buffer: Buffer, points: number[]): Buffer[] {
  const at = [...new Set(points.map((p) => Math.floor(p * buffer.length)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const to of at) {
    chunks.push(buffer.subarray(from, to));
    from = to;
  }
  chunks.push(buffer.subarray(from));
  return chunks;
}

describe('SPDY frames', () => {
  it('frames encoded back to back and fed in arbitrary chunks decode to the same frames, in order', () => {
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 12 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true })),
        (frames, points) => {
          const reader = new SpdyFrameReader();
          const out = cut(Buffer.concat(frames.map(encodeSpdyFrame)), points).flatMap((c) => reader.push(c));
          expect(out).toEqual(frames);
        },
      ),
    );
  });

  it('an incomplete frame waits for its remaining bytes and nothing comes out early', () => {
    fc.assert(
      fc.property(frame, (f) => {
        const encoded = encodeSpdyFrame(f);
        const reader = new SpdyFrameReader();
        expect(reader.push(encoded.subarray(0, encoded.length - 1))).toEqual([]);
        expect(reader.push(encoded.subarray(encoded.length - 1))).toEqual([f]);
      }),
    );
  });

  it('a control frame of another version is an error naming the version, and the next frame still decodes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0x7fff }).filter((v) => v !== 3),
        frame,
        (version, next) => {
          const ping = encodeSpdyFrame({ type: 'PING', id: 1 });
          ping.writeUInt16BE(0x8000 | version, 0);
          const out = new SpdyFrameReader().push(Buffer.concat([ping, encodeSpdyFrame(next)]));
          expect(out[0]).toBeInstanceOf(InvalidInputError);
          expect((out[0] as InvalidInputError).message).toContain(`unsupported SPDY version ${version}`);
          expect(out[1]).toEqual(next);
        },
      ),
    );
  });
});
