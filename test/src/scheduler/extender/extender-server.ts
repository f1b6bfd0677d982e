// Test helper: a real node:http(s) scheduler extender on 127.0.0.1 that records each POST and answers through per-verb handlers.
import { once } from 'node:events';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request the extender received. */
export interface ExtenderRequest {
  readonly verb: string;
  readonly contentType: string | undefined;
  readonly body: Record<string, unknown>;
}

/** A handler's answer: a JSON body (status 200), or a status with a body; `hang` never answers. */
export type ExtenderAnswer = unknown | { status: number; body?: unknown } | 'hang';

export type ExtenderHandler = (body: Record<string, unknown>) => ExtenderAnswer | Promise<ExtenderAnswer>;

export interface ExtenderServer {
  /** `http://127.0.0.1:<port>/scheduler` (https with `tls`). */
  readonly urlPrefix: string;
  readonly requests: ExtenderRequest[];
  /** Handlers by verb; set or replace them at any time. A verb without one answers 404. */
  readonly handlers: Record<string, ExtenderHandler>;
  close(): Promise<void>;
}

/**
 * Starts an extender under the path `/scheduler`. Requests the handler says to `hang` are held until
 * `close()`, which ends them.
 * @param tls a certificate and key for HTTPS
 */
export async function startExtenderServer(tls?: { cert: string; key: string }): Promise<ExtenderServer> {
  const requests: ExtenderRequest[] = [];
  const handlers: Record<string, ExtenderHandler> = {};
  const hanging = new Set<http.ServerResponse>();
  const listener: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const verb = (req.url ?? '').replace(/^\/scheduler\//, '');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // recorded as {}
      }
      requests.push({ verb, contentType: req.headers['content-type'], body });
      const handler = handlers[verb];
      if (req.method !== 'POST' || !handler) {
        res.writeHead(404).end();
        return;
      }
      let answer: ExtenderAnswer;
      try {
        answer = await handler(body);
      } catch (error) {
        answer = { status: 500, body: { Error: String(error) } };
      }
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      const withStatus =
        answer !== null && typeof answer === 'object' && 'status' in (answer as object)
          ? (answer as { status: number; body?: unknown })
          : undefined;
      const status = withStatus?.status ?? 200;
      const payload = withStatus ? withStatus.body : answer;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(payload === undefined ? '' : JSON.stringify(payload));
    });
  };
  const server = tls
    ? https.createServer({ cert: tls.cert, key: tls.key }, listener)
    : http.createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    urlPrefix: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/scheduler`,
    requests,
    handlers,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
