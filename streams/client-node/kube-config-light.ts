// Loads a kubeconfig in the caller's thread with client-node's own parsing modules, for users that need no plugin.
//
// client-node's KubeConfig class imports its whole generated API (~60 MB of RSS), which is why it runs in a
// worker thread (kube-config-host.ts). Most kubeconfigs need none of it: their user has a token, a token file,
// a client certificate or basic auth. For those, this module reads the file as KubeConfig does (the same
// YAML library, client-node's own `config_types` for the entries and its `FileAuth` for token files) and
// gives the transport the same request options `applyToHTTPSOptions` would, without loading the class.
// A user with an exec plugin or an auth provider (azure, gcp, oidc, ...) is left to the host.
import fs from 'node:fs';
import type https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import {
  type Cluster,
  type Context,
  newClusters,
  newContexts,
  newUsers,
  type User,
} from '@kubernetes/client-node/dist/config_types.js';
import { FileAuth } from '@kubernetes/client-node/dist/file_auth.js';
import { load as parseYaml } from 'js-yaml';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { KubeConfigDescription, PortableKubeConfigSource } from './kube-config-resolve.ts';

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** A kubeconfig's entries, as client-node's KubeConfig holds them. */
interface Entries {
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  currentContext: string;
}

/** The auth providers client-node answers with a class of its own before FileAuth is asked. */
const PLUGIN_AUTH_PROVIDERS = new Set(['azure', 'gcp', 'oidc']);

function fromString(text: string): Entries {
  const obj = (parseYaml(text) ?? {}) as Record<string, unknown>;
  return {
    clusters: newClusters(obj.clusters),
    contexts: newContexts(obj.contexts),
    users: newUsers(obj.users),
    currentContext: obj['current-context'] as string,
  };
}

/** Relative CA, certificate and key paths are relative to the kubeconfig's own directory. */
function fromFile(file: string): Entries {
  const entries = fromString(fs.readFileSync(file).toString('utf-8'));
  const dir = path.dirname(file);
  const absolute = (p: string | undefined) => (p && !path.isAbsolute(p) ? path.join(dir, p) : p);
  for (const c of entries.clusters) c.caFile = absolute(c.caFile);
  for (const u of entries.users) {
    u.certFile = absolute(u.certFile);
    u.keyFile = absolute(u.keyFile);
  }
  return entries;
}

/** Later files add entries; a name seen twice is client-node's "Duplicate ..." error. */
function merge(into: Entries, more: Entries): void {
  if (more.currentContext) into.currentContext = more.currentContext;
  const add = <T extends { name: string }>(list: T[], items: T[], what: string) => {
    for (const item of items) {
      if (list.some((x) => x.name === item.name)) throw new Error(`Duplicate ${what}: ${item.name}`);
      list.push(item);
    }
  };
  add(into.clusters, more.clusters, 'cluster');
  add(into.users, more.users, 'user');
  add(into.contexts, more.contexts, 'context');
}

function inCluster(pathPrefix = ''): Entries {
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw new InvalidConfigError(
      'KUBERNETES_SERVICE_HOST',
      'not running in a cluster: $KUBERNETES_SERVICE_HOST and $KUBERNETES_SERVICE_PORT must be set',
    );
  }
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const serverHost = net.isIPv6(host) ? `[${host}]` : host;
  const namespaceFile = `${pathPrefix}${SERVICE_ACCOUNT_DIR}/namespace`;
  const namespace = fs.existsSync(namespaceFile)
    ? fs.readFileSync(namespaceFile).toString('utf-8')
    : undefined;
  return {
    clusters: [
      {
        name: 'inCluster',
        caFile: `${pathPrefix}${SERVICE_ACCOUNT_DIR}/ca.crt`,
        server: `${scheme}://${serverHost}:${port}`,
        skipTLSVerify: false,
      },
    ],
    users: [
      {
        name: 'inClusterUser',
        authProvider: {
          name: 'tokenFile',
          config: { tokenFile: `${pathPrefix}${SERVICE_ACCOUNT_DIR}/token` },
        },
      },
    ],
    contexts: [
      {
        cluster: 'inCluster',
        name: 'inClusterContext',
        user: 'inClusterUser',
        ...(namespace === undefined ? {} : { namespace }),
      },
    ],
    currentContext: 'inClusterContext',
  };
}

