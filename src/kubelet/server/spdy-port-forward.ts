// serveSpdyPortForward: the kubelet's port-forward protocol (portforward.k8s.io) on a SPDY session: per request an error and a data stream, the data relayed to a TCP port of the pod.
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type SchedulerLike, timer } from 'rxjs';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { SpdyHeaders } from './spdy-header-block.ts';
import { type SpdyStream, spdyServerConnection } from './spdy-server-connection.ts';

/** The port-forward protocol version negotiated in X-Stream-Protocol-Version. */
export const PORT_FORWARD_PROTOCOL_V1 = 'portforward.k8s.io';
/** How long the second stream of a request may lag the first (kubelet's streamCreationTimeout default). */
const STREAM_CREATION_TIMEOUT_MS = 30_000;

/** The pod a session forwards to. */
export interface SpdyPortForwardTarget {
  /** Where the pod's ports listen (the process runtime's pods share the host network: 127.0.0.1). */
  host: string;
  podName: string;
  podUid: string;
  logger?: Logger;
  /** Times the stream-pair timeout; default RxJS's async scheduler. */
  scheduler?: SchedulerLike;
}

/**
 * Checks a new stream's headers as kubelet's httpStreamReceived does.
 * @returns undefined for a valid stream, else the reason it is refused
 */
export function portForwardStreamRefusal(headers: SpdyHeaders): string | undefined {
  const port = headers.port;
  if (!port) return '"port" header is required';
  if (!/^\d+$/.test(port) || Number(port) > 65535) return `unable to parse "${port}" as a port`;
  if (Number(port) < 1) return `port "${port}" must be > 0`;
  const type = headers.streamtype;
  if (!type) return '"streamType" header is required';
  if (type !== 'error' && type !== 'data') return `invalid stream type "${type}"`;
  return undefined;
}

/** The request a stream belongs to; old clients without `requestID` get one from the stream id, as upstream. */
function requestIdOf(stream: SpdyStream): string {
  const id = stream.headers.requestid;
  if (id) return id;
  return String(stream.headers.streamtype === 'data' ? stream.streamId - 2 : stream.streamId);
}

/** A Go-like dial error, the words kubectl users see in "an error occurred forwarding". */
function dialError(host: string, port: number, error: NodeJS.ErrnoException): string {
  const reason =
    error.code === 'ECONNREFUSED'
      ? 'connect: connection refused'
      : error.code === 'ETIMEDOUT'
        ? 'i/o timeout'
        : error.message;
  return `dial tcp4 ${host}:${port}: ${reason}`;
}

interface Pair {
  data?: SpdyStream;
  error?: SpdyStream;
  cancelTimeout: () => void;
}

/**
 * Serves port forwarding on a SPDY session over `transport` (the upgraded connection). For each
 * request id it waits for both streams (error, data; either order, at most 30 s apart, else
 * "timed out waiting for streams" on the error stream), connects to
 * `host:port` and relays the data stream both ways; the peer's FIN ends the pod connection's
 * writing, the pod's end sends FIN. A connection that fails writes
 * `error forwarding port P to pod NAME, uid UID: ...` on the error stream. Both streams end when the
 * relay does.
 *
 * Teardown: closing the transport destroys every stream and so every pod connection.
 *
 * @returns a promise that resolves when the session has ended
 */
export function serveSpdyPortForward(transport: Duplex, target: SpdyPortForwardTarget): Promise<void> {
  const logger = (target.logger ?? silentLogger).child({ component: 'port-forward', pod: target.podName });
  const session = spdyServerConnection(transport, { accept: portForwardStreamRefusal, logger });
  const pairs = new Map<string, Pair>();
  const sockets = new Set<Socket>();

  const forward = (requestId: string, data: SpdyStream, errors: SpdyStream) => {
    const port = Number(data.headers.port);
    const socket = connect({ host: target.host, port, noDelay: true });
    sockets.add(socket);
    let failed = false;
    socket.on('error', (error: NodeJS.ErrnoException) => {
      failed = true;
      const message = `error forwarding port ${port} to pod ${target.podName}, uid ${target.podUid}: ${dialError(target.host, port, error)}`;
      logger.info({ requestId, port, err: error.message }, 'port forwarding failed');
      if (!errors.destroyed) errors.end(message);
      if (!data.destroyed) data.end();
    });
    socket.once('connect', () => {
      data.pipe(socket); // the peer's FIN ends our writing to the pod
      socket.pipe(data); // the pod's end sends FIN
    });
    socket.once('close', () => {
      sockets.delete(socket);
      if (!failed && !errors.destroyed && !errors.writableEnded) errors.end();
    });
    const stop = () => {
      if (data.wasReset || data.destroyed) socket.destroy();
    };
    data.once('close', stop);
    errors.resume(); // the client half-closes the error stream at once; nothing to read
  };

  const subscription = session.streams$.subscribe((stream) => {
    const requestId = requestIdOf(stream);
    let pair = pairs.get(requestId);
    if (!pair) {
      const timeout = timer(STREAM_CREATION_TIMEOUT_MS, target.scheduler).subscribe(() => {
        const p = pairs.get(requestId);
        pairs.delete(requestId);
        p?.error?.end(`(conn=${target.podName}, request=${requestId}) timed out waiting for streams`);
        p?.data?.destroy();
      });
      pair = { cancelTimeout: () => timeout.unsubscribe() };
      pairs.set(requestId, pair);
    }
    const kind = stream.headers.streamtype === 'data' ? 'data' : 'error';
    if (pair[kind]) {
      const message = `error processing stream for request ${requestId}: ${kind} stream already assigned`;
      pair.error?.write(message);
      stream.destroy();
      return;
    }
    pair[kind] = stream;
    if (pair.data && pair.error) {
      pair.cancelTimeout();
      pairs.delete(requestId);
      forward(requestId, pair.data, pair.error);
    }
  });

  return session.closed.then(() => {
    subscription.unsubscribe();
    for (const pair of pairs.values()) pair.cancelTimeout();
    pairs.clear();
    for (const socket of sockets) socket.destroy();
  });
}
