// What a loaded client-node KubeConfig tells the HTTP transport: its cluster, and the TLS and auth options of one request.
// Works on an instance handed in, so that it runs where the instance lives: the kubeconfig host thread, or
// the caller's thread for a KubeConfig the caller loaded.
import type https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
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
  /** A KubeConfig already loaded by the caller (client-node then lives in the caller's thread). */
  | { from: 'kubeConfig'; kubeConfig: KubeConfig; context?: string };

/** A source that can be sent to another thread: everything but a loaded KubeConfig. */
export type PortableKubeConfigSource = Exclude<KubeConfigSource, { from: 'kubeConfig' }>;

/** The current context's cluster as the transport needs it; plain data, so it crosses threads. */
export interface KubeConfigDescription {
  server: string;
  /** The context's namespace, or `default`. */
  namespace: string;
  /** For logs: context, cluster and user names and the kind of credentials (never their values). */
  summary: { context: string; cluster: string; user: string; auth: string };
  /** The cluster's proxy (`proxy-url`), when it has one. */
  proxyUrl?: string;
  /**
   * The request options can never change: credentials and CA are inline (a token, certificate data,
   * basic auth, or none), with no file, exec plugin or auth provider to read again.
   */
  staticCredentials: boolean;
}

/** The constructor of client-node's KubeConfig, passed in so this module never loads client-node itself. */
export type KubeConfigClass = new () => KubeConfig;

/**
 * Loads a kubeconfig into a new KubeConfig (or takes the caller's) and selects the context.
 * @throws InvalidConfigError in-cluster outside a cluster; client-node's own errors for unreadable files
 */
export function loadKubeConfig(source: KubeConfigSource, Class: KubeConfigClass): KubeConfig {
  const kc = source.from === 'kubeConfig' ? source.kubeConfig : new Class();
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
  if ('context' in source && source.context) kc.setCurrentContext(source.context);
  return kc;
}

/**
 * The current context's cluster, namespace and kind of credentials.
 * @throws InvalidConfigError when the context has no cluster server
 */
export function describeKubeConfig(kc: KubeConfig): KubeConfigDescription {
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) {
    throw new InvalidConfigError(
      'cluster.server',
      `the current context "${kc.getCurrentContext()}" has no cluster server`,
    );
  }
  const user = kc.getCurrentUser();
  const context = kc.getContextObject(kc.getCurrentContext());
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
  const staticCredentials =
    !user?.exec && !user?.authProvider && !user?.certFile && !user?.keyFile && !cluster.caFile;
  return {
    server: cluster.server,
    staticCredentials,
    namespace: context?.namespace?.trim() || 'default',
    summary: { context: kc.getCurrentContext(), cluster: cluster.name, user: user?.name ?? '', auth },
    ...(cluster.proxyUrl ? { proxyUrl: cluster.proxyUrl } : {}),
  };
}

/**
 * TLS and auth options for one request from client-node's `applyToHTTPSOptions` (tokens, token files,
 * exec and auth-provider plugins, client certificates, CA, skip-verify, TLS server name), without the
 * agent client-node builds: the caller keeps its own.
 */
export async function resolveRequestOptions(
  kc: KubeConfig,
  Class: KubeConfigClass,
): Promise<https.RequestOptions> {
  const opts: https.RequestOptions = {};
  const cluster = kc.getCurrentCluster();
  if (cluster?.server.startsWith('http:') && !cluster.skipTLSVerify) {
    // client-node refuses plain http unless skip-verify is set; honour the URL as kubectl does.
    const probe = new Class();
    probe.loadFromClusterAndUser(
      { ...cluster, skipTLSVerify: true },
      kc.getCurrentUser() ?? { name: 'anonymous' },
    );
    await probe.applyToHTTPSOptions(opts);
  } else {
    await kc.applyToHTTPSOptions(opts);
  }
  delete opts.agent;
  return opts;
}
