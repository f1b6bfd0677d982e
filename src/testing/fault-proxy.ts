// A seeded fault-injection HTTP(S) proxy that sits between a client and an API server: cuts, stalls, 429s, 5xx, 410s, split and malformed lines.
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { InvalidConfigError } from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import { failureStatus } from '../apiserver/api-status.ts';
import { servingCertificates } from '../apiserver/certificates.ts';
import { kubeconfigYaml } from '../apiserver/kubeconfig.ts';
import {
  type FaultKind,
  type FaultPlan,
  type ProxiedRequest,
  pickFault,
  REQUEST_FAULTS,
  type ResolvedFaultPlan,
  STREAM_FAULTS,
  validateFaultPlan,
} from './fault-plan.ts';
import { derivedRandom, randomInt, type SeededRandom } from './fault-random.ts';

/** Where the proxy forwards to. */
export interface FaultProxyUpstream {
  /** `https://127.0.0.1:PORT` or `http://...`. */
  url: string;
  /** The CA (PEM) that signed the upstream's certificate; needed for a self-signed https upstream. */
  caPem?: string;
  /** Bearer token put in the proxy's kubeconfig (the proxy forwards the client's headers unchanged). */
  token?: string;
}

/** Options of {@link startFaultProxy}. */
export interface FaultProxyConfig {
  upstream: FaultProxyUpstream;
  /** Seed of every random decision; the n-th request always draws the same numbers. */
  seed: number;
  /** The faults; default none (a faithful proxy). Change it later with `setPlan`. */
  plan?: FaultPlan;
  /**
   * Speak TLS to the client: `true` (the default for an https upstream) uses a certificate from the
   * embedded API server's certificate helper, or pass your own PEMs.
   */
  tls?: boolean | { certPem: string; keyPem: string; caPem: string };
  /** Port on 127.0.0.1; default 0 (a free one). */
  port?: number;
  /** Faults are logged here at info, with the request number, method, path and line number. */
  logger?: Logger;
  /** How many injected faults `injected` keeps (the oldest are dropped); default 10 000. */
  maxRecorded?: number;
  /** Called as each fault is injected (a throw is logged and ignored). */
  onFault?: (fault: InjectedFault) => void;
}

/** One injected fault, as `injected` lists it. */
export interface InjectedFault {
  kind: FaultKind;
  request: number;
  method: string;
  path: string;
  /** For stream faults on a watch: the number of the line (1-based) the fault hit. */
  line?: number;
}

/** A running proxy. */
export interface FaultProxy {
  /** `https://127.0.0.1:PORT` (or `http://` without TLS). */
  readonly url: string;
  /** The CA the client must trust; empty without TLS. */
  readonly caPem: string;
  /** A kubeconfig pointing at the proxy, usable by kube-rx, kubectl and @kubernetes/client-node. */
  readonly kubeconfig: string;
  /** The faults injected so far, oldest first (bounded by `maxRecorded`). */
  readonly injected: readonly InjectedFault[];
  /** How many faults of each kind were injected so far. */
  counts(): Record<FaultKind, number>;
  /** Requests seen so far. */
  requests(): number;
  /**
   * Requests seen so far by kind: `watch` (the streaming watch-list included), `watchList` (those
   * asking for the initial events), `list` (any other GET), `other`.
   */
  requestKinds(): { watch: number; watchList: number; list: number; other: number };
  /** Replaces the plan for requests that arrive from now on and lines sent from now on. */
  setPlan(plan: FaultPlan): void;
  /** Stops listening and destroys every open connection, upstream request and timer. */
  close(): Promise<void>;
}

