// The channel.k8s.io WebSocket framing (v4 and v5): one binary message per write, its first byte naming the stream.
import { InvalidInputError } from '../../../operators/errors.ts';

/** The subprotocols this server speaks, preferred first (SPDY is not served). */
export const EXEC_SUBPROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

/** Stream numbers: the first byte of every binary message. */
export const CHANNEL = {
  stdin: 0,
  stdout: 1,
  stderr: 2,
  /** The command's outcome, a metav1 Status JSON, written once before the connection closes. */
  error: 3,
  /** Terminal size changes from the client: `{"Width":80,"Height":24}`. */
  resize: 4,
  /** v5 only: the payload's one byte names a stream the sender has closed (stdin EOF). */
  close: 255,
} as const;

/** One decoded message: its stream and the bytes after the channel byte. */
export interface ChannelFrame {
  channel: number;
  data: Buffer;
}

/** The message carrying `data` on `channel`. */
export function encodeChannelFrame(channel: number, data: Uint8Array | string): Buffer {
  if (!Number.isInteger(channel) || channel < 0 || channel > 255) {
    throw new InvalidInputError(
      'channel frame',
      'channel',
      `must be an integer from 0 to 255, got ${channel}`,
    );
  }
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  return Buffer.concat([Buffer.of(channel), body]);
}

/**
 * Splits a received message into its channel and payload.
 * @returns the frame, or an InvalidInputError for an empty message (no channel byte)
 */
export function decodeChannelFrame(message: Uint8Array): ChannelFrame | InvalidInputError {
  if (message.length === 0)
    return new InvalidInputError('channel frame', 'message', 'is empty: no channel byte');
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  return { channel: bytes[0]!, data: bytes.subarray(1) };
}
