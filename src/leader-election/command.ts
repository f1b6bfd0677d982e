// `kube-rx leader-elect`: campaigns for a Lease, prints each leadership change, releases it on SIGTERM.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Command } from 'commander';
import { lastValueFrom, tap } from 'rxjs';
import type { Logger } from '../../operators/logger.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { type LeaseClient, leaseClient } from '../../streams/lease-client.ts';
import { goDurationFlag, positiveNumberFlag } from '../cli/flag-parsers.ts';
import { type SignalSource, shutdownSignal } from '../cli/shutdown-signal.ts';
import { createLogger } from '../logging/logger.ts';
import { leaderElection } from './leader-election.ts';

/** What the command talks to; tests inject their own. */
export interface LeaderElectDeps {
  /** Lease API; default built from `--kubeconfig` (or the default loading rules). */
  client?: LeaseClient;
  /** Where change lines go; default stdout. */
  out?: { write(line: string): unknown };
  /** Where SIGINT/SIGTERM come from; default `process`. */
  signals?: SignalSource;
  /** Called on a second signal; default `process.exit(1)`. */
  exitNow?: () => void;
  logger?: Logger;
}

/**
 * The `leader-elect` subcommand: one JSON line per change on stdout (`{"leading":true,"identity":...}`).
 * The first SIGINT/SIGTERM stops leading, releases the lease and exits 0; a second one exits at once.
 * @param deps injected client, output and signal source (tests)
 * @returns the commander command
 */
export function leaderElectCommand(deps: LeaderElectDeps = {}): Command {
  return new Command('leader-elect')
    .description('Campaign for a coordination.k8s.io/v1 Lease and print leadership changes (client-go rules)')
    .requiredOption('--lease-name <name>', 'name of the Lease used as the lock')
    .option('--lease-namespace <namespace>', 'namespace of the Lease', 'kube-system')
    .option('--identity <id>', 'this candidate’s identity (default: hostname_uuid)')
    .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--lease-duration <d>', 'lease duration', goDurationFlag('--lease-duration'), 15_000)
    .option('--renew-deadline <d>', 'renew deadline', goDurationFlag('--renew-deadline'), 10_000)
    .option('--retry-period <d>', 'retry period', goDurationFlag('--retry-period'), 2_000)
    .option(
      '--kube-api-qps <qps>',
      'writes per second to the API server',
      positiveNumberFlag('--kube-api-qps'),
      5,
    )
    .option(
      '--kube-api-burst <n>',
      'write burst to the API server',
      positiveNumberFlag('--kube-api-burst'),
      10,
    )
    .action(
      async (opts: {
        leaseName: string;
        leaseNamespace: string;
        identity?: string;
        kubeconfig?: string;
        leaseDuration: number;
        renewDeadline: number;
        retryPeriod: number;
        kubeApiQps: number;
        kubeApiBurst: number;
      }) => {
        const logger = (deps.logger ?? createLogger()).child({ command: 'leader-elect' });
        const identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
        const api = deps.client
          ? undefined
          : kubeApiClient({
              kubeConfig: opts.kubeconfig ? { from: 'file', path: opts.kubeconfig } : { from: 'default' },
              qps: opts.kubeApiQps,
              burst: opts.kubeApiBurst,
              logger,
            });
        const client = deps.client ?? leaseClient(api!);
        const out = deps.out ?? process.stdout;
        const stop = shutdownSignal(deps.signals, deps.exitNow, logger);
        try {
          await lastValueFrom(
            leaderElection({
              client,
              namespace: opts.leaseNamespace,
              name: opts.leaseName,
              identity,
              leaseDuration: opts.leaseDuration,
              renewDeadline: opts.renewDeadline,
              retryPeriod: opts.retryPeriod,
              onNewLeader: (holder) => logger.info({ holder }, 'leader'),
              signal: stop.signal,
              logger,
            }).pipe(
              tap((leading) => {
                out.write(
                  `${JSON.stringify({ leading, identity, lease: `${opts.leaseNamespace}/${opts.leaseName}` })}\n`,
                );
              }),
            ),
            { defaultValue: false },
          );
        } finally {
          stop.dispose();
          api?.close();
        }
      },
    );
}
