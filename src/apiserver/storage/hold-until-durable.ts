// Wraps the API handler so a write's answer leaves only once a remote store acknowledged the write.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../operators/logger.ts';
import { ApiStatusError, failureStatus } from '../api-status.ts';
import { PROTOBUF_CONTENT_TYPE } from '../protobuf/content-types.ts';
import { decodeObject, encodeObject } from '../protobuf/object-codec.ts';
import { type AcknowledgedWrite, pendingWrites } from './pending-writes.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Runs each request with a list of its pending writes ({@link pendingWrites}) and holds the
 * response's head and end until they are all acknowledged. If one was refused, the answer is
 * replaced by the refusal (409 Conflict when another writer came first, 500 when the store failed),
 * so a client never sees success for a write the store does not hold. When the store gave a write
 * another resourceVersion than the cache predicted, the answered object (JSON or protobuf) carries
 * the stored one. Reads pass straight through.
 * @param handler the API handler
 * @returns the wrapped handler
 */
export function holdUntilDurable(handler: Handler, log: Logger): Handler {
  return (req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
      handler(req, res);
      return;
    }
    const writes: Promise<AcknowledgedWrite>[] = [];
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
        (acks) => {
          const moved = new Map<string, string>();
          for (const a of acks)
            if (a.predictedRv !== a.storedRv) moved.set(String(a.predictedRv), String(a.storedRv));
          if (moved.size > 0 && head) {
            const body = restamped(args[0], contentTypeOf(res, head), moved);
            if (body !== undefined) {
              args[0] = body;
              head = withContentLength(head, Buffer.byteLength(body));
            }
          }
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

type Head = Parameters<ServerResponse['writeHead']>;

function headersOf(head: Head): Record<string, unknown> | undefined {
  const args = head as unknown[];
  const h = typeof args[1] === 'string' ? args[2] : args[1];
  return h && !Array.isArray(h) ? (h as Record<string, unknown>) : undefined;
}

function contentTypeOf(res: ServerResponse, head: Head): string {
  const headers = headersOf(head) ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === 'content-type');
  return String((key ? headers[key] : res.getHeader('content-type')) ?? '');
}

function withContentLength(head: Head, length: number): Head {
  const headers = headersOf(head);
  if (!headers) return head;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === 'content-length');
  if (!key) return head;
  const next = { ...headers, [key]: length };
  return (typeof head[1] === 'string' ? [head[0], head[1], next] : [head[0], next]) as Head;
}

/** The body with `metadata.resourceVersion` moved from a predicted to the stored value, or undefined. */
function restamped(
  body: unknown,
  contentType: string,
  moved: ReadonlyMap<string, string>,
): string | Buffer | undefined {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return undefined;
  const fix = (o: Record<string, unknown>): boolean => {
    const meta = o.metadata as { resourceVersion?: string } | undefined;
    const stored = meta?.resourceVersion !== undefined ? moved.get(meta.resourceVersion) : undefined;
    if (!meta || stored === undefined) return false;
    meta.resourceVersion = stored;
    return true;
  };
  try {
    if (contentType.startsWith(PROTOBUF_CONTENT_TYPE) && body instanceof Uint8Array) {
      const object = decodeObject(body);
      return fix(object) ? Buffer.from(encodeObject(object)) : undefined;
    }
    if (contentType.startsWith('application/json')) {
      const object = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
      return object && typeof object === 'object' && fix(object) ? JSON.stringify(object) : undefined;
    }
  } catch {
    // not an object body: leave it as it is
  }
  return undefined;
}
