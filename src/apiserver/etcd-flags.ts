// The etcd storage flags kube-apiserver has, shared by `kube-rx apiserver` and `kube-rx up`.
import type { Command } from 'commander';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { ApiServerOptions } from './index.ts';

/** What commander parses from the etcd flags. */
export interface EtcdFlags {
  etcdServers?: string[];
  etcdPrefix: string;
  etcdCompactionInterval: number;
}

/**
 * Adds `--etcd-servers`, `--etcd-prefix` and `--etcd-compaction-interval` to a command.
 * @param command the command to extend
 * @param what whose storage the flags choose, for their help text ("", or "embedded API server: ")
 * @returns the same command
 */
export function addEtcdFlags<C extends Command>(command: C, what = ''): C {
  command
    .option(
      '--etcd-servers <urls>',
      `${what}comma list of etcd v3 client URLs to keep objects in instead (several API servers may share one etcd)`,
      (v: string) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
    )
    .option('--etcd-prefix <prefix>', `${what}the prefix of every key in etcd`, '/registry')
    .option(
      '--etcd-compaction-interval <ms>',
      `${what}milliseconds between compactions of etcd history (0 disables)`,
      (v) => Number(v),
      300_000,
    );
  return command;
}

/**
 * The API server options the etcd flags give: none without `--etcd-servers`.
 * @throws InvalidConfigError naming `--etcd-compaction-interval` when it is not a number of ms >= 0
 */
export function etcdOptions(
  flags: EtcdFlags,
): Pick<ApiServerOptions, 'etcdServers' | 'etcdPrefix' | 'etcdCompactionIntervalMs'> {
  if (!Number.isFinite(flags.etcdCompactionInterval) || flags.etcdCompactionInterval < 0)
    throw new InvalidConfigError('--etcd-compaction-interval', 'must be a number of milliseconds >= 0');
  if (!flags.etcdServers?.length) return {};
  return {
    etcdServers: flags.etcdServers,
    etcdPrefix: flags.etcdPrefix,
    etcdCompactionIntervalMs: flags.etcdCompactionInterval,
  };
}
