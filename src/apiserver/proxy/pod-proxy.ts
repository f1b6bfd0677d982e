// proxyPodSubresource: pods/log, pods/exec and pods/portforward, proxied to the pod's kubelet over HTTPS (upgrades passed through byte for byte; SPDY-in-WebSocket port forwarding tunnelled).
import { type IncomingMessage, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { ApiStatusError, badRequest, methodNotAllowed } from '../api-status.ts';
import type { Registry } from '../registry.ts';
import { findResource } from '../resource-table.ts';
import { kubeletRefusal } from './kubelet-refusal.ts';
import { tunnelledSpdyProtocols, tunnelSpdyOverWebSocket } from './spdy-websocket-tunnel.ts';

/** The pod subresources this proxy serves. */
export const POD_PROXY_SUBRESOURCES = ['log', 'exec', 'portforward'] as const;
export type PodProxySubresource = (typeof POD_PROXY_SUBRESOURCES)[number];

/** Whether `subresource` of `resource` in the core group is served by {@link proxyPodSubresource}. */
export function isPodProxySubresource(
  group: string,
  resource: string,
  subresource: string | undefined,
): subresource is PodProxySubresource {
  return (
    group === '' &&
    resource === 'pods' &&
    (POD_PROXY_SUBRESOURCES as readonly string[]).includes(subresource ?? '')
  );
}

/** The log query parameters passed on to the kubelet's /containerLogs. */
const LOG_PARAMS = [
  'follow',
  'previous',
  'sinceSeconds',
  'sinceTime',
  'timestamps',
  'tailLines',
  'limitBytes',
];
/** The exec query parameters passed on to the kubelet's /exec. */
const EXEC_PARAMS = ['command', 'stdin', 'stdout', 'stderr', 'tty'];
/** The port forward query parameters passed on to the kubelet's /portForward. */
const PORT_FORWARD_PARAMS = ['ports'];
/** The address types tried in order (kube-apiserver's default --kubelet-preferred-address-types). */
const ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const DEFAULT_KUBELET_PORT = 10250;

/** Bytes that arrived after an upgrade request's head, kept for the proxy by {@link upgradeListener}. */
const upgradeHeads = new WeakMap<IncomingMessage, Buffer>();
const LISTENING = Symbol('kube-rx.podProxyUpgrade');

/**
 * Makes sure the server that accepted `req` hands upgrade requests (WebSocket exec) to `handler` with
 * a response bound to the raw socket, so they pass through the same authentication and routing as
 * any request. Installed once per server, on its first request; {@link listenForUpgrades} installs it
 * when the server is created, so even a server's very first request may be an upgrade.
 */
export function ensureUpgradeListener(
  req: IncomingMessage,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  const server = (req.socket as Socket & { server?: NodeJS.EventEmitter }).server;
  if (server) listenForUpgrades(server, handler);
}

/** Routes the server's upgrade requests to `handler` (see {@link upgradeListener}); once per server. */
export function listenForUpgrades(
  server: NodeJS.EventEmitter,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  const marked = server as NodeJS.EventEmitter & { [LISTENING]?: boolean };
  if (marked[LISTENING]) return;
  marked[LISTENING] = true;
  server.on('upgrade', upgradeListener(handler));
}

/** An `upgrade` event listener that routes the request to `handler` (see {@link ensureUpgradeListener}). */
export function upgradeListener(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, socket: Socket, head: Buffer) => void {
  return (req, socket, head) => {
    upgradeHeads.set(req, head);
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.once('finish', () => socket.end());
    socket.on('error', () => socket.destroy());
    handler(req, res);
  };
}

interface ProxyTarget {
  registry: Registry;
  namespace: string;
  name: string;
  subresource: PodProxySubresource;
  query: URLSearchParams;
}

/**
 * Serves `pods/log` (GET), `pods/exec` and `pods/portforward` (GET or POST with an Upgrade): finds the pod's node, its
 * address and kubelet port on the Node object, and proxies to the kubelet over HTTPS without
 * verifying its certificate (kube-apiserver's default without --kubelet-certificate-authority).
 * Log output streams as the kubelet writes it; an exec upgrade is relayed both ways until either
 * side closes.
 *
 * @throws ApiStatusError (BadRequest, NotFound, MethodNotAllowed, InternalError) before anything is sent
 */
export async function proxyPodSubresource(
  req: IncomingMessage,
  res: ServerResponse,
  target: ProxyTarget,
): Promise<void> {
  const method = req.method ?? 'GET';
  const { registry, namespace, name, subresource, query } = target;
  if (subresource === 'log' && method !== 'GET') throw methodNotAllowed(method, 'pods/log');
  if (subresource === 'exec' && method !== 'GET' && method !== 'POST')
    throw methodNotAllowed(method, 'pods/exec');
  const podsDef = findResource(registry.table, '', 'v1', 'pods')!;
  const nodesDef = findResource(registry.table, '', 'v1', 'nodes')!;
  const pod = registry.get(podsDef, namespace, name).object as Pod;
  const container = subresource === 'portforward' ? undefined : containerOf(pod, query.get('container'));
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${name} does not have a host assigned`);
  const node = registry.get(nodesDef, undefined, nodeName).object as Node;
  const { host, port } = kubeletEndpoint(node);
  const pass = new URLSearchParams();
  const params = { log: LOG_PARAMS, exec: EXEC_PARAMS, portforward: PORT_FORWARD_PARAMS }[subresource];
  for (const key of params) {
    for (const value of query.getAll(key)) pass.append(key, value);
  }
  const endpoint = { log: 'containerLogs', exec: 'exec', portforward: 'portForward' }[subresource];
  const segments = container === undefined ? [namespace, name] : [namespace, name, container];
  const path = `/${endpoint}/${segments.map(encodeURIComponent).join('/')}?${pass}`;
  if (subresource === 'log') return proxyLogs(res, host, port, path);
  if (!req.headers.upgrade) throw badRequest('Upgrade request required');
  if (
    subresource === 'portforward' &&
    String(req.headers.upgrade).toLowerCase() === 'websocket' &&
    tunnelledSpdyProtocols(req).length > 0
  ) {
    // kubectl 1.31+: SPDY inside WebSocket messages; the kubelet is dialed with a SPDY upgrade
    const head = upgradeHeads.get(req);
    if (!head) throw notRoutingUpgrades();
    return tunnelSpdyOverWebSocket(req, res, head, { host, port, path });
  }
  return proxyUpgrade(req, res, host, port, path);
}

function containerOf(pod: Pod, requested: string | null): string {
  const name = pod.metadata.name ?? '';
  const names = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []),
    ...((pod.spec as { ephemeralContainers?: { name: string }[] } | undefined)?.ephemeralContainers ?? []),
  ].map((c) => c.name);
  if (requested) {
    if (!names.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const main = (pod.spec?.containers ?? []).map((c) => c.name);
  if (main.length === 1) return main[0]!;
  throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`);
}

