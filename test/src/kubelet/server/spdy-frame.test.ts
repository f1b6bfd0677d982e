// The SPDY/3.1 frame layout byte for byte (SPDY Protocol draft 3.1, section 2.6), and what a short frame gives.
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../../operators/errors.ts';
import {
  encodeSpdyFrame,
  GOAWAY_STATUS,
  RST_STATUS,
  type SpdyFrame,
  SpdyFrameReader,
} from '../../../../src/kubelet/server/spdy-frame.ts';

const hex = (b: Buffer) => b.toString('hex');

describe('encodeSpdyFrame', () => {
  it.each<[string, SpdyFrame, string]>([
    [
      'DATA with FIN',
      { type: 'DATA', streamId: 5, flags: 1, data: Buffer.from('hi') },
      '00000005' + '01000002' + '6869',
    ],
    [
      'SYN_STREAM: ids, priority in the top 3 bits, slot 0',
      {
        type: 'SYN_STREAM',
        streamId: 1,
        associatedId: 0,
        priority: 2,
        flags: 0,
        headerBlock: Buffer.of(0xaa),
      },
      '80030001' + '0000000b' + '00000001' + '00000000' + '4000' + 'aa',
    ],
    [
      'SYN_REPLY',
      { type: 'SYN_REPLY', streamId: 3, flags: 0, headerBlock: Buffer.of(1, 2) },
      '80030002' + '00000006' + '00000003' + '0102',
    ],
    [
      'RST_STREAM REFUSED_STREAM',
      { type: 'RST_STREAM', streamId: 7, status: RST_STATUS.refusedStream },
      '80030003' + '00000008' + '00000007' + '00000003',
    ],
    ['PING', { type: 'PING', id: 9 }, '80030006' + '00000004' + '00000009'],
    [
      'GOAWAY PROTOCOL_ERROR',
      { type: 'GOAWAY', lastGoodStreamId: 5, status: GOAWAY_STATUS.protocolError },
      '80030007' + '00000008' + '00000005' + '00000001',
    ],
    [
      'WINDOW_UPDATE',
      { type: 'WINDOW_UPDATE', streamId: 0, delta: 65536 },
      '80030009' + '00000008' + '00000000' + '00010000',
    ],
    [
      'SETTINGS with one entry (flags byte before the 24-bit id)',
      { type: 'SETTINGS', flags: 0, entries: [{ flags: 1, id: 7, value: 1024 }] },
      '80030004' + '0000000c' + '00000001' + '01000007' + '00000400',
    ],
  ])('%s', (_name, frame, expected) => {
    expect(hex(encodeSpdyFrame(frame))).toBe(expected);
  });

  it('refuses a stream id over 31 bits, naming the field', () => {
    expect(() => encodeSpdyFrame({ type: 'PING', id: 1 })).not.toThrow();
    expect(() => encodeSpdyFrame({ type: 'RST_STREAM', streamId: 2 ** 31, status: 1 })).toThrow(/streamId/);
  });
});

describe('SpdyFrameReader', () => {
  it('a control frame whose body is shorter than its type needs is an error naming the frame', () => {
    const short = Buffer.from('80030003' + '00000004' + '00000001', 'hex'); // RST_STREAM without a status
    const [out] = new SpdyFrameReader().push(short);
    expect(out).toBeInstanceOf(InvalidInputError);
    expect((out as InvalidInputError).message).toContain('RST_STREAM');
  });

  it('an unknown control type is passed on as UNKNOWN (skipped by the connection)', () => {
    const frame = Buffer.from('8003000a' + '00000002' + 'abcd', 'hex');
    expect(new SpdyFrameReader().push(frame)).toEqual([{ type: 'UNKNOWN', controlType: 10 }]);
  });

  it('the reserved high bit of stream ids is ignored on reading', () => {
    const data = Buffer.from('80000001' + '00000000', 'hex'); // would be a control frame: version 0
    expect(new SpdyFrameReader().push(data)[0]).toBeInstanceOf(InvalidInputError);
    const rst = Buffer.from('80030003' + '00000008' + '80000009' + '00000005', 'hex');
    expect(new SpdyFrameReader().push(rst)).toEqual([{ type: 'RST_STREAM', streamId: 9, status: 5 }]);
  });
});