/** Response headers that describe the upstream's framing and must not be copied. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'proxy-connection',
  'upgrade',
  'trailer',
  'te',
]);

function isWatchRequest(path: string): boolean {
  const [pathname, query = ''] = path.split('?', 2) as [string, string?];
  if (/\/watch\//.test(pathname)) return true;
  const watch = new URLSearchParams(query).get('watch');
  return watch === 'true' || watch === '1';
}

function statusBody(code: number, reason: string, message: string, retryAfterSeconds?: number): string {
  const details = retryAfterSeconds === undefined ? undefined : { retryAfterSeconds };
  return JSON.stringify(failureStatus(code, reason, message, details));
}

/** A line a real server could not have sent: one of several kinds of breakage, chosen by `random`. */
function malformedLine(line: Buffer, random: SeededRandom): Buffer {
  const text = line.toString('utf8').replace(/\n$/, '');
  switch (randomInt(random, 0, 4)) {
    case 0: // truncated JSON, then a newline
      return Buffer.concat([
        line.subarray(0, randomInt(random, 1, Math.max(1, line.length - 2))),
        Buffer.from('\n'),
      ]);
    case 1:
      return Buffer.from('<html><body>502 Bad Gateway</body></html>\n');
    case 2: // valid JSON, not a watch event
      return Buffer.from(`${JSON.stringify({ kind: 'Status', status: 'Success', garbled: text.length })}\n`);
    case 3: // a watch event whose object lost its metadata
      return Buffer.from(`${JSON.stringify({ type: 'MODIFIED', object: { kind: 'ConfigMap' } })}\n`);
    default: // an unknown event type
      return Buffer.from(`${JSON.stringify({ type: 'CHANGED', object: JSON.parse(safeJson(text)) })}\n`);
  }
}

function safeJson(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return '{}';
  }
}

