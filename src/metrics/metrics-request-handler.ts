// Serves a prom-client registry in the Prometheus text format as a node:http request handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * A request handler answering `GET /metrics` (or `HEAD`) with the registry's exposition; any other
 * path is 404 and any other method 405, so it can be mounted on its own server or behind a router.
 *
 * @example
 * const registry = new Registry();
 * http.createServer(metricsRequestHandler(registry)).listen(8080);
 * @param registry the registry to expose
 * @param path the path served; default `/metrics`
 * @returns a `(req, res)` handler for `http.createServer`
 */
export function metricsRequestHandler(
  registry: Registry,
  path = '/metrics',
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`collecting metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  };
}
