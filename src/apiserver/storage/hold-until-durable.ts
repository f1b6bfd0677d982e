// Wraps the API handler so a write's answer leaves only once a remote store acknowledged the write.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../operators/logger.ts';
import { ApiStatusError, failureStatus } from '../api-status.ts';
import { pendingWrites } from './pending-writes.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Runs each request with a list of its pending writes ({@link pendingWrites}) and holds the
 * response's head and end until they are all acknowledged. If one was refused, the answer is
 * replaced by the refusal (409 Conflict when another writer came first, 500 when the store failed),
 * so a client never sees success for a write the store does not hold. Reads pass straight through.
 * @param handler the API handler
 * @returns the wrapped handler
 */
export function holdUntilDurable(handler: Handler, log: Logger): Handler {
  return (req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
      handler(req, res);
      return;
    }
    const writes: Promise<void>[] = [];
    const writeHead = res.writeHead;
    const end = res.end;
    let head: Parameters<ServerResponse['writeHead']> | undefined;
    res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      if (writes.length === 0) return writeHead.apply(res, args);
      head = args;
      return res;
    }) as ServerResponse['writeHead'];
    res.end = ((...args: Parameters<ServerResponse['end']>) => {
      if (writes.length === 0 && head === undefined) return end.apply(res, args);
      Promise.all(writes).then(
        () => {
          if (head) writeHead.apply(res, head);
          end.apply(res, args);
        },
        (error: unknown) => {
          const status =
            error instanceof ApiStatusError
              ? error.status
              : failureStatus(500, 'InternalError', `storage: ${(error as Error).message}`);
          if (!(error instanceof ApiStatusError)) log.error({ err: error }, 'a write failed in storage');
          const text = JSON.stringify(status);
          if (!res.headersSent) {
            writeHead.call(res, status.code ?? 500, {
              'Content-Type': 'application/json',
              'Content-Length': Buffer.byteLength(text),
              'Cache-Control': 'no-cache, private',
            });
          }
          (end as (chunk: string) => ServerResponse).call(res, text);
        },
      );
      return res;
    }) as ServerResponse['end'];
    pendingWrites.run(writes, () => handler(req, res));
  };
}
