// acceptTunnelWebSocket: completes a WebSocket handshake whose subprotocol is a SPDY tunnel name (`SPDY/3.1+portforward.k8s.io`), which the ws library's token check refuses.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * Answers the upgrade request with `Sec-WebSocket-Protocol: <protocol>` and hands over the open
 * WebSocket. The `/` in tunnelling subprotocols is not an RFC 7230 token character, so `ws` would
 * answer 400 "Invalid Sec-WebSocket-Protocol header"; the caller has already checked the offer, and
 * the header is taken out of the request before `ws` parses it and written into the answer here.
 *
 * @param protocol the subprotocol to answer with, one the client offered
 */
export function acceptTunnelWebSocket(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  protocol: string,
  onOpen: (ws: WebSocket) => void,
): void {
  const wss = new WebSocketServer({ noServer: true });
  delete req.headers['sec-websocket-protocol'];
  wss.once('headers', (headers: string[]) => headers.push(`Sec-WebSocket-Protocol: ${protocol}`));
  wss.handleUpgrade(req, socket, head, (ws) => {
    wss.close();
    onOpen(ws);
  });
}
