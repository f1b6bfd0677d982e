// The etcd storage flags kube-apiserver has (servers, prefix, compaction, TLS files), shared by `kube-rx apiserver` and `kube-rx up`.
import type { Command } from 'commander';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { ApiServerOptions } from './index.ts';

/** What commander parses from the etcd flags. */
export interface EtcdFlags {
  etcdServers?: string[];
  etcdPrefix: string;
  etcdCompactionInterval: number;
  etcdCafile?: string;
  etcdCertfile?: string;
  etcdKeyfile?: string;
}

/**
 * Adds `--etcd-servers`, `--etcd-prefix`, `--etcd-compaction-interval` and `--etcd-cafile`/`--etcd-certfile`/
 * `--etcd-keyfile` to a command.
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
    )
    .option('--etcd-cafile <path>', `${what}SSL Certificate Authority file used to secure etcd communication`)
    .option('--etcd-certfile <path>', `${what}SSL certification file used to secure etcd communication`)
    .option('--etcd-keyfile <path>', `${what}SSL key file used to secure etcd communication`);
  return command;
}

/**
 * The API server options the etcd flags give: none without `--etcd-servers`.
 * @throws InvalidConfigError naming the flag: a compaction interval that is not a number of ms >= 0, a
 *   certificate without its key (or the reverse), TLS files without `--etcd-servers`
 */
export function etcdOptions(
  flags: EtcdFlags,
): Pick<
  ApiServerOptions,
  'etcdServers' | 'etcdPrefix' | 'etcdCompactionIntervalMs' | 'etcdCaFile' | 'etcdCertFile' | 'etcdKeyFile'
> {
  if (!Number.isFinite(flags.etcdCompactionInterval) || flags.etcdCompactionInterval < 0)
    throw new InvalidConfigError('--etcd-compaction-interval', 'must be a number of milliseconds >= 0');
  if (!!flags.etcdCertfile !== !!flags.etcdKeyfile)
    throw new InvalidConfigError(
      flags.etcdCertfile ? '--etcd-keyfile' : '--etcd-certfile',
      'give both --etcd-certfile and --etcd-keyfile',
    );
  if (!flags.etcdServers?.length) {
    const tls = flags.etcdCafile ? '--etcd-cafile' : flags.etcdCertfile ? '--etcd-certfile' : undefined;
    if (tls) throw new InvalidConfigError(tls, 'needs --etcd-servers');
    return {};
  }
  return {
    etcdServers: flags.etcdServers,
    etcdPrefix: flags.etcdPrefix,
    etcdCompactionIntervalMs: flags.etcdCompactionInterval,
    ...(flags.etcdCafile ? { etcdCaFile: flags.etcdCafile } : {}),
    ...(flags.etcdCertfile ? { etcdCertFile: flags.etcdCertfile } : {}),
    ...(flags.etcdKeyfile ? { etcdKeyFile: flags.etcdKeyfile } : {}),
  };
}
