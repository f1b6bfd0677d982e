// The embedded API server's entry: starts HTTPS (or loopback HTTP) over storage in memory, SQLite or etcd.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { ElectionTiming } from '../../operators/coordinated-election.ts';
import { InvalidConfigError } from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { coordinatedElectionController } from '../leader-election/coordinated-election-controller.ts';
import { type AuthOptions, serverAuth } from './auth/server-auth.ts';
import { storedServiceAccountVerifier } from './auth/stored-service-account-verifier.ts';
import { loadServiceAccountKeys } from './builtin/service-account-token.ts';
import { clientCertificate, servingCertificates } from './certificates.ts';
import { startCrdController } from './crd/crd-controller.ts';
import { openApiSchemaSink } from './crd/openapi-schema-sink.ts';
import { createApiHandler } from './http-handler.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import { listenForUpgrades } from './proxy/pod-proxy.ts';
import { Registry } from './registry.ts';
import { RESOURCES, type ResourceDef } from './resource-table.ts';
import { openStorage } from './storage/open-storage.ts';
import type { ActiveWatch } from './watch-stream.ts';

export interface ApiServerOptions extends AuthOptions {
  /** TCP port; 0 (the default here) picks a free one. The CLI defaults to 6443. */
  port?: number;
  /** Address to listen on; default 127.0.0.1. A non-loopback address needs `token`. */
  bindAddress?: string;
  /**
   * The SQLite database of objects (`objects.db`, WAL mode, every write synced before its answer;
   * an old `objects.jsonl` journal is migrated once), certificates and keys live here.
   */
  dataDir?: string;
  /**
   * etcd v3 client URLs, as kube-apiserver's `--etcd-servers`: objects live there instead of the
   * data dir, and several API servers on one etcd see each other's writes.
   */
  etcdServers?: readonly string[];
  /** Key prefix in etcd, as kube-apiserver's `--etcd-prefix`; default `/registry`. */
  etcdPrefix?: string;
  /** Period of etcd compaction in ms, as `--etcd-compaction-interval`; default 5 minutes, 0 off. */
  etcdCompactionIntervalMs?: number;
  /** PEM CA that signed etcd's serving certificate, as `--etcd-cafile` (an https etcd). */
  etcdCaFile?: string;
  /** PEM client certificate and key for etcd's client-certificate authentication (`--etcd-certfile`, `--etcd-keyfile`). */
  etcdCertFile?: string;
  etcdKeyFile?: string;
  /** Serve plain HTTP instead of HTTPS; only allowed on a loopback address. */
  plainHttp?: boolean;
  logger?: Logger;
  /** Period of BOOKMARK events on watches that allow them; default 10,000 ms. */
  bookmarkIntervalMs?: number;
  /** How many past events a watch (or exact list, or continue token) can reach back over; default 10,000. */
  historyWindow?: number;
  /** Bytes queued for one watcher above which it is closed as too slow; default 16 MiB. */
  maxWatchBufferedBytes?: number;
  /**
   * Ends every watch after this many seconds (clients then rewatch from their last rv), as
   * kube-apiserver's request timeout does; default: watches live until their own timeoutSeconds.
   */
  maxWatchSeconds?: number;
  /** The resource table; default {@link RESOURCES}. */
  resources?: readonly ResourceDef[];
  /**
   * Feature gates, as kube-apiserver's `--feature-gates`. Known: `CoordinatedLeaderElection` (default
   * false), which runs the coordinated leader election controller over a loopback client.
   */
  featureGates?: Readonly<Record<string, boolean>>;
  /** Election duration and requeue period of the coordinated leader election controller (tests shorten them). */
  coordinatedElectionTiming?: Partial<ElectionTiming>;
  /**
   * For a server run without kube-controller-manager: do the namespace and serviceaccount controllers' work
   * in the server (a deleted namespace is emptied and removed at once; every namespace gets its `default`
   * ServiceAccount back whenever it is deleted). Default false, as kube-apiserver: a deleted namespace stays
   * Terminating until the namespace controller has emptied it and called `finalize`, and `default`
   * accounts come from the serviceaccount controller (the system namespaces get theirs at start either way).
   */
  builtinNamespaceControllers?: boolean;
}

/** The feature gates the embedded API server knows, with their defaults. */
export const KNOWN_FEATURE_GATES: Readonly<Record<string, boolean>> = Object.freeze({
  CoordinatedLeaderElection: false,
});

