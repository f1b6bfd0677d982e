// Reassembles protobuf watch frames from a byte stream cut at arbitrary points, as a client reads them.
import { InvalidInputError } from '../../../operators/errors.ts';
import { decodeWatchPayload, type WatchEventJson } from './watch-frame.ts';

/** The largest frame accepted: a guard against a garbled length, not a limit of the format. */
export const MAX_WATCH_FRAME_BYTES = 64 * 1024 * 1024;

/**
 * Splits a protobuf watch stream into events. Invariant: whatever the chunking, `push` returns the
 * frames completed so far, in order, each exactly once; `finish` throws if a frame is left cut.
 * State is the unfinished frame's bytes only.
 */
export class WatchFrameDecoder {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** The current frame's length once its 4-byte header has arrived. */
  #length: number | undefined;

  /** Feeds a chunk; returns the events whose frames it completes. */
  push(chunk: Uint8Array): WatchEventJson[] {
    if (chunk.length === 0) return [];
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    const out: WatchEventJson[] = [];
    for (;;) {
      if (this.#length === undefined) {
        if (this.#pendingBytes < 4) break;
        const head = this.#flatten();
        this.#length = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, false);
        if (this.#length > MAX_WATCH_FRAME_BYTES) {
          throw new InvalidInputError(
            'protobuf watch stream',
            'frame length',
            `${this.#length} bytes is over the limit`,
          );
        }
      }
      if (this.#pendingBytes < 4 + this.#length) break;
      const frame = this.#take(4 + this.#length);
      this.#length = undefined;
      out.push(decodeWatchPayload(frame.subarray(4)));
    }
    return out;
  }

  /** Ends the stream; throws when it stopped in the middle of a frame. */
  finish(): void {
    if (this.#pendingBytes > 0) {
      throw new InvalidInputError(
        'protobuf watch stream',
        'frame',
        `ended ${this.#pendingBytes} bytes into a frame`,
      );
    }
  }

  #flatten(): Uint8Array {
    if (this.#pending.length === 1) return this.#pending[0]!;
    const all = new Uint8Array(this.#pendingBytes);
    let at = 0;
    for (const c of this.#pending) {
      all.set(c, at);
      at += c.length;
    }
    this.#pending = [all];
    return all;
  }

  #take(n: number): Uint8Array {
    const all = this.#flatten();
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    this.#pending = rest.length ? [rest] : [];
    this.#pendingBytes = rest.length;
    return head;
  }
}
