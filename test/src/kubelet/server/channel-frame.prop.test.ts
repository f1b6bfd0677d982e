// Properties of the channel.k8s.io framing: every frame decodes to the channel and bytes it was made from.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../../operators/errors.ts';
import {
  CHANNEL,
  decodeChannelFrame,
  encodeChannelFrame,
} from '../../../../src/kubelet/server/channel-frame.ts';

describe('channel frames', () => {
  it('decode(encode(channel, data)) gives back the channel and the data', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 512 }), (channel, data) => {
        const encoded = encodeChannelFrame(channel, data);
        expect(encoded.length).toBe(data.length + 1);
        const decoded = decodeChannelFrame(encoded);
        expect(decoded).not.toBeInstanceOf(InvalidInputError);
        if (decoded instanceof InvalidInputError) return;
        expect(decoded.channel).toBe(channel);
        expect(Buffer.compare(decoded.data, Buffer.from(data))).toBe(0);
      }),
    );
  });

  it('a frame sliced out of a larger buffer decodes from its own bytes only', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.integer({ min: 0, max: 255 }),
        fc.string(),
        fc.uint8Array({ maxLength: 64 }),
        (before, channel, text, after) => {
          const frame = encodeChannelFrame(channel, text);
          const whole = Buffer.concat([before, frame, after]);
          const view = whole.subarray(before.length, before.length + frame.length);
          const decoded = decodeChannelFrame(view);
          if (decoded instanceof InvalidInputError) throw decoded;
          expect(decoded.channel).toBe(channel);
          expect(decoded.data.toString('utf8')).toBe(Buffer.from(text, 'utf8').toString('utf8'));
        },
      ),
    );
  });

  it('the first byte is the channel: stdout 1, stderr 2, error 3, v5 close 255 naming stdin', () => {
    expect([...encodeChannelFrame(CHANNEL.stdout, 'hi')]).toEqual([1, 104, 105]);
    expect([...encodeChannelFrame(CHANNEL.stderr, '')]).toEqual([2]);
    expect(encodeChannelFrame(CHANNEL.error, '{}')[0]).toBe(3);
    expect([...encodeChannelFrame(CHANNEL.close, Buffer.of(CHANNEL.stdin))]).toEqual([255, 0]);
  });

  it('an empty message has no channel: an InvalidInputError naming the message', () => {
    const decoded = decodeChannelFrame(new Uint8Array(0));
    expect(decoded).toBeInstanceOf(InvalidInputError);
    expect((decoded as InvalidInputError).field).toBe('message');
  });

  it.each([-1, 256, 1.5])('channel %s is refused naming the channel', (channel) => {
    expect(() => encodeChannelFrame(channel, 'x')).toThrow(/channel/);
  });
});
