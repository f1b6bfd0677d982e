// spdyServerConnection: the server side of a SPDY/3.1 session over any byte stream (an upgraded socket or a WebSocket tunnel), each peer-opened stream a Duplex.
import { Duplex } from 'node:stream';
import { Observable, Subject } from 'rxjs';
import { InvalidInputError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import {
  encodeSpdyFrame,
  GOAWAY_STATUS,
  RST_STATUS,
  SPDY_FLAG,
  type SpdyFrame,
  SpdyFrameReader,
} from './spdy-frame.ts';
import { HeaderDeflater, HeaderInflater, type SpdyHeaders } from './spdy-header-block.ts';

/** The largest DATA frame this server writes; bigger writes are split. */
const MAX_DATA_FRAME = 64 * 1024;
/** Frames read but not yet handled before reading from the transport pauses. */
const MAX_PENDING_FRAMES = 256;
/** Bytes a stream holds for a reader that lags before the session stops reading the transport. */
const STREAM_BUFFER_BYTES = 1024 * 1024;

/**
 * One stream the peer opened. Reading gives the peer's data and ends at its FIN; writing sends DATA
 * frames and `end()` sends FIN (the two halves close independently). `destroy()` before both halves
 * are done resets the stream (RST_STREAM CANCEL); a reset from the peer destroys it without an error.
 */
export interface SpdyStream extends Duplex {
  readonly streamId: number;
  readonly headers: SpdyHeaders;
  /** Whether the peer reset the stream. */
  readonly wasReset: boolean;
}

/** How a connection decides on streams and logs. */
export interface SpdyServerConnectionOptions {
  /** Checks a new stream's headers: undefined accepts it (SYN_REPLY), a reason refuses it (RST_STREAM REFUSED_STREAM). */
  accept?: (headers: SpdyHeaders) => string | undefined;
  logger?: Logger;
}

/** A running session. */
export interface SpdyServerConnection {
  /** Every accepted stream, after its SYN_REPLY is written; completes when the session ends. */
  readonly streams$: Observable<SpdyStream>;
  /** Resolves once the transport has closed and every stream is destroyed. */
  readonly closed: Promise<void>;
  /** Sends GOAWAY, ends the transport and destroys every stream. */
  close(): void;
}

class ServerStream extends Duplex implements SpdyStream {
  readonly streamId: number;
  readonly headers: SpdyHeaders;
  wasReset = false;
  remoteFinished = false;
  localFinished = false;
  private readonly session: Session;

  constructor(session: Session, streamId: number, headers: SpdyHeaders) {
    super({ allowHalfOpen: true, readableHighWaterMark: STREAM_BUFFER_BYTES });
    this.session = session;
    this.streamId = streamId;
    this.headers = headers;
  }

  override _read(): void {
    // the reader wants more: if this stream had stopped the session's reading, it may go on
    this.session.unblock(this);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.session.sendData(this.streamId, chunk, 0, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.localFinished = true;
    this.session.sendData(this.streamId, Buffer.alloc(0), SPDY_FLAG.fin, callback);
    this.session.forgetIfDone(this);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.wasReset && !(this.localFinished && this.remoteFinished)) {
      this.session.send({ type: 'RST_STREAM', streamId: this.streamId, status: RST_STATUS.cancel });
    }
    this.session.forget(this);
    callback(error);
  }

  receive(data: Buffer): void {
    // no flow-control windows (spdystream keeps none): a stream whose reader lags holds the whole
    // session's reading, as spdystream's unbuffered channels hold its frame loop
    if (!this.remoteFinished && data.length > 0 && !this.push(data)) this.session.block(this);
  }

  finishRemote(): void {
    if (this.remoteFinished) return;
    this.remoteFinished = true;
    this.push(null);
    this.session.forgetIfDone(this);
  }

  resetByPeer(): void {
    this.wasReset = true;
    this.destroy();
  }
}

class Session {
  readonly streams = new Map<number, ServerStream>();
  readonly accepted$ = new Subject<SpdyStream>();
  private readonly reader = new SpdyFrameReader();
  private readonly inflater = new HeaderInflater();
  private readonly deflater = new HeaderDeflater();
  private lastStreamId = 0;
  private goneAway = false;
  private ended = false;
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  /** Streams whose readers lag: while any, the transport is not read. */
  private readonly blocked = new Set<ServerStream>();
  private readonly transport: Duplex;
  private readonly options: SpdyServerConnectionOptions;
  private readonly logger: Logger;
  readonly closed: Promise<void>;

  constructor(transport: Duplex, options: SpdyServerConnectionOptions) {
    this.transport = transport;
    this.options = options;
    this.logger = (options.logger ?? silentLogger).child({ component: 'spdy' });
    this.closed = new Promise<void>((resolve) => {
      transport.once('close', () => {
        this.shutDown();
        resolve();
      });
    });
    transport.on('data', (chunk: Buffer) => {
      for (const frame of this.reader.push(chunk)) this.enqueue(frame);
    });
    transport.on('end', () => {
      this.enqueueTask(() => this.shutDown());
    });
    transport.on('error', (error: Error) => {
      this.logger.debug({ err: error.message }, 'the SPDY transport failed');
      this.shutDown();
    });
  }

  private enqueue(frame: SpdyFrame | InvalidInputError): void {
    this.enqueueTask(() => this.handle(frame));
  }

  /** Frames are handled one at a time in arrival order (header blocks inflate asynchronously). */
  private enqueueTask(task: () => void | Promise<void>): void {
    this.pending += 1;
    if (this.pending > MAX_PENDING_FRAMES) this.transport.pause();
    this.chain = this.chain
      .then(task)
      .catch((error: unknown) => {
        this.logger.error({ err: String(error) }, 'handling a SPDY frame failed');
        this.fail(GOAWAY_STATUS.internalError);
      })
      .finally(() => {
        this.pending -= 1;
        this.resumeIfFree();
      });
  }

  block(stream: ServerStream): void {
    this.blocked.add(stream);
    this.transport.pause();
  }

  unblock(stream: ServerStream): void {
    if (this.blocked.delete(stream)) this.resumeIfFree();
  }

  private resumeIfFree(): void {
    if (this.blocked.size === 0 && this.pending <= MAX_PENDING_FRAMES / 2 && this.transport.isPaused())
      this.transport.resume();
  }

  send(frame: SpdyFrame): boolean {
    if (this.ended || !this.transport.writable) return false;
    return this.transport.write(encodeSpdyFrame(frame));
  }

  sendData(streamId: number, data: Buffer, flags: number, callback: (error?: Error | null) => void): void {
    if (this.ended || !this.transport.writable) {
      callback(new Error('the SPDY connection is closed'));
      return;
    }
    let flowing = true;
    let at = 0;
    do {
      const part = data.subarray(at, at + MAX_DATA_FRAME);
      at += MAX_DATA_FRAME;
      const last = at >= data.length;
      flowing = this.send({ type: 'DATA', streamId, flags: last ? flags : 0, data: part });
    } while (at < data.length);
    if (flowing) callback();
    else {
      // backpressure: the stream's next write waits until the transport has drained
      const done = () => {
        this.transport.off('drain', done);
        this.transport.off('close', done);
        callback(this.ended ? new Error('the SPDY connection is closed') : undefined);
      };
      this.transport.on('drain', done);
      this.transport.on('close', done);
    }
  }

  forget(stream: ServerStream): void {
    if (this.streams.get(stream.streamId) === stream) this.streams.delete(stream.streamId);
    this.unblock(stream);
    if (this.goneAway && this.streams.size === 0) this.transport.end();
  }

  forgetIfDone(stream: ServerStream): void {
    if (stream.localFinished && stream.remoteFinished) this.forget(stream);
  }

  private fail(status: number): void {
    this.send({ type: 'GOAWAY', lastGoodStreamId: this.lastStreamId, status });
    this.transport.end();
    this.shutDown();
  }

  close(): void {
    if (this.ended) return;
    this.send({ type: 'GOAWAY', lastGoodStreamId: this.lastStreamId, status: GOAWAY_STATUS.ok });
    this.transport.end();
    this.shutDown();
  }

  shutDown(): void {
    if (this.ended) return;
    this.ended = true;
    for (const stream of [...this.streams.values()]) {
      stream.wasReset = true; // nothing can be sent any more
      stream.destroy();
    }
    this.streams.clear();
    this.inflater.close();
    this.accepted$.complete();
    // nothing more will be sent: end our side (an upgraded HTTP socket allows half-open
    // connections, so it would otherwise stay open after the peer's end)
    if (!this.transport.writableEnded && !this.transport.destroyed) this.transport.end();
  }

  private async handle(frame: SpdyFrame | InvalidInputError): Promise<void> {
    if (this.ended) return;
    if (frame instanceof InvalidInputError) {
      this.logger.info({ err: frame.message }, 'closing a SPDY connection after a malformed frame');
      this.fail(GOAWAY_STATUS.protocolError);
      return;
    }
    switch (frame.type) {
      case 'SYN_STREAM':
        return this.open(frame);
      case 'SYN_REPLY':
      case 'HEADERS': {
        // read to keep the shared zlib stream in step; a client's late headers change nothing here
        const headers = await this.inflater.inflate(frame.headerBlock);
        if (headers instanceof InvalidInputError) this.fail(GOAWAY_STATUS.protocolError);
        return;
      }
      case 'DATA': {
        const stream = this.streams.get(frame.streamId);
        if (!stream) return; // data for a stream already gone, as spdystream drops it
        stream.receive(frame.data);
        if (frame.flags & SPDY_FLAG.fin) stream.finishRemote();
        return;
      }
      case 'RST_STREAM':
        this.streams.get(frame.streamId)?.resetByPeer();
        return;
      case 'PING':
        // a client's pings have odd ids: answer with the same frame
        if (frame.id % 2 === 1) this.send(frame);
        return;
      case 'GOAWAY':
        this.goneAway = true;
        if (this.streams.size === 0) this.transport.end();
        return;
      default:
        return; // SETTINGS, WINDOW_UPDATE (no flow control kept) and unknown control frames
    }
  }

  private async open(frame: Extract<SpdyFrame, { type: 'SYN_STREAM' }>): Promise<void> {
    const headers = await this.inflater.inflate(frame.headerBlock);
    if (this.ended) return;
    if (headers instanceof InvalidInputError) {
      this.logger.info({ err: headers.message }, 'closing a SPDY connection after a bad header block');
      this.fail(GOAWAY_STATUS.protocolError);
      return;
    }
    const { streamId } = frame;
    if (streamId % 2 === 0 || streamId <= this.lastStreamId || this.goneAway) {
      this.send({ type: 'RST_STREAM', streamId, status: RST_STATUS.protocolError });
      return;
    }
    this.lastStreamId = streamId;
    const refusal = this.options.accept?.(headers);
    if (refusal !== undefined) {
      this.logger.info({ streamId, reason: refusal }, 'refused a SPDY stream');
      this.send({ type: 'RST_STREAM', streamId, status: RST_STATUS.refusedStream });
      return;
    }
    const stream = new ServerStream(this, streamId, headers);
    this.streams.set(streamId, stream);
    this.send({ type: 'SYN_REPLY', streamId, flags: 0, headerBlock: this.deflater.deflate({}) });
    if (frame.flags & SPDY_FLAG.fin) stream.finishRemote();
    this.accepted$.next(stream);
  }
}

/**
 * Serves SPDY/3.1 on `transport` as kubelet's httpstream server does: every SYN_STREAM the peer sends
 * is checked by `accept`, answered with SYN_REPLY (no headers) or RST_STREAM REFUSED_STREAM, and an
 * accepted stream is emitted on `streams$`. The peer's PINGs are answered; SETTINGS and WINDOW_UPDATE
 * are read and ignored (spdystream, kubectl's side, keeps no flow-control windows, and neither does
 * this server); a malformed frame sends GOAWAY PROTOCOL_ERROR and ends the transport.
 *
 * Backpressure: a stream holds up to 1 MiB its reader has not taken; beyond that the session stops
 * reading the transport until that reader catches up (spdystream's unbuffered per-stream channels
 * hold its frame loop the same way). Writes wait for the transport to drain.
 *
 * Teardown: the session ends when the transport closes (every stream destroyed, `streams$` completes)
 * or on `close()`.
 *
 * @param transport the upgraded socket, or a WebSocket stream carrying SPDY frames
 */
export function spdyServerConnection(
  transport: Duplex,
  options: SpdyServerConnectionOptions = {},
): SpdyServerConnection {
  const session = new Session(transport, options);
  return {
    streams$: new Observable<SpdyStream>((subscriber) => session.accepted$.subscribe(subscriber)),
    closed: session.closed,
    close: () => session.close(),
  };
}