/** client-node's loadFromDefault on Linux and macOS: $KUBECONFIG's files merged, ~/.kube/config, in-cluster, localhost. */
function fromDefault(): Entries {
  const files = (process.env.KUBECONFIG ?? '').split(path.delimiter).filter((f) => f);
  if (files.length > 0) {
    const entries = fromFile(files[0]!);
    for (const file of files.slice(1)) merge(entries, fromFile(file));
    return entries;
  }
  const home = process.env.HOME;
  if (home) {
    let readable = false;
    try {
      fs.accessSync(home);
      readable = true;
    } catch {
      // client-node ignores an inaccessible $HOME
    }
    const config = path.join(home, '.kube', 'config');
    if (readable && fs.existsSync(config)) return fromFile(config);
  }
  if (fs.existsSync(`${SERVICE_ACCOUNT_DIR}/token`)) return inCluster();
  return {
    clusters: [{ name: 'cluster', server: 'http://localhost:8080', skipTLSVerify: false }],
    users: [{ name: 'user' }],
    contexts: [{ name: 'loaded-context', cluster: 'cluster', user: 'user' }],
    currentContext: 'loaded-context',
  };
}

/** A kubeconfig loaded in this thread: what it describes, and the request options of its current context. */
export interface LightKubeConfig {
  readonly description: KubeConfigDescription;
  options(): Promise<https.RequestOptions>;
}

const fileOrData = (file: string | undefined, data: string | undefined): Buffer | undefined =>
  file ? fs.readFileSync(file) : data ? Buffer.from(data, 'base64') : undefined;

/**
 * Loads the source in this thread when its current user needs no plugin; `undefined` when it does (an exec
 * plugin, an azure/gcp/oidc auth provider, or a Windows default lookup), so the caller loads it in the host.
 * Errors are client-node's, thrown where KubeConfig would throw them, plus InvalidConfigError for a context
 * without a cluster server (the same as describeKubeConfig).
 */
export function loadLightKubeConfig(source: PortableKubeConfigSource): LightKubeConfig | undefined {
  if (source.from === 'default' && process.platform === 'win32') return undefined;
  const entries =
    source.from === 'default'
      ? fromDefault()
      : source.from === 'file'
        ? fromFile(source.path)
        : source.from === 'string'
          ? fromString(source.yaml)
          : inCluster(source.pathPrefix);
  if ('context' in source && source.context) entries.currentContext = source.context;
  const context = entries.contexts.find((c) => c.name === entries.currentContext);
  const cluster = context ? entries.clusters.find((c) => c.name === context.cluster) : undefined;
  const user = context ? entries.users.find((u) => u.name === context.user) : undefined;
  const provider = user?.authProvider as { name?: string; config?: { tokenFile?: string } } | undefined;
  const tokenFile = provider?.config?.tokenFile;
  if (user?.exec || (provider && (PLUGIN_AUTH_PROVIDERS.has(provider.name ?? '') || !tokenFile))) {
    return undefined;
  }
  if (!cluster?.server) {
    throw new InvalidConfigError(
      'cluster.server',
      `the current context "${entries.currentContext}" has no cluster server`,
    );
  }
  const auth = user?.token
    ? 'token'
    : provider
      ? `auth-provider ${provider.name}`
      : user?.certData || user?.certFile
        ? 'client-certificate'
        : user?.username
          ? 'basic'
          : 'none';
  const description: KubeConfigDescription = {
    server: cluster.server,
    staticCredentials: !provider && !user?.certFile && !user?.keyFile && !cluster.caFile,
    namespace: context?.namespace?.trim() || 'default',
    summary: { context: entries.currentContext, cluster: cluster.name, user: user?.name ?? '', auth },
    ...(cluster.proxyUrl ? { proxyUrl: cluster.proxyUrl } : {}),
  };
  const fileAuth = tokenFile ? new FileAuth() : undefined;
  return {
    description,
    // What client-node's applyToHTTPSOptions sets, for a user with no plugin. A plain http server is
    // honoured as kubectl does (resolveRequestOptions does the same for the host's KubeConfig).
    async options() {
      const opts: https.RequestOptions = {};
      if (!user) return opts;
      opts.headers = {};
      if (cluster.skipTLSVerify || cluster.server.startsWith('http:')) opts.rejectUnauthorized = false;
      if (cluster.tlsServerName) opts.servername = cluster.tlsServerName;
      const ca = fileOrData(cluster.caFile, cluster.caData);
      if (ca) opts.ca = ca;
      const cert = fileOrData(user.certFile, user.certData);
      if (cert) opts.cert = cert;
      const key = fileOrData(user.keyFile, user.keyData);
      if (key) opts.key = key;
      const headers = opts.headers as Record<string, string>;
      if (user.impersonateUser != null) headers['Impersonate-User'] = user.impersonateUser;
      if (fileAuth) await fileAuth.applyAuthentication(user, opts as never);
      if (user.token) headers.Authorization = `Bearer ${user.token}`;
      if (user.username) opts.auth = `${user.username}:${user.password}`;
      return opts;
    },
  };
}
