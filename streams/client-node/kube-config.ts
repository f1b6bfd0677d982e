// Loads a kubeconfig with @kubernetes/client-node (file, $KUBECONFIG, in-cluster) into the server URL and request options.
import http from 'node:http';
import https from 'node:https';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { KubeConfig } from '@kubernetes/client-node';
import { InvalidConfigError, KubeRxError } from '../../operators/errors.ts';
import type {
  AsyncRequest,
  HostData,
  HostError,
  LoadRequest,
  OptionsAnswer,
  Outcome,
} from './kube-config-host.ts';
import { loadLightKubeConfig } from './kube-config-light.ts';
import {
  describeKubeConfig,
  type KubeConfigClass,
  type KubeConfigDescription,
  type KubeConfigSource,
  loadKubeConfig,
  type PortableKubeConfigSource,
  resolveRequestOptions,
} from './kube-config-resolve.ts';

export type { KubeConfigSource } from './kube-config-resolve.ts';

/** What the HTTP transport needs, with no secret in any enumerable summary field. */
export interface KubeConnection {
  server: string;
  /** The context's namespace, or `default`. */
  namespace: string;
  /** For logs: context, cluster and user names and the kind of credentials (never their values). */
  summary: { context: string; cluster: string; user: string; auth: string };
  /** TLS and auth options for one request; cached for `authCacheMs`, so rotated tokens are picked up. */
  requestOptions(): Promise<https.RequestOptions>;
  /** Ends the connection: closes its keep-alive sockets and releases its kubeconfig (idempotent). */
  close(): void;
}

export interface KubeConnectionOptions {
  /** How long resolved auth options are reused; default 60 000 ms. */
  authCacheMs?: number;
  /**
   * Where client-node's kubeconfig is read: `'auto'` (default) in this thread with client-node's parsing
   * modules when the user needs no plugin, else in the kubeconfig host; `'host'` always in the host.
   */
  via?: 'auto' | 'host';
}

/**
 * How long the main thread waits for the kubeconfig host to load a kubeconfig. The first load includes the
 * thread's start and client-node's import (~0.4 s here; minutes under valgrind); failures are answered,
 * so this only bounds a host that hangs.
 */
const HOST_TIMEOUT_MS = 300_000;

/** How long the host stays after the last connection left it keeping its options (see `loadKubeConnection`). */
const HOST_LINGER_MS = 10_000;

