// Loads a kubeconfig with @kubernetes/client-node (file, $KUBECONFIG, in-cluster) into the server URL and request options.
import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { InvalidConfigError } from '../../operators/errors.ts';

/** Where the kubeconfig comes from. */
export type KubeConfigSource =
  /** client-node's default: `$KUBECONFIG` (paths merged), then `~/.kube/config`, then in-cluster. */
  | { from: 'default'; context?: string }
  | { from: 'file'; path: string; context?: string }
  | { from: 'string'; yaml: string; context?: string }
  /**
   * In-cluster: `$KUBERNETES_SERVICE_HOST`/`$KUBERNETES_SERVICE_PORT` and the service-account token,
   * CA and namespace under `<pathPrefix>/var/run/secrets/kubernetes.io/serviceaccount`.
   */
  | { from: 'cluster'; pathPrefix?: string }
  /** A KubeConfig already loaded by the caller. */
  | { from: 'kubeConfig'; kubeConfig: KubeConfig; context?: string };

/** What the HTTP transport needs, with no secret in any enumerable summary field. */
export interface KubeConnection {
  server: string;
  /** The context's namespace, or `default`. */
  namespace: string;
  /** For logs: context, cluster and user names and the kind of credentials (never their values). */
  summary: { context: string; cluster: string; user: string; auth: string };
  /** TLS and auth options for one request; cached for `authCacheMs`, so rotated tokens are picked up. */
  requestOptions(): Promise<https.RequestOptions>;
  /** Closes idle keep-alive sockets. */
  close(): void;
}

export interface KubeConnectionOptions {
  /** How long resolved auth options are reused; default 60 000 ms. */
  authCacheMs?: number;
}

function load(source: KubeConfigSource): KubeConfig {
  if (source.from === 'kubeConfig') return source.kubeConfig;
  const kc = new KubeConfig();
  switch (source.from) {
    case 'default':
      kc.loadFromDefault();
      break;
    case 'file':
      kc.loadFromFile(source.path);
      break;
    case 'string':
      kc.loadFromString(source.yaml);
      break;
    case 'cluster':
      if (!process.env.KUBERNETES_SERVICE_HOST || !process.env.KUBERNETES_SERVICE_PORT) {
        throw new InvalidConfigError(
          'KUBERNETES_SERVICE_HOST',
          'not running in a cluster: $KUBERNETES_SERVICE_HOST and $KUBERNETES_SERVICE_PORT must be set',
        );
      }
      kc.loadFromCluster(source.pathPrefix);
      break;
  }
  return kc;
}

/**
 * Loads a kubeconfig and prepares the connection to its current context's cluster. Authentication and
 * TLS come from client-node's `applyToHTTPSOptions` (tokens, token files, exec and auth-provider
 * plugins, client certificates, CA, skip-verify, TLS server name); requests then go out through node's
 * own keep-alive agent unless the cluster has a proxy.
 *
 * @example
 * const connection = loadKubeConnection({ from: 'file', path: '/etc/kubernetes/admin.conf' });
 * @param source where to read the kubeconfig from
 * @param options how long auth options are cached
 * @returns the connection
 * @throws InvalidConfigError when no cluster or server is configured
 */
export function loadKubeConnection(
  source: KubeConfigSource,
  options: KubeConnectionOptions = {},
): KubeConnection {
  const kc = load(source);
  if ('context' in source && source.context) kc.setCurrentContext(source.context);
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) {
    throw new InvalidConfigError(
      'cluster.server',
      `the current context "${kc.getCurrentContext()}" has no cluster server`,
    );
  }
  const user = kc.getCurrentUser();
  const context = kc.getContextObject(kc.getCurrentContext());
  const isHttp = cluster.server.startsWith('http:');
  const agent = cluster.proxyUrl
    ? undefined
    : isHttp
      ? new http.Agent({ keepAlive: true })
      : new https.Agent({ keepAlive: true });
  const authCacheMs = options.authCacheMs ?? 60_000;
  let cached: { at: number; options: Promise<https.RequestOptions> } | undefined;

  const resolve = async (): Promise<https.RequestOptions> => {
    const opts: https.RequestOptions = {};
    if (isHttp && !cluster.skipTLSVerify) {
      // client-node refuses plain http unless skip-verify is set; honour the URL as kubectl does.
      const probe = new KubeConfig();
      probe.loadFromClusterAndUser({ ...cluster, skipTLSVerify: true }, user ?? { name: 'anonymous' });
      await probe.applyToHTTPSOptions(opts);
    } else {
      await kc.applyToHTTPSOptions(opts);
    }
    if (agent) opts.agent = agent as https.Agent;
    return opts;
  };

  const auth = user?.token
    ? 'token'
    : user?.authProvider
      ? `auth-provider ${user.authProvider.name}`
      : user?.exec
        ? 'exec'
        : user?.certData || user?.certFile
          ? 'client-certificate'
          : user?.username
            ? 'basic'
            : 'none';

  return {
    server: cluster.server,
    namespace: context?.namespace?.trim() || 'default',
    summary: { context: kc.getCurrentContext(), cluster: cluster.name, user: user?.name ?? '', auth },
    requestOptions() {
      const now = Date.now();
      if (!cached || now - cached.at >= authCacheMs) {
        const options = resolve();
        cached = { at: now, options };
        options.catch(() => {
          if (cached?.options === options) cached = undefined;
        });
      }
      return cached.options;
    },
    close() {
      agent?.destroy();
    },
  };
}
