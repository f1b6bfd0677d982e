// clusterOrEmbedded: a component's cluster from --kubeconfig/--master, or the embedded API server started for it (--port, --data-dir, --kubeconfig-out).
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Logger } from '../../operators/logger.ts';
import type { KubeConfigSource } from '../../streams/client-node/kube-config.ts';
import { type ApiServerOptions, type RunningApiServer, startApiServer } from '../apiserver/index.ts';
import { portFlag } from './flag-parsers.ts';
import { kubeConfigSource } from './kube-config-source.ts';

/** Adds the embedded API server's flags a component uses when it is given no cluster. */
export function embeddedApiServerFlags(command: Command): Command {
  return command
    .option(
      '--port <port>',
      'the embedded API server port, without --kubeconfig (0 picks a free one)',
      portFlag('--port'),
      6443,
    )
    .option('--data-dir <dir>', 'persist the embedded API server here')
    .option(
      '--kubeconfig-out <path>',
      "where the embedded server's kubeconfig is written",
      '.kube-rx/kubeconfig',
    );
}

/** Where a component connects: the source, the embedded server when one was started, the kubeconfig path. */
export interface ClusterConnection {
  source: KubeConfigSource;
  embedded?: RunningApiServer;
  /** The kubeconfig file kubectl can use: the one given, or the embedded server's. */
  kubeconfigPath?: string;
}

/**
 * The cluster named by `--kubeconfig`/`--master`, or, with neither, the embedded API server started on
 * `--port` (with `--data-dir`), its kubeconfig written to `--kubeconfig-out`. The caller closes `embedded`.
 * @param builtinNamespaceControllers whether the embedded server empties deleted namespaces and creates
 *   `default` service accounts itself: true for a component that does not run those controllers
 */
export async function clusterOrEmbedded(
  flags: { kubeconfig?: string; master?: string; port: number; dataDir?: string; kubeconfigOut: string },
  logger: Logger,
  builtinNamespaceControllers: NonNullable<ApiServerOptions['builtinNamespaceControllers']>,
): Promise<ClusterConnection> {
  const source = await kubeConfigSource(flags.kubeconfig, flags.master);
  if (source) return { source, ...(flags.kubeconfig ? { kubeconfigPath: flags.kubeconfig } : {}) };
  const embedded = await startApiServer({
    port: flags.port,
    dataDir: flags.dataDir,
    builtinNamespaceControllers,
    logger,
  });
  const kubeconfigPath = resolve(flags.kubeconfigOut);
  await mkdir(dirname(kubeconfigPath), { recursive: true });
  await embedded.writeKubeconfig(kubeconfigPath);
  return { source: { from: 'string', yaml: embedded.kubeconfig }, embedded, kubeconfigPath };
}
