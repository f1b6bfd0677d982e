// The TCP socket probe (pkg/probe/tcp): success when a connection opens within the timeout.
import net from 'node:net';

/**
 * Opens a TCP connection to host:port and closes it at once.
 *
 * @param host the address to connect to
 * @param port the port
 * @param timeoutMs how long to wait for the connection
 * @returns Success when it connected, Failure (with the error as output) otherwise
 */
export function tcpProbe(
  host: string,
  port: number,
  timeoutMs: number,
): Promise<{ result: 'Success' | 'Failure'; output: string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let settled = false;
    const done = (result: 'Success' | 'Failure', output: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ result, output });
    };
    socket.setTimeout(timeoutMs, () => done('Failure', `dial tcp ${host}:${port}: i/o timeout`));
    socket.once('connect', () => done('Success', ''));
    socket.once('error', (error) => done('Failure', `dial tcp ${host}:${port}: ${error.message}`));
  });
}
