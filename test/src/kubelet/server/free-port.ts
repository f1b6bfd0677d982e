// Test helper: a TCP port on 127.0.0.1 that nothing listened on a moment ago.
import { createServer } from 'node:net';

/** Binds port 0, reads the port the kernel chose, and releases it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
