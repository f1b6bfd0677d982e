// Test helper: the client half of a SPDY/3.1 session (what kubectl's spdystream does), over an in-memory duplex.
import type { Duplex } from 'node:stream';
import { InvalidInputError } from '../../../../operators/errors.ts';
import {
  encodeSpdyFrame,
  type SpdyFrame,
  SpdyFrameReader,
} from '../../../../src/kubelet/server/spdy-frame.ts';
import {
  HeaderDeflater,
  HeaderInflater,
  type SpdyHeaders,
} from '../../../../src/kubelet/server/spdy-header-block.ts';

/** A frame the server sent, with the headers of SYN_REPLY decoded. */
export type ReceivedFrame = SpdyFrame & { headers?: SpdyHeaders };

/** Writes client frames and records every server frame in order. */
export class SpdyTestClient {
  readonly received: ReceivedFrame[] = [];
  ended = false;
  private readonly deflater = new HeaderDeflater();
  private readonly inflater = new HeaderInflater();
  private readonly reader = new SpdyFrameReader();
  private chain: Promise<void> = Promise.resolve();
  private readonly waiters: (() => void)[] = [];
  private readonly transport: Duplex;

  constructor(transport: Duplex) {
    this.transport = transport;
    transport.on('data', (chunk: Buffer) => {
      for (const frame of this.reader.push(chunk)) {
        this.chain = this.chain.then(async () => {
          if (frame instanceof InvalidInputError) throw frame;
          const received: ReceivedFrame = { ...frame };
          if (frame.type === 'SYN_REPLY') {
            const headers = await this.inflater.inflate(frame.headerBlock);
            if (headers instanceof InvalidInputError) throw headers;
            received.headers = headers;
          }
          this.received.push(received);
          for (const w of this.waiters.splice(0)) w();
        });
      }
    });
    transport.on('end', () => {
      this.ended = true;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  send(frame: SpdyFrame): void {
    this.transport.write(encodeSpdyFrame(frame));
  }

  open(streamId: number, headers: SpdyHeaders, flags = 0): void {
    this.send({
      type: 'SYN_STREAM',
      streamId,
      associatedId: 0,
      priority: 0,
      flags,
      headerBlock: this.deflater.deflate(headers),
    });
  }

  data(streamId: number, data: string | Buffer, fin = false): void {
    this.send({ type: 'DATA', streamId, flags: fin ? 1 : 0, data: Buffer.from(data) });
  }

  /** Waits until `check` holds over the frames received (or the transport ended), at most 5 s. */
  async until(check: (frames: ReceivedFrame[]) => boolean, what: string): Promise<ReceivedFrame[]> {
    const deadline = Date.now() + 5_000;
    while (!check(this.received)) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; got ${JSON.stringify(this.received.map((f) => f.type))}`,
        );
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.received;
  }

  /** The bytes the server sent on `streamId`, and whether it sent FIN. */
  stream(streamId: number): { text: string; fin: boolean; reset?: number } {
    let text = '';
    let fin = false;
    let reset: number | undefined;
    for (const f of this.received) {
      if (f.type === 'DATA' && f.streamId === streamId) {
        text += f.data.toString('utf8');
        if (f.flags & 1) fin = true;
      }
      if (f.type === 'RST_STREAM' && f.streamId === streamId) reset = f.status;
    }
    return { text, fin, ...(reset === undefined ? {} : { reset }) };
  }

  /** Ends the client's side, as a peer closing its connection does. */
  close(): void {
    this.inflater.close();
    this.transport.end();
  }
}
