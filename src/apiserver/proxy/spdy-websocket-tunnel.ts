// tunnelSpdyOverWebSocket: kube-apiserver's TunnelingHandler: a client's WebSocket (`SPDY/3.1+portforward.k8s.io`) relayed to a SPDY upgrade of the kubelet, bytes in binary messages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { RawData } from 'ws';
import { ApiStatusError, badRequest } from '../api-status.ts';
import { acceptTunnelWebSocket } from './accept-tunnel-web-socket.ts';
import { kubeletRefusal } from './kubelet-refusal.ts';

/** The prefix of WebSocket subprotocols that tunnel a SPDY protocol. */
export const SPDY_TUNNEL_PREFIX = 'SPDY/3.1+';
/** Bytes sent to the client's WebSocket but not yet written before reading from the kubelet pauses. */
const MAX_IN_FLIGHT_BYTES = 1024 * 1024;

/** The SPDY protocols a WebSocket request offers through tunnelling subprotocols (`SPDY/3.1+<name>.k8s.io`), prefix removed. */
export function tunnelledSpdyProtocols(req: IncomingMessage): string[] {
  return String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.startsWith(SPDY_TUNNEL_PREFIX) && p.endsWith('.k8s.io'))
    .map((p) => p.slice(SPDY_TUNNEL_PREFIX.length));
}

/** Where the kubelet serves the request. */
export interface KubeletUpgradeTarget {
  host: string;
  port: number;
  path: string;
}

/**
 * Answers a WebSocket request offering `SPDY/3.1+<protocol>` as kube-apiserver 1.31+ does for
 * pods/portforward: dials the kubelet with `Upgrade: SPDY/3.1` and the offered protocols in
 * `X-Stream-Protocol-Version` (POST, as upstream's translated request), and only once the kubelet has
 * switched protocols accepts the WebSocket with `SPDY/3.1+<the kubelet's choice>`. From then on each
 * binary message from the client is written to the kubelet as it is and the kubelet's bytes go back
 * as binary messages; either side closing closes the other. A kubelet that refuses the upgrade
 * makes the request fail with its answer (the client then falls back to plain SPDY).
 *
 * @param head bytes that arrived after the client's request head
 * @throws ApiStatusError (BadRequest, NotFound, InternalError) before anything is sent
 */
export function tunnelSpdyOverWebSocket(
  req: IncomingMessage,
  res: ServerResponse,
  head: Buffer,
  kubelet: KubeletUpgradeTarget,
): Promise<void> {
  const protocols = tunnelledSpdyProtocols(req);
  if (protocols.length === 0) throw badRequest('unable to upgrade: no tunneling spdy protocols provided');
  const client = req.socket as Socket;
  const { host, port, path } = kubelet;
  return new Promise<void>((resolve, reject) => {
    const upstream = httpsRequest({
      host,
      port,
      path,
      method: 'POST',
      rejectUnauthorized: false,
      headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': protocols },
    });
    upstream.on('upgrade', (kres: IncomingMessage, spdy: Socket, khead: Buffer) => {
      const upgrade = String(kres.headers.upgrade ?? '').toLowerCase();
      if (!upgrade.includes('spdy/3.1')) {
        spdy.destroy();
        reject(
          new ApiStatusError(500, 'InternalError', 'unable to upgrade: missing upgrade headers in response'),
        );
        return;
      }
      const chosen = String(kres.headers['x-stream-protocol-version'] ?? '').trim() || protocols[0];
      res.detachSocket(client);
      spdy.setNoDelay(true);
      client.setNoDelay(true);
      acceptTunnelWebSocket(req, client, head, `${SPDY_TUNNEL_PREFIX}${chosen}`, (ws) => {
        const end = () => {
          spdy.destroy();
          if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(1000);
          resolve();
        };
        if (khead.length) ws.send(khead);
        ws.on('message', (data: RawData) => {
          const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
          // backpressure: stop reading the client while the kubelet is slow to take what it sent
          if (!spdy.write(bytes)) {
            ws.pause();
            spdy.once('drain', () => ws.resume());
          }
        });
        let inFlight = 0;
        spdy.on('data', (chunk: Buffer) => {
          if (ws.readyState !== ws.OPEN) return;
          // backpressure: the kubelet waits while the client is slow to take what was sent
          inFlight += chunk.length;
          if (inFlight > MAX_IN_FLIGHT_BYTES) spdy.pause();
          ws.send(chunk, { binary: true }, () => {
            inFlight -= chunk.length;
            if (inFlight <= MAX_IN_FLIGHT_BYTES && spdy.isPaused()) spdy.resume();
          });
        });
        spdy.once('close', end);
        spdy.on('error', end);
        ws.once('close', end);
        ws.on('error', end);
      });
    });
    upstream.on('response', (kres) => {
      void kubeletRefusal(kres).then(reject);
    });
    upstream.on('error', (error) =>
      reject(new ApiStatusError(500, 'InternalError', `error dialing backend: ${error.message}`)),
    );
    upstream.end();
  });
}
