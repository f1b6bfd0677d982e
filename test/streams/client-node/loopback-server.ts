// A small node:http(s) loopback server for the client adapter's real-I/O tests, recording requests and their aborts.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Set when the client went away before the answer ended. */
  aborted: boolean;
}

export interface LoopbackServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** Starts a server on 127.0.0.1 (HTTPS when `tls` is given) that hands each request, with its body, to `handler`. */
export async function loopbackServer(
  handler: Handler,
  tls?: { key: string; cert: string; ca?: string; requestCert?: boolean },
  // client certificates are requested but not verified: tests read the presented one instead
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        aborted: false,
      };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.aborted = true;
      });
      handler(req, res, record.body);
    });
  };
  const server = tls
    ? https.createServer(
        { key: tls.key, cert: tls.cert, ca: tls.ca, requestCert: tls.requestCert, rejectUnauthorized: false },
        listener,
      )
    : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A kubeconfig YAML for a plain-HTTP loopback server. */
export function httpKubeconfig(url: string, token = 'test-token'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: loop',
    '  cluster:',
    `    server: ${url}`,
    '    insecure-skip-tls-verify: true',
    'users:',
    '- name: me',
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: loop',
    '  context:',
    '    cluster: loop',
    '    user: me',
    '    namespace: team-a',
    'current-context: loop',
    '',
  ].join('\n');
}

/** Writes a JSON body. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Resolves after `ms` of real time (real-I/O tests only). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits (real time, bounded) until `predicate` holds. */
export async function until(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await sleep(5);
  }
}
