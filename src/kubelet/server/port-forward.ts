// The kubelet's WebSocket port forwarding: per port a data and an error channel, each opened by the port as two little-endian bytes.
import { connect, type Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { InvalidInputError } from '../../../operators/errors.ts';
import { CHANNEL, decodeChannelFrame, encodeChannelFrame } from './channel-frame.ts';

/** The subprotocols port forwarding speaks over WebSocket (the channel framing, without v5's close). */
export const PORT_FORWARD_SUBPROTOCOLS = ['v4.channel.k8s.io', 'channel.k8s.io'] as const;

/**
 * The `ports` query: every value, comma-separated values split, each a TCP port.
 * @returns the ports in order, or an error naming the bad value
 */
export function parsePortForwardPorts(q: URLSearchParams): number[] | InvalidInputError {
  const values = q
    .getAll('ports')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.length === 0)
    return new InvalidInputError('port forward', 'ports', 'at least one port must be specified');
  const ports: number[] = [];
  for (const v of values) {
    const port = /^\d+$/.test(v) ? Number(v) : Number.NaN;
    if (!(port >= 1 && port <= 65535)) {
      return new InvalidInputError(
        'port forward',
        'ports',
        `unable to parse "${v}" as a port: must be 1-65535`,
      );
    }
    ports.push(port);
  }
  return ports;
}

/**
 * Relays a WebSocket to TCP connections to `host` on each port: channel 2i carries port i's data both
 * ways, channel 2i+1 its errors; the server's first message on each channel is the port (uint16 LE).
 * The WebSocket closes when every connection has ended; closing the WebSocket ends the connections.
 */
export function relayPortForward(ws: WebSocket, host: string, ports: readonly number[]): void {
  const sockets: Socket[] = [];
  let open = ports.length;
  const send = (channel: number, data: Uint8Array | string) => {
    if (ws.readyState === ws.OPEN) ws.send(encodeChannelFrame(channel, data));
  };
  ports.forEach((port, i) => {
    const portBytes = Buffer.alloc(2);
    portBytes.writeUInt16LE(port, 0);
    send(2 * i, portBytes);
    send(2 * i + 1, portBytes);
    const socket = connect({ host, port });
    sockets.push(socket);
    socket.on('data', (chunk: Buffer) => send(2 * i, chunk));
    socket.on('error', (error) => {
      send(2 * i + 1, `an error occurred forwarding ${port} -> ${port}: ${error.message}`);
    });
    socket.on('close', () => {
      open -= 1;
      if (open === 0) ws.close(1000);
    });
  });
  ws.on('message', (message: Buffer, isBinary: boolean) => {
    if (!isBinary) return;
    const frame = decodeChannelFrame(message);
    if (frame instanceof InvalidInputError || frame.channel === CHANNEL.close) return;
    if (frame.channel % 2 === 0) sockets[frame.channel / 2]?.write(frame.data);
  });
  ws.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  ws.on('error', () => undefined);
}
