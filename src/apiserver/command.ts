// `kube-rx apiserver`: runs the embedded API server until SIGINT or SIGTERM (a second one exits at once).
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { InvalidConfigError } from '../../operators/errors.ts';
import { featureGatesFlag, portFlag } from '../cli/flag-parsers.ts';
import { shutdownSignal } from '../cli/shutdown-signal.ts';
import { createLogger } from '../logging/logger.ts';
import { addEtcdFlags, type EtcdFlags, etcdOptions } from './etcd-flags.ts';
import { KNOWN_FEATURE_GATES, startApiServer } from './index.ts';

/**
 * The `apiserver` subcommand. Once listening it prints one JSON line on stdout,
 * `{"url":"https://127.0.0.1:6443","kubeconfig":"/path/or/null"}`, and logs go to stderr. The first
 * SIGINT/SIGTERM closes the server and exits 0; a second one exits 1 at once.
 * @returns the commander command
 */
export function apiserverCommand(): Command {
  return addEtcdFlags(
    new Command('apiserver')
      .description(
        'Run the embedded Kubernetes API server (a dev and test server in the spirit of envtest and kwok, not kube-apiserver)',
      )
      .option('--port <port>', 'port to listen on (0 picks a free one)', portFlag('--port'), 6443)
      .option('--bind-address <address>', 'address to listen on; non-loopback needs a token', '127.0.0.1')
      .option('--kubeconfig-out <path>', 'write a kubeconfig for kubectl --kubeconfig here')
      .option(
        '--data-dir <dir>',
        'keep objects here in a SQLite database (objects.db, WAL, synced before each answer) and restore them on start; certificates and keys live here too',
      ),
  )
    .option(
      '--token <token>',
      'the admin bearer token (user kube-rx-admin in system:masters) the kubeconfig carries; generated when absent',
    )
    .option('--token-file <path>', 'read the admin bearer token from this file')
    .option(
      '--token-auth-file <path>',
      'static tokens as kube-apiserver reads them: a CSV of token,user,uid,"group1,group2"',
    )
    .option(
      '--anonymous-auth [bool]',
      'requests without credentials become system:anonymous (only /healthz, /livez, /readyz, /version unless RBAC grants more); off: 401',
      (v: string) => v !== 'false',
      false,
    )
    .option(
      '--insecure-allow-unauthenticated',
      'INSECURE: requests without credentials get full access (every Secret included)',
      false,
    )
    .option(
      '--authorization-mode <modes>',
      'comma list of authorizers tried in order: RBAC (system:masters always allowed), AlwaysAllow',
      'RBAC',
    )
    .option(
      '--plain-http',
      'serve plain HTTP (loopback only); clients must still send the admin token, and kubectl sends none over plain HTTP (it needs --insecure-allow-unauthenticated there)',
      false,
    )
    .option(
      '--builtin-namespace-controllers [bool]',
      "do the namespace and serviceaccount controllers' work in the server, for a server run without kube-controller-manager: a deleted namespace is emptied and removed at once, every namespace gets a default ServiceAccount; false: as kube-apiserver, a deleted namespace stays Terminating until a namespace controller finalizes it",
      (v: string) => v !== 'false',
      true,
    )
    .option('--bookmark-interval <ms>', 'period of watch bookmarks in milliseconds', (v) => Number(v), 10_000)
    .option(
      '--feature-gates <gates>',
      `key=value pairs of feature gates (known: ${Object.keys(KNOWN_FEATURE_GATES).join(', ')})`,
      featureGatesFlag('--feature-gates', KNOWN_FEATURE_GATES),
    )
    .action(
      async (
        opts: EtcdFlags & {
          port: number;
          bindAddress: string;
          kubeconfigOut?: string;
          dataDir?: string;
          token?: string;
          tokenFile?: string;
          tokenAuthFile?: string;
          anonymousAuth: boolean;
          insecureAllowUnauthenticated: boolean;
          authorizationMode: string;
          plainHttp: boolean;
          builtinNamespaceControllers: boolean;
          bookmarkInterval: number;
          featureGates?: Record<string, boolean>;
        },
      ) => {
        const logger = createLogger().child({ command: 'apiserver' });
        const etcd = etcdOptions(opts);
        if (opts.token && opts.tokenFile)
          throw new InvalidConfigError('--token-file', 'give either --token or --token-file');
        let token = opts.token;
        if (opts.tokenFile) {
          try {
            token = readFileSync(opts.tokenFile, 'utf8').trim();
          } catch (error) {
            throw new InvalidConfigError('--token-file', `cannot read ${opts.tokenFile}`, { cause: error });
          }
        }
        const server = await startApiServer({
          port: opts.port,
          bindAddress: opts.bindAddress,
          dataDir: opts.dataDir,
          ...etcd,
          token,
          ...(opts.tokenAuthFile ? { tokenAuthFile: opts.tokenAuthFile } : {}),
          anonymousAuth: opts.anonymousAuth,
          insecureAllowUnauthenticated: opts.insecureAllowUnauthenticated,
          authorizationMode: opts.authorizationMode,
          plainHttp: opts.plainHttp,
          builtinNamespaceControllers: opts.builtinNamespaceControllers,
          bookmarkIntervalMs: opts.bookmarkInterval,
          ...(opts.featureGates ? { featureGates: opts.featureGates } : {}),
          logger,
        });
        if (opts.kubeconfigOut) await server.writeKubeconfig(opts.kubeconfigOut);
        process.stdout.write(
          `${JSON.stringify({ url: server.url, kubeconfig: opts.kubeconfigOut ?? null })}\n`,
        );
        const shutdown = shutdownSignal(process, undefined, logger);
        try {
          await shutdown.requested;
          await server.close();
        } finally {
          shutdown.dispose();
        }
      },
    );
}