export interface RunningApiServer {
  /** `https://127.0.0.1:PORT` (or `http://` with plainHttp). */
  url: string;
  /** The CA certificate (PEM) the kubeconfig carries; empty with plainHttp. */
  caPem: string;
  /**
   * The admin bearer token (user `kube-rx-admin` in `system:masters`) the kubeconfig carries;
   * always set (typed optional for callers that pass a server without one).
   */
  token: string | undefined;
  /** The authorization modes in effect, in order. */
  authorizationModes: readonly string[];
  /**
   * A client certificate and key (PEM) signed by the server CA for `user` in `groups` (CN and O);
   * throws with plainHttp, which has no CA.
   */
  clientCertificate(user: string, groups?: readonly string[]): { certPem: string; keyPem: string };
  /**
   * The cluster CA's certificate and key (PEM), which kube-controller-manager's CSR signer signs with
   * (`--cluster-signing-cert-file`/`--cluster-signing-key-file`); undefined with plainHttp.
   */
  clusterSigning: { certPem: string; keyPem: string } | undefined;
  /** A kubeconfig (YAML) that kubectl and @kubernetes/client-node use unchanged. */
  kubeconfig: string;
  writeKubeconfig(path: string): Promise<void>;
  /** Stops listening, ends every watch, closes the storage. */
  close(): Promise<void>;
}

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}

/** Makes the data dir and everything in it readable by its owner only (0700 dir, 0600 files). */
function ownerOnly(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const path = `${dir}/${name}`;
    const stat = statSync(path);
    if (stat.isFile() && (stat.mode & 0o077) !== 0) chmodSync(path, 0o600);
  }
}

/**
 * Starts the embedded API server: a development and test server in the spirit of envtest and kwok,
 * real enough for kubectl and @kubernetes/client-node, not a replacement for kube-apiserver.
 *
 * Example:
 * ```ts
 * const server = await startApiServer();
 * await server.writeKubeconfig('/tmp/kubeconfig'); // kubectl --kubeconfig /tmp/kubeconfig get pods
 * await server.close();
 * ```
 * Teardown: `close()` ends every watch, closes every connection and the journal.
 * @param options see {@link ApiServerOptions}
 * @returns the running server
 * @throws InvalidConfigError for plain HTTP on a non-loopback address, a bad port, a bad token file or authorization mode
 */
