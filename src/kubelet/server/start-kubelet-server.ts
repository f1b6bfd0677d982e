// startKubeletServer: the kubelet's HTTPS server: /healthz, /pods, /containerLogs, /exec (WebSocket channel.k8s.io), /portForward (SPDY or WebSocket) and /metrics/resource.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { cpus, freemem, totalmem } from 'node:os';
import { finished } from 'node:stream/promises';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { InvalidInputError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { criLogOutput, readCriLog } from '../../../streams/runtimes/cri-log.ts';
import type { ContainerRuntime, ContainerStatus, ExecSession } from '../../../streams/runtimes/runtime.ts';
import { servingCertificates } from '../../apiserver/certificates.ts';
import { CHANNEL, decodeChannelFrame, EXEC_SUBPROTOCOLS, encodeChannelFrame } from './channel-frame.ts';
import { execErrorStatus, execStatus } from './exec-status.ts';
import { parseLogQuery } from './log-query.ts';
import { PORT_FORWARD_SUBPROTOCOLS, parsePortForwardPorts, relayPortForward } from './port-forward.ts';
import { type ContainerSample, resourceMetricsText } from './resource-metrics.ts';
import { PORT_FORWARD_PROTOCOL_V1, serveSpdyPortForward } from './spdy-port-forward.ts';

/** The Upgrade token of SPDY connections (kubectl's fallback, and the API server's own dialing). */
const SPDY_UPGRADE = 'SPDY/3.1';

/** Where the kubelet serves (`--port`, `--address`). */
export interface KubeletServerOptions {
  /** The port; 0 picks a free one (see {@link KubeletServer.ready}). Upstream's default is 10250. */
  port: number;
  /** The bind address; default `0.0.0.0`, as the kubelet's `--address`. */
  address?: string;
}

/** What the server reads: the runtime and the pods the kubelet runs. */
export interface KubeletServerDeps extends KubeletServerOptions {
  runtime: ContainerRuntime;
  /** The pods the kubelet runs now (its pod manager's view). */
  pods: () => readonly Pod[];
  logger?: Logger;
}

/** A listening kubelet server. */
export interface KubeletServer {
  /** Resolves with the bound port once listening; rejects when the port cannot be bound. */
  readonly ready: Promise<number>;
  /** Stops listening and ends every open connection (log followers and exec sessions included). */
  close(): Promise<void>;
}

/** Output bytes of one exec stream sent but not yet written to the socket before reading pauses. */
const MAX_IN_FLIGHT_BYTES = 1024 * 1024;

class HttpError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Starts the kubelet's server over HTTPS with a self-signed certificate for the bind address.
 *
 * - `GET /healthz`: `ok`.
 * - `GET /pods`: the kubelet's pods as a v1 PodList.
 * - `GET /containerLogs/{namespace}/{pod}/{container}`: the container's CRI log with `follow`,
 *   `previous`, `tailLines`, `sinceSeconds`, `sinceTime`, `timestamps` and `limitBytes`.
 * - `/exec/{namespace}/{pod}/{container}?command=...&stdin=&stdout=&stderr=&tty=`: a WebSocket
 *   upgrade speaking `v5.channel.k8s.io` or `v4.channel.k8s.io` (SPDY is refused with 400, so
 *   clients that fall back to it get a clear error).
 * - `/portForward/{namespace}/{pod}[/{uid}]`: an `Upgrade: SPDY/3.1` connection speaking
 *   `portforward.k8s.io` (ports in each stream's headers; the API server tunnels kubectl's
 *   SPDY-in-WebSocket to this), or a WebSocket `v4.channel.k8s.io` with `?ports=...`; each relays to
 *   the pod's IP.
 * - `GET /metrics/resource`: node, pod and container CPU and memory from the runtime's stats.
 *
 * Teardown: `close()` ends every connection, killing exec sessions and stopping log followers.
 */
export function startKubeletServer(deps: KubeletServerDeps): KubeletServer {
  const logger = (deps.logger ?? silentLogger).child({ component: 'kubelet-server' });
  const { runtime } = deps;
  const address = deps.address ?? '0.0.0.0';
  const certs = servingCertificates(address);
  const sockets = new Set<Socket>();
  const sessions = new Set<ExecSession>();
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => EXEC_SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  const forwards = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => PORT_FORWARD_SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });

  const findPod = (namespace: string, name: string): Pod => {
    const pod = deps.pods().find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
    if (!pod) throw new HttpError(404, `pod "${name}" does not exist`);
    return pod;
  };
  /** The container's instances on the runtime, newest first. */
  const instances = async (pod: Pod, container: string): Promise<ContainerStatus[]> => {
    const spec = [
      ...(pod.spec?.initContainers ?? []),
      ...(pod.spec?.containers ?? []),
      ...((pod.spec as { ephemeralContainers?: { name: string }[] } | undefined)?.ephemeralContainers ?? []),
    ];
    if (!spec.some((c) => c.name === container)) {
      throw new HttpError(404, `container ${container} is not valid for pod ${pod.metadata.name}`);
    }
    const all = await runtime.listContainers({ podUid: pod.metadata.uid ?? '' });
    return all
      .filter((c) => c.metadata.name === container)
      .sort((a, b) => b.metadata.attempt - a.metadata.attempt || b.createdAt - a.createdAt);
  };

  const serveLogs = async (res: ServerResponse, parts: string[], q: URLSearchParams) => {
    const [namespace, podName, container] = parts;
    if (!namespace || !podName || !container || parts.length !== 3) {
      throw new HttpError(400, 'Bad Request: expected /containerLogs/{podNamespace}/{podID}/{containerName}');
    }
    const query = parseLogQuery(q);
    if (query instanceof InvalidInputError) throw new HttpError(400, query.message);
    const pod = findPod(namespace, podName);
    const found = await instances(pod, container);
    const target = query.previous ? found[1] : found[0];
    if (!target) {
      throw new HttpError(
        400,
        query.previous
          ? `previous terminated container "${container}" in pod "${podName}" not found`
          : `container "${container}" in pod "${podName}" is waiting to start: ContainerCreating`,
      );
    }
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.flushHeaders();
    const follow = query.follow && !query.previous;
    const subscription = readCriLog(target.logPath, {
      tailLines: query.tailLines,
      sinceTime: query.sinceTime,
      sinceSeconds: query.sinceSeconds,
      follow,
      isRunning: async () => {
        const status = await runtime.containerStatus(target.id).catch(() => undefined);
        return status?.state === 'CONTAINER_RUNNING';
      },
    })
      .pipe(criLogOutput({ timestamps: query.timestamps, limitBytes: query.limitBytes }))
      .subscribe({
        next: (bytes) => res.write(bytes),
        error: (error: unknown) => {
          logger.debug({ err: String(error), path: target.logPath }, 'reading the container log failed');
          res.end();
        },
        complete: () => res.end(),
      });
    res.once('close', () => subscription.unsubscribe());
  };

  const serveMetrics = async (res: ServerResponse) => {
    const samples: ContainerSample[] = [];
    for (const pod of deps.pods()) {
      const containers = await runtime.listContainers({
        podUid: pod.metadata.uid ?? '',
        state: 'CONTAINER_RUNNING',
      });
      for (const container of containers) {
        const stats = await runtime.containerStats(container.id).catch(() => undefined);
        if (stats) samples.push({ pod, container, stats });
      }
    }
    const busyMs = cpus().reduce(
      (sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq,
      0,
    );
    const body = resourceMetricsText(
      { cpuUsageSeconds: busyMs / 1000, memoryWorkingSetBytes: totalmem() - freemem(), at: Date.now() },
      samples,
    );
    res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.method !== 'GET' && req.method !== 'HEAD' && parts[0] !== 'exec' && parts[0] !== 'portForward') {
      throw new HttpError(405, `method ${req.method} not allowed`);
    }
    if (url.pathname === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return;
    }
    if (url.pathname === '/pods') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: deps.pods() }));
      return;
    }
    if (parts[0] === 'containerLogs') return serveLogs(res, parts.slice(1), url.searchParams);
    if (url.pathname === '/metrics/resource') return serveMetrics(res);
    if (parts[0] === 'exec' || parts[0] === 'portForward')
      throw new HttpError(400, 'Upgrade request required');
    throw new HttpError(404, '404 page not found');
  };

  const fail = (res: ServerResponse, error: unknown) => {
    const code = error instanceof HttpError ? error.code : 500;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 500) logger.error({ err: message }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`${message}\n`);
  };

  const refuseUpgrade = (socket: Socket, code: number, message: string) => {
    const reason =
      code === 404
        ? 'Not Found'
        : code === 403
          ? 'Forbidden'
          : code === 500
            ? 'Internal Server Error'
            : 'Bad Request';
    const body = `${message}\n`;
    socket.end(
      `HTTP/1.1 ${code} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  const upgrade = async (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] === 'portForward' && (parts.length === 3 || parts.length === 4))
      return upgradePortForward(req, socket, head, parts, url);
    if (parts[0] !== 'exec' || parts.length !== 4) return refuseUpgrade(socket, 404, '404 page not found');
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
      return refuseUpgrade(
        socket,
        400,
        `unable to upgrade: ${req.headers.upgrade ?? 'no'} upgrade is not supported; use WebSocket (${EXEC_SUBPROTOCOLS.join(', ')})`,
      );
    }
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    if (!EXEC_SUBPROTOCOLS.some((p) => offered.includes(p))) {
      return refuseUpgrade(
        socket,
        400,
        `unable to upgrade: none of the subprotocols ${EXEC_SUBPROTOCOLS.join(', ')} was offered`,
      );
    }
    const q = url.searchParams;
    const command = q.getAll('command');
    const flag = (name: string) => q.get(name) === 'true' || q.get(name) === '1';
    const opts = { stdin: flag('stdin'), stdout: flag('stdout'), stderr: flag('stderr'), tty: flag('tty') };
    if (command.length === 0) return refuseUpgrade(socket, 400, 'you must specify at least 1 command');
    if (!opts.stdin && !opts.stdout && !opts.stderr) {
      return refuseUpgrade(socket, 400, 'you must specify at least 1 of stdin, stdout, stderr');
    }
    let target: ContainerStatus | undefined;
    try {
      const pod = findPod(parts[1]!, parts[2]!);
      target = (await instances(pod, parts[3]!)).find((c) => c.state === 'CONTAINER_RUNNING');
    } catch (error) {
      return refuseUpgrade(
        socket,
        error instanceof HttpError ? error.code : 500,
        String((error as Error).message),
      );
    }
    if (!target) return refuseUpgrade(socket, 400, `container not found ("${parts[3]}")`);
    const id = target.id;
    wss.handleUpgrade(req, socket, head, (ws) => {
      void runExec(ws, id, command, opts);
    });
  };

  const upgradePortForward = async (
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
    parts: string[],
    url: URL,
  ) => {
    const upgradeTo = (req.headers.upgrade ?? '').toLowerCase();
    const spdy = upgradeTo === SPDY_UPGRADE.toLowerCase();
    if (!spdy && upgradeTo !== 'websocket') {
      return refuseUpgrade(
        socket,
        400,
        `unable to upgrade: ${req.headers.upgrade ?? 'no'} upgrade is not supported; use ${SPDY_UPGRADE} or WebSocket (${PORT_FORWARD_SUBPROTOCOLS.join(', ')})`,
      );
    }
    // SPDY carries the ports in each stream's headers; the WebSocket channel protocol in the query
    const ports = spdy ? [] : parsePortForwardPorts(url.searchParams);
    if (ports instanceof InvalidInputError) return refuseUpgrade(socket, 400, ports.message);
    if (spdy) {
      const versions = String(req.headers['x-stream-protocol-version'] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      if (versions.length > 0 && !versions.includes(PORT_FORWARD_PROTOCOL_V1)) {
        return refuseUpgrade(
          socket,
          403,
          `unable to upgrade: unable to negotiate protocol: client supports [${versions.join(' ')}], server accepts [${PORT_FORWARD_PROTOCOL_V1}]`,
        );
      }
    }
    let host = '127.0.0.1';
    let pod: Pod;
    try {
      pod = findPod(parts[1]!, parts[2]!);
      if (parts[3] && parts[3] !== pod.metadata.uid)
        throw new HttpError(404, `pod "${parts[2]}" does not exist`);
      const sandboxes = await runtime.listPodSandboxes({
        podUid: pod.metadata.uid ?? '',
        state: 'SANDBOX_READY',
      });
      if (sandboxes.length === 0)
        return refuseUpgrade(socket, 400, `pod "${parts[2]}" has no running sandbox`);
      host = sandboxes[0]!.ip || host;
    } catch (error) {
      return refuseUpgrade(
        socket,
        error instanceof HttpError ? error.code : 500,
        String((error as Error).message),
      );
    }
    const target = { host, podName: pod.metadata.name ?? '', podUid: pod.metadata.uid ?? '', logger };
    if (spdy) {
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${SPDY_UPGRADE}\r\nX-Stream-Protocol-Version: ${PORT_FORWARD_PROTOCOL_V1}\r\n\r\n`,
      );
      if (head.length) socket.unshift(head);
      socket.setNoDelay(true);
      void serveSpdyPortForward(socket, target);
      return;
    }
    forwards.handleUpgrade(req, socket, head, (ws) => relayPortForward(ws, host, ports));
  };

  const runExec = async (
    ws: WebSocket,
    containerId: string,
    command: string[],
    opts: { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean },
  ) => {
    const sendStatus = (status: object) => {
      if (ws.readyState === ws.OPEN) ws.send(encodeChannelFrame(CHANNEL.error, JSON.stringify(status)));
      ws.close(1000);
    };
    let session: ExecSession;
    try {
      session = await runtime.exec(containerId, command, { stdin: opts.stdin, tty: opts.tty });
    } catch (error) {
      sendStatus(
        execErrorStatus(`error executing command [${command.join(' ')}]: ${(error as Error).message}`),
      );
      return;
    }
    sessions.add(session);
    let done = false;
    const forward = (stream: NodeJS.ReadableStream | undefined, channel: number, wanted: boolean) => {
      if (!stream) return Promise.resolve();
      // backpressure: stop reading the command's output while too much waits to go out on the socket
      let inFlight = 0;
      stream.on('data', (chunk: Buffer) => {
        if (!wanted || ws.readyState !== ws.OPEN) return;
        inFlight += chunk.length;
        if (inFlight > MAX_IN_FLIGHT_BYTES) stream.pause();
        ws.send(encodeChannelFrame(channel, chunk), () => {
          inFlight -= chunk.length;
          if (inFlight <= MAX_IN_FLIGHT_BYTES && stream.isPaused()) stream.resume();
        });
      });
      return finished(stream as NodeJS.ReadableStream & import('node:stream').Readable).catch(
        () => undefined,
      );
    };
    session.stdin?.on('error', () => undefined);
    ws.on('message', (message: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      const frame = decodeChannelFrame(message);
      if (frame instanceof InvalidInputError) return;
      if (frame.channel === CHANNEL.stdin) session.stdin?.write(frame.data);
      else if (frame.channel === CHANNEL.resize) {
        try {
          const size = JSON.parse(frame.data.toString('utf8')) as { Width?: number; Height?: number };
          if (size.Width && size.Height) session.resize?.(size.Width, size.Height);
        } catch {
          // a malformed resize is ignored, as the kubelet does
        }
      } else if (frame.channel === CHANNEL.close && frame.data[0] === CHANNEL.stdin) session.stdin?.end();
    });
    ws.on('close', () => {
      if (!done) session.kill();
      sessions.delete(session);
    });
    ws.on('error', () => undefined);
    const outputs = Promise.all([
      forward(session.stdout, CHANNEL.stdout, opts.stdout),
      forward(session.stderr, CHANNEL.stderr, opts.stderr),
    ]);
    const exitCode = await session.exit;
    await outputs;
    done = true;
    sessions.delete(session);
    sendStatus(execStatus(exitCode, command));
  };

  const server: Server = createServer(
    { cert: certs.certPem, key: certs.keyPem, ALPNProtocols: ['http/1.1'] },
    (req, res) => {
      handle(req, res).catch((error: unknown) => fail(res, error));
    },
  );
  server.requestTimeout = 0;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    upgrade(req, socket, head).catch((error: unknown) => refuseUpgrade(socket, 500, String(error)));
  });
  const ready = new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, address, () => {
      server.off('error', reject);
      const bound = server.address();
      const port = typeof bound === 'object' && bound ? bound.port : deps.port;
      logger.info({ address, port }, 'kubelet server listening');
      resolve(port);
    });
  });
  ready.catch((error: unknown) =>
    logger.error({ err: String(error) }, 'the kubelet server could not listen'),
  );

  let closing: Promise<void> | undefined;
  return {
    ready,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const session of sessions) session.kill();
        for (const client of [...wss.clients, ...forwards.clients]) client.terminate();
        wss.close();
        forwards.close();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        if (!server.listening) resolve();
      });
      return closing;
    },
  };
}