/** The host's file next to this one: TypeScript in a checkout, JavaScript once built. */
const HOST_URL = new URL(
  `./kube-config-host${new URL(import.meta.url).pathname.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

function fromHost(error: HostError): Error {
  if (error.name === 'InvalidConfigError' && error.field !== undefined) {
    return new InvalidConfigError(error.field, error.detail ?? error.message);
  }
  const out = new KubeRxError(error.code ?? 'KUBE_RX_KUBECONFIG', error.message);
  out.name = error.name;
  return out;
}

/** Buffers come back from the host as plain Uint8Arrays; TLS options want Buffers. */
function asBuffers(opts: https.RequestOptions): https.RequestOptions {
  const fix = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(fix)
      : v instanceof Uint8Array && !Buffer.isBuffer(v)
        ? Buffer.from(v.buffer, v.byteOffset, v.byteLength)
        : v;
  for (const field of ['ca', 'cert', 'key', 'pfx'] as const) {
    if (opts[field] !== undefined) (opts as Record<string, unknown>)[field] = fix(opts[field]);
  }
  return opts;
}

/**
 * The main thread's end of the kubeconfig host (kube-config-host.ts): one worker thread for every
 * connection loaded from a portable source, started with the first and ended with the last `close()`.
 * Loading is synchronous (the caller blocks on a shared flag until the host answers), so that
 * `loadKubeConnection` keeps throwing configuration errors where it is called; request options are
 * asynchronous. The worker never keeps the process alive; its port does while an answer is awaited.
 */
class KubeConfigHost {
  static #current: KubeConfigHost | undefined;

  static get(): KubeConfigHost {
    KubeConfigHost.#current ??= new KubeConfigHost();
    return KubeConfigHost.#current;
  }

  /** Ends the current host as if its thread had died (tests of the recovery). */
  static endCurrent(): void {
    const current = KubeConfigHost.#current;
    if (current) current.#end(new Error('ended on request'));
  }

  /** Whether this host has ended (its last kubeconfig dropped, or its thread gone). */
  get ended(): boolean {
    return this.#ended;
  }

  readonly #worker: Worker;
  readonly #sync: MessagePort;
  readonly #async: MessagePort;
  readonly #flag = new Int32Array(new SharedArrayBuffer(4));
  readonly #loaded = new Set<number>();
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #nextId = 1;
  #ended = false;
  #linger: NodeJS.Timeout | undefined;

  private constructor() {
    const sync = new MessageChannel();
    const async = new MessageChannel();
    this.#sync = sync.port1;
    this.#async = async.port1;
    const data: HostData = { syncPort: sync.port2, asyncPort: async.port2, flag: this.#flag };
    this.#worker = new Worker(HOST_URL, {
      workerData: data,
      transferList: [sync.port2, async.port2],
      name: 'kube-rx kubeconfig host',
      resourceLimits: { maxYoungGenerationSizeMb: 2 },
    });
    this.#worker.unref();
    this.#worker.on('error', (error) => this.#end(error));
    this.#worker.on('exit', (code) => this.#end(new Error(`exited with code ${code}`)));
    this.#async.on('message', (answer: OptionsAnswer) => {
      const waiting = this.#pending.get(answer.request);
      if (!waiting) return;
      this.#pending.delete(answer.request);
      if (this.#pending.size === 0) this.#async.unref();
      if (answer.ok) waiting.resolve(answer.value);
      else waiting.reject(fromHost(answer.error));
    });
    this.#async.unref();
  }

  /** Loads a kubeconfig in the host; returns its id there and what it describes. */
  load(source: PortableKubeConfigSource): { id: number; description: KubeConfigDescription } {
    clearTimeout(this.#linger);
    const id = this.#nextId++;
    const request: LoadRequest = { op: 'load', id, source, env: { ...process.env } };
    Atomics.store(this.#flag, 0, 0);
    this.#sync.postMessage(request);
    const woke = Atomics.wait(this.#flag, 0, 0, HOST_TIMEOUT_MS);
    const received = receiveMessageOnPort(this.#sync);
    if (!received) {
      this.#end(new Error(woke === 'timed-out' ? `no answer in ${HOST_TIMEOUT_MS} ms` : 'no answer'));
      throw new KubeRxError('KUBE_RX_KUBECONFIG_HOST', 'the kubeconfig host thread did not answer');
    }
    const answer = received.message as Outcome;
    if (!answer.ok) {
      if (this.#loaded.size === 0) this.#end();
      throw fromHost(answer.error);
    }
    this.#loaded.add(id);
    return { id, description: answer.value as KubeConfigDescription };
  }

  /** TLS and auth options for one request of the kubeconfig `id`. */
  options(id: number): Promise<https.RequestOptions> {
    if (this.#ended) {
      return Promise.reject(new KubeRxError('KUBE_RX_KUBECONFIG_HOST', 'the kubeconfig host has ended'));
    }
    const request = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.#pending.set(request, { resolve, reject });
      this.#async.ref();
      const message: AsyncRequest = { op: 'options', id, request, env: { ...process.env } };
      this.#async.postMessage(message);
    }).then((opts) => asBuffers(opts as https.RequestOptions));
  }

  /** Forgets the kubeconfig `id`; the host ends with the last one. */
  drop(id: number, linger = false): void {
    if (!this.#loaded.delete(id)) return;
    if (this.#loaded.size > 0 || linger) {
      const message: AsyncRequest = { op: 'drop', id };
      this.#async.postMessage(message);
    }
    if (this.#loaded.size > 0) return;
    if (!linger) {
      this.#end();
      return;
    }
    // Left by a connection that keeps its options: stay a while for the next connection of a process
    // that makes several in a row (starting a host costs a thread and client-node's import), then end.
    clearTimeout(this.#linger);
    this.#linger = setTimeout(() => {
      if (this.#loaded.size === 0) this.#end();
    }, HOST_LINGER_MS);
    this.#linger.unref();
  }

  #end(cause?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#linger);
    if (KubeConfigHost.#current === this) KubeConfigHost.#current = undefined;
    for (const { reject } of this.#pending.values()) {
      reject(new KubeRxError('KUBE_RX_KUBECONFIG_HOST', 'the kubeconfig host has ended', { cause }));
    }
    this.#pending.clear();
    this.#async.close();
    this.#sync.close();
    void this.#worker.terminate();
  }
}

/** A kubeconfig loaded by the caller: client-node is in this thread already, so it is asked here. */
function inThread(kc: KubeConfig): {
  description: KubeConfigDescription;
  options: () => Promise<https.RequestOptions>;
} {
  const Class = kc.constructor as KubeConfigClass;
  return { description: describeKubeConfig(kc), options: () => resolveRequestOptions(kc, Class) };
}

/** An agent through the cluster's proxy, as client-node builds one: SOCKS, or HTTP(S) by the server's scheme. */
async function proxyAgent(server: string, proxyUrl: string, tls: https.RequestOptions): Promise<http.Agent> {
  const agentOptions = {
    ...Object.fromEntries(
      (['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const)
        .filter((k) => tls[k] !== undefined)
        .map((k) => [k, tls[k]]),
    ),
    keepAlive: true,
  };
  if (proxyUrl.startsWith('socks')) {
    const { SocksProxyAgent } = await import('socks-proxy-agent');
    return new SocksProxyAgent(proxyUrl, agentOptions);
  }
  const { HttpProxyAgent, HttpsProxyAgent } = await import('hpagent');
  if (server.startsWith('https')) return new HttpsProxyAgent({ ...agentOptions, proxy: proxyUrl });
  if (server.startsWith('http')) return new HttpProxyAgent({ ...agentOptions, proxy: proxyUrl });
  throw new InvalidConfigError('cluster.proxy-url', `unsupported proxy for server ${server}`);
}

/**
 * Loads a kubeconfig and prepares the connection to its current context's cluster. Authentication and
 * TLS come from client-node's `applyToHTTPSOptions` (tokens, token files, exec and auth-provider
 * plugins, client certificates, CA, skip-verify, TLS server name); requests then go out through node's
 * own keep-alive agent, or a proxy agent when the cluster has a `proxy-url`.
 *
 * A kubeconfig whose user needs no plugin (a token or token file, a client certificate, basic auth, or
 * nothing) is read in this thread with client-node's own parsing modules and never loads client-node's
 * KubeConfig class, whose generated API costs ~60 MB of RSS (kube-config-light.ts). Otherwise (an exec
 * plugin or an azure/gcp/oidc auth provider, or `via: 'host'`) KubeConfig runs in a worker thread (the
 * kubeconfig host) shared by every such connection, so that its generated API stays out of this thread's
 * heap; a `{ from: 'kubeConfig' }` source is asked in this thread, where the caller loaded it. `close()`
 * ends the host with the last connection. Static credentials (inline token, certificate data or basic
 * auth, inline CA; no file, exec plugin or auth provider) are resolved once and kept; a connection with
 * them leaves the host, which ends 10 s after the last connection left.
 *
 * @example
 * const connection = loadKubeConnection({ from: 'file', path: '/etc/kubernetes/admin.conf' });
 * @param source where to read the kubeconfig from
 * @param options how long auth options are cached, and where the kubeconfig is read
 * @returns the connection
 * @throws InvalidConfigError when no cluster or server is configured
 */
export function loadKubeConnection(
  source: KubeConfigSource,
  options: KubeConnectionOptions = {},
): KubeConnection {
  let description: KubeConfigDescription;
  let fetchOptions: () => Promise<https.RequestOptions>;
  let release = () => {};
  let closed = false;
  /** Resolved once for good: static credentials loaded in the host, which is then left. */
  let permanent = false;
  let fromHost = false;
  let leave = () => {};
  const light =
    source.from === 'kubeConfig' || options.via === 'host' ? undefined : loadLightKubeConfig(source);
  if (source.from === 'kubeConfig') {
    const local = inThread(loadKubeConfig(source, source.kubeConfig.constructor as KubeConfigClass));
    description = local.description;
    fetchOptions = local.options;
  } else if (light) {
    description = light.description;
    fetchOptions = light.options;
  } else {
    let host = KubeConfigHost.get();
    let loaded = host.load(source);
    description = loaded.description;
    fetchOptions = async () => {
      if (host.ended) {
        // the host's thread died under this connection: load the same source again in a new one
        host = KubeConfigHost.get();
        loaded = host.load(source);
      }
      return host.options(loaded.id);
    };
    release = () => host.drop(loaded.id);
    leave = () => host.drop(loaded.id, true);
    fromHost = true;
  }
  const { server, proxyUrl } = description;
  const isHttp = server.startsWith('http:');
  let agent: Promise<http.Agent> | undefined = proxyUrl
    ? undefined
    : Promise.resolve(isHttp ? new http.Agent({ keepAlive: true }) : new https.Agent({ keepAlive: true }));
  const authCacheMs = options.authCacheMs ?? 60_000;
  let cached: { at: number; options: Promise<https.RequestOptions> } | undefined;

  const resolve = async (): Promise<https.RequestOptions> => {
    const opts = await fetchOptions();
    if ((fromHost || light) && description.staticCredentials && !closed) {
      // Nothing in them can change: keep them and leave the host, whose thread (client-node and its
      // generated API, ~60 MB of RSS) ends with its last kubeconfig.
      permanent = true;
      leave();
    }
    if (proxyUrl) agent ??= proxyAgent(server, proxyUrl, opts);
    opts.agent = (await agent) as https.Agent;
    return opts;
  };

  return {
    server,
    namespace: description.namespace,
    summary: description.summary,
    requestOptions() {
      if (closed) {
        return Promise.reject(new KubeRxError('KUBE_RX_CLOSED', `the connection to ${server} is closed`));
      }
      const now = Date.now();
      if (!cached || (!permanent && now - cached.at >= authCacheMs)) {
        const options = resolve();
        cached = { at: now, options };
        options.catch(() => {
          if (cached?.options === options) cached = undefined;
        });
      }
      return cached.options;
    },
    close() {
      if (closed) return;
      closed = true;
      release();
      void agent?.then(
        (a) => a.destroy(),
        () => {},
      );
    },
  };
}

/**
 * Ends the kubeconfig host as if its thread had died; connections load their kubeconfig again into a new
 * host on their next request. For tests of that recovery.
 * @internal
 */
export function endKubeConfigHost(): void {
  KubeConfigHost.endCurrent();
}
