// The `kube-rx pod-config` command: runs the kubelet's pod config from its flags and prints each update as a JSON line.
import { Command } from 'commander';
import { connect, merge, type Observable, tap } from 'rxjs';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import { sourcesReady } from '../../operators/pod-config/sources-ready.ts';
import type { Pod, PodConfigMode } from '../../operators/pod-config/types.ts';
import type { ListWatchFn } from '../../streams/pod-sources/apiserver.ts';
import type { ListerWatcher } from '../../streams/ports.ts';
import { shutdownSignal } from '../cli/shutdown-signal.ts';
import { createLogger } from '../logging/logger.ts';
import { kubeletPodConfig } from './kubelet-pod-config.ts';
import { addPodSourceOptions, type PodSourceFlags, podSourceOptions } from './pod-source-flags.ts';

/** What the command needs from outside; everything has a default except the API server adapter. */
export interface PodConfigCommandDeps {
  /** Builds the pods' ListerWatcher from `--kubeconfig`; without it `--kubeconfig` is refused. */
  apiserverFromKubeconfig?: (kubeconfig: string) => {
    listerWatcher: ListerWatcher<Pod>;
    listWatch?: ListWatchFn;
  };
  /** Where the JSON lines go; default process.stdout. */
  stdout?: { write(line: string): unknown };
  logger?: Logger;
  /** Stops the command; default the first SIGINT/SIGTERM (a second one exits 1 at once). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

interface Flags extends PodSourceFlags {
  kubeconfig?: string;
  mode: string;
}

/**
 * `kube-rx pod-config`: runs the file, HTTP and API server pod sources through the mux and prints
 * one JSON line `{"op":...,"source":...,"pods":[...]}` per update on stdout; logs go to stderr.
 * @param deps the API server adapter and I/O, injectable for tests
 * @returns the command
 */
export function podConfigCommand(deps: PodConfigCommandDeps = {}): Command {
  return addPodSourceOptions(
    new Command('pod-config').description(
      "run the kubelet's pod configuration (file, HTTP and API server sources) and print each update",
    ),
  )
    .option('--kubeconfig <path>', 'watch the pods bound to this node on the API server')
    .option('--mode <mode>', 'Incremental, Snapshot or SnapshotAndUpdates', 'Incremental')
    .action(async (flags: Flags) => {
      await runPodConfig(flags, deps);
    });
}

async function runPodConfig(flags: Flags, deps: PodConfigCommandDeps): Promise<void> {
  const logger = deps.logger ?? createLogger();
  const stdout = deps.stdout ?? process.stdout;
  if (!['Incremental', 'Snapshot', 'SnapshotAndUpdates'].includes(flags.mode)) {
    throw new InvalidConfigError('--mode', `unknown mode ${JSON.stringify(flags.mode)}`);
  }
  const sourceOptions = podSourceOptions(flags);
  const nodeName = sourceOptions.nodeName;
  let apiserver: ReturnType<NonNullable<PodConfigCommandDeps['apiserverFromKubeconfig']>> | undefined;
  if (flags.kubeconfig) {
    if (!deps.apiserverFromKubeconfig) {
      throw new InvalidConfigError('--kubeconfig', 'the API server pod source is not wired in this build');
    }
    apiserver = deps.apiserverFromKubeconfig(flags.kubeconfig);
  }
  if (!flags.podManifestPath && !flags.manifestUrl && !apiserver) {
    throw new InvalidConfigError(
      '--pod-manifest-path',
      'give at least one source: --pod-manifest-path, --manifest-url or --kubeconfig',
    );
  }
  const { updates$, sources } = kubeletPodConfig({
    ...sourceOptions,
    apiserver,
    mode: flags.mode as PodConfigMode,
    fetch: deps.fetch,
    logger,
  });
  logger.info({ nodeName, sources }, 'pod config started');
  const run$: Observable<unknown> = updates$.pipe(
    connect((shared) =>
      merge(
        shared.pipe(tap((update) => stdout.write(`${JSON.stringify(update)}\n`))),
        shared.pipe(
          sourcesReady(sources),
          tap(() => logger.info({ sources }, 'all pod sources ready')),
        ),
      ),
    ),
  );
  // without an injected signal: the first SIGINT/SIGTERM stops, a second exits at once
  const shutdown = deps.signal ? undefined : shutdownSignal(process, undefined, logger);
  const signal = deps.signal ?? shutdown!.signal;
  try {
    await new Promise<void>((resolve, reject) => {
      const stop = () => {
        subscription.unsubscribe();
        resolve();
      };
      const cleanup = () => signal.removeEventListener('abort', stop);
      const subscription = run$.subscribe({
        error: (error) => {
          cleanup();
          reject(error);
        },
        complete: () => {
          cleanup();
          resolve();
        },
      });
      if (subscription.closed) return;
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  } finally {
    shutdown?.dispose();
  }
}
