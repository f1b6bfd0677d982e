// The HTTP transport of the API client: node:http(s) requests as cold observables that abort on unsubscribe.
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { Observable } from 'rxjs';
import { KubeRxError } from '../../operators/errors.ts';

/** One request, relative to the server URL. */
export interface HttpRequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, e.g. `/api/v1/namespaces/default/pods?limit=500`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A complete answer, whatever its status. */
export interface HttpAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A streamed answer: the head first, then the body as UTF-8 text in arbitrary pieces. */
export type HttpStreamPart =
  | { type: 'head'; statusCode: number; headers: IncomingHttpHeaders }
  | { type: 'text'; text: string };

/**
 * Sends requests to one API server.
 *
 * Contract: both methods are cold; unsubscribing destroys the request at once, also while the connection
 * options are still being prepared. A broken connection (refused, reset, cut mid-body) errors the
 * observable with a `KubeRxError` of code `KUBE_RX_CONNECTION`; HTTP error statuses are answers, not errors.
 */
export interface HttpTransport {
  /** Emits the full answer once it has arrived, then completes. */
  request(spec: HttpRequestSpec): Observable<HttpAnswer>;
  /** Emits the head, then body text as it arrives; completes when the body ends cleanly. */
  stream(spec: HttpRequestSpec): Observable<HttpStreamPart>;
}

/** What a transport needs to reach the server: its URL and per-request options (TLS, auth headers). */
export interface HttpTransportConfig {
  server: string;
  /** Resolved before each request (tokens may rotate); may return cached options. */
  requestOptions: () => Promise<https.RequestOptions> | https.RequestOptions;
}

function connectionError(spec: HttpRequestSpec, cause: unknown): KubeRxError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new KubeRxError('KUBE_RX_CONNECTION', `${spec.method} ${spec.path}: connection failed: ${reason}`, {
    cause,
  });
}

/**
 * A transport over node:http / node:https.
 * @param config the server URL and the request options (CA, client certificate, bearer token, agent)
 * @returns an HttpTransport
 */
export function nodeHttpTransport(config: HttpTransportConfig): HttpTransport {
  const base = new URL(config.server);
  const basePath = base.pathname.replace(/\/+$/, '');
  const lib = base.protocol === 'http:' ? http : https;

  const open = (
    spec: HttpRequestSpec,
    onResponse: (res: http.IncomingMessage) => void,
    onError: (error: unknown) => void,
  ): (() => void) => {
    let req: http.ClientRequest | undefined;
    let closed = false;
    Promise.resolve()
      .then(() => config.requestOptions())
      .then(
        (options) => {
          if (closed) return;
          const headers: Record<string, string | number> = {
            Accept: 'application/json',
            ...(options.headers as Record<string, string> | undefined),
            ...spec.headers,
          };
          if (spec.body !== undefined) headers['Content-Length'] = Buffer.byteLength(spec.body);
          req = lib.request({
            ...options,
            protocol: base.protocol,
            hostname: base.hostname.replace(/^\[|\]$/g, ''),
            port: base.port || (base.protocol === 'http:' ? 80 : 443),
            method: spec.method,
            path: `${basePath}${spec.path}`,
            headers,
          });
          req.on('response', onResponse);
          req.on('error', (error) => {
            if (!closed) onError(error);
          });
          req.end(spec.body);
        },
        (error: unknown) => {
          if (!closed) onError(error);
        },
      );
    return () => {
      closed = true;
      req?.destroy();
    };
  };

  return {
    request: (spec) =>
      new Observable<HttpAnswer>((subscriber) =>
        open(
          spec,
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', () => {});
            res.on('close', () => {
              if (subscriber.closed) return;
              if (!res.complete) {
                subscriber.error(
                  connectionError(spec, new Error('the connection closed before the answer ended')),
                );
                return;
              }
              subscriber.next({
                statusCode: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(chunks).toString('utf8'),
              });
              subscriber.complete();
            });
          },
          (error) => subscriber.error(connectionError(spec, error)),
        ),
      ),
    stream: (spec) =>
      new Observable<HttpStreamPart>((subscriber) =>
        open(
          spec,
          (res) => {
            const decoder = new StringDecoder('utf8');
            subscriber.next({ type: 'head', statusCode: res.statusCode ?? 0, headers: res.headers });
            res.on('data', (chunk: Buffer) => {
              const text = decoder.write(chunk);
              if (text) subscriber.next({ type: 'text', text });
            });
            res.on('error', () => {});
            res.on('close', () => {
              if (subscriber.closed) return;
              if (!res.complete) {
                subscriber.error(connectionError(spec, new Error('the connection closed mid-stream')));
                return;
              }
              const rest = decoder.end();
              if (rest) subscriber.next({ type: 'text', text: rest });
              subscriber.complete();
            });
          },
          (error) => subscriber.error(connectionError(spec, error)),
        ),
      ),
  };
}