/**
 * Where a node's kubelet serves: its preferred address (kube-apiserver's default
 * --kubelet-preferred-address-types order, an IP before a Hostname that may not resolve) and
 * `daemonEndpoints.kubeletEndpoint.Port` (10250 when unset).
 * @throws ApiStatusError BadRequest when the node has no usable address
 */
export function kubeletEndpoint(node: Node): { host: string; port: number } {
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port || DEFAULT_KUBELET_PORT;
  return { host: kubeletHost(node), port };
}

function kubeletHost(node: Node): string {
  const addresses = node.status?.addresses ?? [];
  for (const type of ADDRESS_TYPES) {
    // a Hostname address is only usable when it resolves; prefer an IP when the node has one
    if (type === 'Hostname' && addresses.some((a) => a.type === 'InternalIP')) continue;
    const found = addresses.find((a) => a.type === type && a.address);
    if (found) return found.address;
  }
  throw badRequest(`no preferred addresses found; known addresses: []`);
}

/** The server's HTTP parser still owns the socket: relaying over it would corrupt the stream. */
function notRoutingUpgrades(): ApiStatusError {
  return new ApiStatusError(
    503,
    'ServiceUnavailable',
    'the server is not routing upgrade requests yet; retry',
  );
}

function kubeletError(host: string, port: number, path: string, error: Error): ApiStatusError {
  return new ApiStatusError(500, 'InternalError', `Get "https://${host}:${port}${path}": ${error.message}`);
}

function proxyLogs(res: ServerResponse, host: string, port: number, path: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const upstream = httpsRequest(
      { host, port, path, method: 'GET', rejectUnauthorized: false, headers: { Accept: '*/*' } },
      (kres) => {
        if (kres.statusCode !== 200) {
          const chunks: Buffer[] = [];
          kres.on('data', (c: Buffer) => chunks.push(c));
          kres.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8').trim();
            reject(
              kres.statusCode === 404 && /does not exist/.test(text)
                ? new ApiStatusError(404, 'NotFound', text)
                : badRequest(text || `the kubelet answered ${kres.statusCode}`),
            );
          });
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.flushHeaders();
        kres.pipe(res);
        kres.on('end', resolve);
        kres.on('error', () => res.destroy());
      },
    );
    res.once('close', () => upstream.destroy());
    upstream.on('error', (error) => {
      if (res.headersSent) {
        res.destroy();
        resolve();
      } else reject(kubeletError(host, port, path, error));
    });
    upstream.end();
  });
}

/** Headers of the client's upgrade request passed on to the kubelet. */
const UPGRADE_HEADERS = [
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'x-stream-protocol-version',
];

function proxyUpgrade(
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  port: number,
  path: string,
): Promise<void> {
  const client = req.socket;
  const head = upgradeHeads.get(req);
  if (!head) throw notRoutingUpgrades();
  const headers: Record<string, string | string[]> = {};
  for (const key of UPGRADE_HEADERS) {
    const value = req.headers[key];
    if (value !== undefined) headers[key] = value;
  }
  return new Promise<void>((resolve, reject) => {
    const upstream = httpsRequest({ host, port, path, method: 'GET', rejectUnauthorized: false, headers });
    upstream.on('upgrade', (kres: IncomingMessage, kubelet: Socket, khead: Buffer) => {
      // the response object is done with: from here on the two sockets are relayed as they are
      res.detachSocket(client);
      const lines = [`HTTP/1.1 101 Switching Protocols`];
      for (let i = 0; i < kres.rawHeaders.length; i += 2)
        lines.push(`${kres.rawHeaders[i]}: ${kres.rawHeaders[i + 1]}`);
      client.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (khead.length) client.write(khead);
      if (head.length) kubelet.write(head);
      kubelet.pipe(client);
      client.pipe(kubelet);
      const end = () => {
        kubelet.destroy();
        client.destroy();
        resolve();
      };
      kubelet.once('close', end);
      client.once('close', end);
      kubelet.on('error', end);
      client.on('error', end);
    });
    upstream.on('response', (kres) => {
      void kubeletRefusal(kres).then(reject);
    });
    upstream.on('error', (error) => reject(kubeletError(host, port, path, error)));
    upstream.end();
  });
}