export async function startApiServer(options: ApiServerOptions = {}): Promise<RunningApiServer> {
  const bindAddress = options.bindAddress ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidConfigError('port', `must be 0..65535, got ${port}`);
  const loopback = isLoopback(bindAddress);
  if (options.plainHttp && !loopback) {
    throw new InvalidConfigError(
      'plainHttp',
      `plain HTTP is only allowed on a loopback address, not ${bindAddress}`,
    );
  }
  // Off loopback the admin token must be one the operator chose, not one only the kubeconfig knows.
  if (!loopback && !options.token) {
    throw new InvalidConfigError(
      'token',
      `binding to the non-loopback address ${bindAddress} requires a bearer token`,
    );
  }
  if (options.token !== undefined && !/^[\x21-\x7e]+$/.test(options.token)) {
    throw new InvalidConfigError('token', 'must be non-empty printable ASCII without spaces');
  }
  for (const gate of Object.keys(options.featureGates ?? {})) {
    if (!(gate in KNOWN_FEATURE_GATES)) {
      throw new InvalidConfigError('featureGates', `unrecognized feature gate: ${gate}`);
    }
  }
  const gates = { ...KNOWN_FEATURE_GATES, ...options.featureGates };
  const log = (options.logger ?? silentLogger).child({ component: 'apiserver' });
  if (options.dataDir) ownerOnly(options.dataDir);
  const storage = await openStorage({
    historyWindow: options.historyWindow,
    dataDir: options.dataDir,
    etcdServers: options.etcdServers,
    etcdPrefix: options.etcdPrefix,
    etcdCompactionIntervalMs: options.etcdCompactionIntervalMs,
    etcdCaFile: options.etcdCaFile,
    etcdCertFile: options.etcdCertFile,
    etcdKeyFile: options.etcdKeyFile,
    logger: log,
  });
  const store = storage.store;
  // the service-account signing key lives in the data dir (0600), so tokens verify across restarts
  const registry = new Registry(store, options.resources ?? RESOURCES, {
    serviceAccountKeys: loadServiceAccountKeys(options.dataDir),
    builtinNamespaceControllers: options.builtinNamespaceControllers === true,
  });
  registry.bootstrap();
  // The apiextensions controllers: CRDs become Established and served, their schemas reach OpenAPI.
  const crdController = registry.table.some((d) => d.group === 'apiextensions.k8s.io')
    ? startCrdController(registry, { logger: log, schemas: openApiSchemaSink(registry) })
    : undefined;
  await storage.settled();
  crdController?.resync(); // CRDs a storage engine loaded late

  const auth = serverAuth(
    {
      ...options,
      verifyServiceAccountToken:
        options.verifyServiceAccountToken ??
        storedServiceAccountVerifier(() => registry.serviceAccountKeys, store),
    },
    store,
    options.dataDir,
    log,
  );
  const certs = options.plainHttp ? undefined : servingCertificates(bindAddress, options.dataDir);
  if (options.dataDir) ownerOnly(options.dataDir);
  const watches = new Set<ActiveWatch>();
  let address = '';
  const apiHandler = createApiHandler({
    registry,
    store,
    log,
    token: auth.adminToken,
    auth,
    serverAddress: () => address,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 10_000,
    maxWatchBufferedBytes: options.maxWatchBufferedBytes ?? 16 * 1024 * 1024,
    maxWatchSeconds: options.maxWatchSeconds,
    watches,
  });
  const handler = storage.holdResponses(apiHandler);
  const server: Server = certs
    ? createHttpsServer(
        {
          cert: certs.certPem,
          key: certs.keyPem,
          ALPNProtocols: ['http/1.1'],
          // Ask for a client certificate; the x509 authenticator checks it chains to the CA.
          ca: certs.caPem,
          requestCert: true,
          rejectUnauthorized: false,
        },
        handler,
      )
    : createHttpServer(handler);
  // upgrade requests (kubectl exec, port-forward) go through the same handler, from the very first request
  listenForUpgrades(server, apiHandler);
  // Every TCP socket, including ones still in their TLS handshake, so close() can end them all.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 60_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bindAddress, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address();
  const actualPort = typeof bound === 'object' && bound ? bound.port : port;
  const host = bindAddress === '0.0.0.0' ? '127.0.0.1' : bindAddress === '::' ? '::1' : bindAddress;
  address = `${isIP(host) === 6 ? `[${host}]` : host}:${actualPort}`;
  const url = `${certs ? 'https' : 'http'}://${address}`;
  const kubeconfig = kubeconfigYaml({ url, caPem: certs?.caPem, token: auth.adminToken });
  log.info({ url }, 'listening');

  // Controllers kube-apiserver runs itself, over a loopback client as its own do.
  const controllers: { stop(): void }[] = [];
  if (gates.CoordinatedLeaderElection) {
    const loopback = kubeApiClient({
      kubeConfig: { from: 'string', yaml: kubeconfig },
      qps: Number.POSITIVE_INFINITY,
    });
    const sub = coordinatedElectionController({
      client: loopback,
      logger: log,
      ...(options.coordinatedElectionTiming ? { timing: options.coordinatedElectionTiming } : {}),
    }).subscribe({
      error: (err: unknown) => log.error({ err }, 'the coordinated leader election controller stopped'),
    });
    controllers.push({
      stop: () => {
        sub.unsubscribe();
        loopback.close();
      },
    });
    log.info('started the coordinated leader election controller');
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    caPem: certs?.caPem ?? '',
    token: auth.adminToken,
    authorizationModes: auth.modes,
    clusterSigning: certs?.caKeyPem ? { certPem: certs.caPem, keyPem: certs.caKeyPem } : undefined,
    clientCertificate: (user, groups = []) => {
      if (!certs?.caKeyPem)
        throw new InvalidConfigError(
          'plainHttp',
          'a plain HTTP server has no CA to sign client certificates',
        );
      return clientCertificate({ caPem: certs.caPem, caKeyPem: certs.caKeyPem }, user, groups);
    },
    kubeconfig,
    writeKubeconfig: (path) => writeFile(path, kubeconfig, { mode: 0o600 }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const c of controllers) c.stop();
        crdController?.stop();
        for (const w of [...watches]) w.close();
        server.close(() => {
          registry.stop(); // no more mirrored Events: the storage closes now
          storage.close().then(
            () => {
              log.info({ url }, 'stopped');
              resolve();
            },
            (err: unknown) => {
              log.error({ err }, 'closing storage failed');
              resolve();
            },
          );
        });
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