function expiredEventLine(): Buffer {
  const status = failureStatus(410, 'Expired', 'too old resource version (injected by the fault proxy)');
  return Buffer.from(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
}

/** How many objects a list body holds (0 when it is not a list). */
function itemCount(body: Buffer): number {
  try {
    const items = (JSON.parse(body.toString('utf8')) as { items?: unknown }).items;
    return Array.isArray(items) ? items.length : 0;
  } catch {
    return 0;
  }
}

/** Random cut positions inside `length` bytes, ascending, 1 to 3 of them. */
function splitPoints(length: number, random: SeededRandom): number[] {
  if (length < 2) return [];
  const count = randomInt(random, 1, Math.min(3, length - 1));
  const points = new Set<number>();
  for (let i = 0; i < count; i++) points.add(randomInt(random, 1, length - 1));
  return [...points].sort((a, b) => a - b);
}

/**
 * Starts a fault-injection proxy on 127.0.0.1 in front of an API server. Every request gets its own
 * generator derived from the seed and the request's number, so a seed reproduces the same decisions
 * for the same sequence of requests. Requests the plan does not apply to, and answers other than 2xx,
 * pass through untouched (except request faults, which never reach the upstream).
 *
 * @example
 * const server = await startApiServer();
 * const proxy = await startFaultProxy({ upstream: server, seed: 7, plan: FAULT_PLANS.heavy });
 * const client = kubeApiClient({ kubeConfig: { from: 'string', yaml: proxy.kubeconfig } });
 * // ... run your controller against `client`, then:
 * await proxy.close();
 *
 * Teardown: `close()` stops listening, destroys every client connection and upstream request and
 * clears every timer; held (hung, stalled) requests end with their connections.
 * @param config upstream, seed, plan, TLS, port, logger
 * @returns the running proxy
 * @throws InvalidConfigError for a bad plan, seed, port or upstream URL
 */
export async function startFaultProxy(config: FaultProxyConfig): Promise<FaultProxy> {
  if (!Number.isFinite(config.seed)) {
    throw new InvalidConfigError('faultProxy.seed', `must be a finite number, got ${config.seed}`);
  }
  let upstreamUrl: URL;
  try {
    upstreamUrl = new URL(config.upstream.url);
  } catch (error) {
    throw new InvalidConfigError('faultProxy.upstream.url', `not a URL: ${config.upstream.url}`, {
      cause: error,
    });
  }
  if (upstreamUrl.protocol !== 'http:' && upstreamUrl.protocol !== 'https:') {
    throw new InvalidConfigError(
      'faultProxy.upstream.url',
      `must be http or https, got ${upstreamUrl.protocol}`,
    );
  }
  const port = config.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidConfigError('faultProxy.port', `must be 0..65535, got ${port}`);
  }
  let plan: ResolvedFaultPlan = validateFaultPlan(config.plan ?? {});
  const seed = config.seed;
  const log = (config.logger ?? silentLogger).child({ component: 'faultProxy', seed });
  const maxRecorded = config.maxRecorded ?? 10_000;

  const upstreamTls = upstreamUrl.protocol === 'https:';
  const upstreamLib = upstreamTls ? https : http;
  const agent = upstreamTls
    ? new https.Agent({ keepAlive: true, ...(config.upstream.caPem ? { ca: config.upstream.caPem } : {}) })
    : new http.Agent({ keepAlive: true });

  const tlsOption = config.tls ?? upstreamTls;
  const certs =
    tlsOption === false ? undefined : tlsOption === true ? servingCertificates('127.0.0.1') : tlsOption;

  const injected: InjectedFault[] = [];
  const counts = Object.fromEntries([...REQUEST_FAULTS, ...STREAM_FAULTS].map((k) => [k, 0])) as Record<
    FaultKind,
    number
  >;
  let requestCount = 0;
  const kinds = { watch: 0, watchList: 0, list: 0, other: 0 };
  let closed = false;
  const sockets = new Set<Socket>();
  /** Per request: a function that ends it at once (destroys upstream request, clears its timers). */
  const live = new Set<() => void>();

  const record = (fault: InjectedFault) => {
    counts[fault.kind]++;
    injected.push(fault);
    if (injected.length > maxRecorded) injected.splice(0, injected.length - maxRecorded);
    log.info({ ...fault }, `injecting ${fault.kind}`);
    try {
      config.onFault?.(fault);
    } catch (error) {
      log.error({ err: error }, 'onFault threw');
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const index = ++requestCount;
    if (closed) {
      req.socket.destroy();
      return;
    }
    const random = derivedRandom(seed, index);
    const active = plan;
    const path = req.url ?? '/';
    const info: ProxiedRequest = { index, method: req.method ?? 'GET', path, watch: isWatchRequest(path) };
    if (info.watch) {
      kinds.watch++;
      if (/[?&]sendInitialEvents=true(&|$)/.test(path)) kinds.watchList++;
    } else if (info.method === 'GET') kinds.list++;
    else kinds.other++;
    let applies = false;
    try {
      applies = active.applies(info);
    } catch (error) {
      log.error({ err: error, request: index }, 'faultPlan.applies threw; passing the request through');
    }

    let finished = false;
    const timers = new Set<NodeJS.Timeout>();
    const wakers = new Set<() => void>();
    let upstreamReq: http.ClientRequest | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      live.delete(finish);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const w of [...wakers]) w();
      wakers.clear();
      upstreamReq?.destroy();
    };
    live.add(finish);
    res.on('close', finish);
    req.on('error', () => {});
    res.on('error', () => {});

    /** Waits `ms`; resolves false when the request ended meanwhile. */
    const pause = (ms: number) =>
      new Promise<boolean>((resolve) => {
        if (finished) return resolve(false);
        const done = () => {
          clearTimeout(t);
          timers.delete(t);
          wakers.delete(done);
          resolve(!finished);
        };
        const t = setTimeout(done, ms);
        timers.add(t);
        wakers.add(done);
      });
    /** Waits until the request ends (a stall that never resumes). */
    const holdForever = () =>
      new Promise<void>((resolve) => {
        if (finished) return resolve();
        wakers.add(resolve);
      });
    const note = (kind: FaultKind, line?: number) =>
      record({ kind, request: index, method: info.method, path, ...(line === undefined ? {} : { line }) });
    const destroy = () => {
      res.socket?.destroy();
      finish();
    };
    const write = async (chunk: Buffer): Promise<boolean> => {
      if (finished || res.destroyed) return false;
      if (res.write(chunk)) return true;
      return new Promise<boolean>((resolve) => {
        const done = () => {
          wakers.delete(done);
          res.off('drain', done);
          resolve(!finished);
        };
        res.once('drain', done);
        wakers.add(done);
      });
    };
    const writeSplit = async (chunk: Buffer): Promise<boolean> => {
      let from = 0;
      for (const at of splitPoints(chunk.length, random)) {
        if (!(await write(chunk.subarray(from, at)))) return false;
        from = at;
        // A short real pause, so the pieces leave as separate TCP segments and TLS records.
        if (!(await pause(1))) return false;
      }
      return write(chunk.subarray(from));
    };

    const respondStatus = (code: number, reason: string, retryAfter?: number) => {
      const body = statusBody(code, reason, `injected by the fault proxy (request ${index})`, retryAfter);
      const headers: Record<string, string | number> = {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      };
      if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
      res.writeHead(code, headers);
      res.end(body);
    };

    const forward = async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (finished) return;
      const headers: IncomingHttpHeaders = { ...req.headers, host: upstreamUrl.host };
      delete headers.connection;
      delete headers['keep-alive'];
      const body = Buffer.concat(chunks);
      if (body.length > 0) headers['content-length'] = String(body.length);
      const basePath = upstreamUrl.pathname.replace(/\/+$/, '');
      const upReq = upstreamLib.request({
        protocol: upstreamUrl.protocol,
        hostname: upstreamUrl.hostname.replace(/^\[|\]$/g, ''),
        port: upstreamUrl.port || (upstreamTls ? 443 : 80),
        method: info.method,
        path: `${basePath}${path}`,
        headers,
        agent,
      });
      upstreamReq = upReq;
      upReq.on('error', (error) => {
        if (finished) return;
        log.debug({ request: index, err: error.message }, 'upstream failed; dropping the client connection');
        destroy();
      });
      upReq.on('response', (upRes) => {
        if (finished) {
          upRes.destroy();
          return;
        }
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(upRes.headers)) {
          if (v !== undefined && !HOP_HEADERS.has(k)) out[k] = v;
        }
        const ok = (upRes.statusCode ?? 0) >= 200 && (upRes.statusCode ?? 0) < 300;
        res.writeHead(upRes.statusCode ?? 502, out);
        res.flushHeaders();
        upRes.on('error', () => {});
        const relay = !applies || !ok ? relayPlain(upRes) : info.watch ? relayWatch(upRes) : relayBody(upRes);
        relay.then(
          () => {},
          (error: unknown) => {
            log.debug({ request: index, err: (error as Error).message }, 'relay failed');
            destroy();
          },
        );
      });
      upReq.end(body.length > 0 ? body : undefined);
    };

    /** Copies the body unchanged; an upstream that breaks mid-body breaks the client's connection too. */
    const relayPlain = async (upRes: IncomingMessage) => {
      for await (const chunk of upRes) if (!(await write(chunk as Buffer))) return;
      if (!upRes.complete) return destroy();
      if (!finished) res.end();
    };

    /** A whole non-watch body, with at most one stream fault. */
    const relayBody = async (upRes: IncomingMessage) => {
      const chunks: Buffer[] = [];
      for await (const chunk of upRes) chunks.push(chunk as Buffer);
      if (finished) return;
      if (!upRes.complete) return destroy();
      const body = Buffer.concat(chunks);
      let fault: ReturnType<typeof pickFault<(typeof STREAM_FAULTS)[number]>>;
      /** Per-item draws: where in the body the fault happens (the drawn object's place). */
      let at: number | undefined;
      if (active.listFaultsPerItem) {
        const items = Math.max(1, itemCount(body));
        for (let i = 0; i < items && fault === undefined; i++) {
          fault = pickFault(active.stream, STREAM_FAULTS, random);
          if (fault) at = Math.floor((body.length * i) / items);
        }
      } else {
        fault = pickFault(active.stream, STREAM_FAULTS, random);
      }
      const cutPoint = (min: number) => at ?? randomInt(random, min, Math.max(min, body.length - 1));
      switch (fault) {
        case 'cut':
          note(fault);
          await write(body.subarray(0, cutPoint(0)));
          return destroy();
        case 'stallForever':
          note(fault);
          await write(body.subarray(0, cutPoint(0)));
          return holdForever();
        case 'stall': {
          note(fault);
          const from = at ?? 0;
          if (from > 0 && !(await write(body.subarray(0, from)))) return;
          if (!(await pause(randomInt(random, active.stallMs[0], active.stallMs[1])))) return;
          if (await write(body.subarray(from))) res.end();
          return;
        }
        case 'malformed':
          note(fault);
          await write(body.subarray(0, Math.max(1, cutPoint(1))));
          if (!finished) res.end();
          return;
        case 'split':
          note(fault);
          if (await writeSplit(body)) res.end();
          return;
        default: // cleanEnd and expire only make sense on watches
          break;
      }
      if (await write(body)) res.end();
    };

    /** A watch body line by line, each line with at most one stream fault (drawn under the plan of the moment). */
    const relayWatch = async (upRes: IncomingMessage) => {
      let pending: Buffer = Buffer.alloc(0);
      let lineNo = 0;
      for await (const chunk of upRes) {
        if (finished) return;
        pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
        let newline = pending.indexOf(0x0a);
        while (newline >= 0) {
          const line = pending.subarray(0, newline + 1);
          pending = pending.subarray(newline + 1);
          lineNo++;
          const current = plan;
          const fault = pickFault(current.stream, STREAM_FAULTS, random);
          if (fault) note(fault, lineNo);
          switch (fault) {
            case 'cut':
              await write(line.subarray(0, randomInt(random, 0, line.length - 1)));
              return destroy();
            case 'cleanEnd':
              if (!finished) res.end();
              upRes.destroy();
              return finish();
            case 'expire':
              if (await write(expiredEventLine())) res.end();
              upRes.destroy();
              return finish();
            case 'stallForever':
              upRes.destroy();
              return holdForever();
            case 'stall':
              if (!(await pause(randomInt(random, current.stallMs[0], current.stallMs[1])))) return;
              if (!(await write(line))) return;
              break;
            case 'malformed':
              if (!(await write(malformedLine(line, random)))) return;
              break;
            case 'split':
              if (!(await writeSplit(line))) return;
              break;
            default:
              if (!(await write(line))) return;
          }
          newline = pending.indexOf(0x0a);
        }
      }
      if (finished) return;
      if (!upRes.complete) return destroy();
      if (pending.length > 0) await write(pending);
      if (!finished) res.end();
    };

    const start = async () => {
      if (applies) {
        const fault = pickFault(active.request, REQUEST_FAULTS, random);
        if (fault) note(fault);
        switch (fault) {
          case 'dropBeforeHeaders':
            return destroy();
          case 'hang':
            return holdForever();
          case 'tooManyRequests':
            return respondStatus(429, 'TooManyRequests', active.retryAfterSeconds);
          case 'serverError':
            return respondStatus(500, 'InternalError');
          case 'unavailable':
            return respondStatus(503, 'ServiceUnavailable');
          case 'delay':
            if (!(await pause(randomInt(random, active.delayMs[0], active.delayMs[1])))) return;
            break;
          default:
            break;
        }
      }
      await forward();
    };

    start().catch((error: unknown) => {
      log.debug({ request: index, err: (error as Error).message }, 'request failed');
      destroy();
    });
  };

  const server = certs
    ? https.createServer({ cert: certs.certPem, key: certs.keyPem, ALPNProtocols: ['http/1.1'] }, handle)
    : http.createServer(handle);
  server.keepAliveTimeout = 60_000;
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  server.on(certs ? 'secureConnection' : 'connection', track);
  if (certs) server.on('connection', track);
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const url = `${certs ? 'https' : 'http'}://127.0.0.1:${boundPort}`;
  const caPem = certs?.caPem ?? '';
  const kubeconfig = kubeconfigYaml({
    url,
    ...(caPem ? { caPem } : {}),
    ...(config.upstream.token ? { token: config.upstream.token } : {}),
    name: 'kube-rx-fault-proxy',
  });
  log.debug({ url, upstream: config.upstream.url }, 'fault proxy listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    caPem,
    kubeconfig,
    injected,
    counts: () => ({ ...counts }),
    requests: () => requestCount,
    requestKinds: () => ({ ...kinds }),
    setPlan: (next) => {
      plan = validateFaultPlan(next);
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        for (const end of [...live]) end();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        agent.destroy();
      });
      return closing;
    },
  };
}
