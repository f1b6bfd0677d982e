// Opens the API server's storage on the engine its options choose: etcd, SQLite in the data dir, or memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import type { IOptions } from 'etcd3';
import { InvalidConfigError } from '../../../operators/errors.ts';
import type { Logger } from '../../../operators/logger.ts';
import { ObjectStore } from '../object-store.ts';
import { EtcdJournal } from './etcd-journal.ts';
import { holdUntilDurable } from './hold-until-durable.ts';
import { DATABASE_FILE, SqliteJournal } from './sqlite-journal.ts';
import type { Storage } from './storage.ts';

export interface StorageOptions {
  /** How many past events a watch or an exact list can reach back over; default 10,000. */
  historyWindow?: number;
  /** SQLite database (`objects.db`) lives here, unless `etcdServers` is given. */
  dataDir?: string;
  /** etcd v3 client URLs, as kube-apiserver's `--etcd-servers`; takes precedence over `dataDir`. */
  etcdServers?: readonly string[];
  /** etcd key prefix, as kube-apiserver's `--etcd-prefix`; default `/registry`. */
  etcdPrefix?: string;
  /** Period of etcd compaction, as kube-apiserver's `--etcd-compaction-interval`; default 5 min, 0 off. */
  etcdCompactionIntervalMs?: number;
  /** TLS to etcd, as kube-apiserver's `--etcd-cafile`, `--etcd-certfile` and `--etcd-keyfile` (PEM files). */
  etcdCaFile?: string;
  etcdCertFile?: string;
  etcdKeyFile?: string;
  logger: Logger;
}

/** The etcd client's TLS credentials from the PEM files the options name (none: plain or system-trusted). */
function etcdCredentials(options: StorageOptions): Partial<IOptions> {
  const { etcdCaFile: ca, etcdCertFile: cert, etcdKeyFile: key } = options;
  if ((cert === undefined) !== (key === undefined))
    throw new InvalidConfigError(
      cert ? 'etcdKeyFile' : 'etcdCertFile',
      'give both etcdCertFile and etcdKeyFile',
    );
  if (!ca && !cert) return {};
  const read = (field: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new InvalidConfigError(field, `cannot read ${path}`, { cause: error });
    }
  };
  return {
    credentials: {
      rootCertificate: ca ? read('etcdCaFile', ca) : Buffer.from(rootCertificates.join('\n')),
      ...(cert && key ? { certChain: read('etcdCertFile', cert), privateKey: read('etcdKeyFile', key) } : {}),
    },
  };
}

/**
 * Opens storage: with `etcdServers` the objects live in etcd (several API servers may share it),
 * with `dataDir` in a SQLite database there (an old `objects.jsonl` journal is migrated once),
 * otherwise in memory only.
 * @throws InvalidConfigError for an etcd server that is not an http(s) URL
 * @throws Error when the database cannot be opened or etcd cannot be reached
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const store = new ObjectStore({ historyWindow: options.historyWindow });
  const log = options.logger;
  const servers = options.etcdServers ?? [];
  if (servers.length > 0) {
    for (const s of servers) {
      if (!/^https?:\/\/[^/]+/.test(s))
        throw new InvalidConfigError('etcdServers', `not an http(s) URL: ${JSON.stringify(s)}`);
    }
    const prefix = options.etcdPrefix ?? '/registry';
    if (!prefix.startsWith('/'))
      throw new InvalidConfigError('etcdPrefix', `must start with "/", got ${JSON.stringify(prefix)}`);
    const client = etcdCredentials(options);
    if (client.credentials && servers.some((s) => s.startsWith('http://')))
      throw new InvalidConfigError('etcdServers', 'TLS files given, so every server must be an https:// URL');
    const opened = await EtcdJournal.open({ servers, prefix, logger: log, client }, store);
    const journal = opened.journal;
    store.setJournal(journal);
    log.info(
      { etcdServers: servers, prefix, objects: opened.objects, resourceVersion: opened.resourceVersion },
      'loaded from etcd',
    );
    const interval = options.etcdCompactionIntervalMs ?? 300_000;
    // As kube-apiserver: every interval, compact up to the revision seen one interval earlier.
    let previous = 0;
    let compactedTo = 0;
    const timer =
      interval > 0
        ? setInterval(() => {
            const target = previous;
            previous = store.currentRv;
            if (target <= compactedTo) return;
            compactedTo = target;
            journal.compact(target).catch((err: unknown) => log.warn({ err }, 'etcd compaction failed'));
          }, interval)
        : undefined;
    timer?.unref();
    return {
      engine: 'etcd',
      store,
      location: `${servers.join(',')} ${prefix}`,
      holdResponses: (handler) => holdUntilDurable(handler, log),
      settled: () => journal.settled(),
      close: async () => {
        if (timer) clearInterval(timer);
        await journal.close();
      },
    };
  }
  if (options.dataDir) {
    const opened = SqliteJournal.open(options.dataDir, store);
    store.setJournal(opened.journal);
    log.info(
      {
        dataDir: options.dataDir,
        objects: opened.objects,
        resourceVersion: opened.resourceVersion,
        ...(opened.migratedRecords > 0 ? { migratedJournalRecords: opened.migratedRecords } : {}),
      },
      'restored',
    );
    return {
      engine: 'sqlite',
      store,
      location: join(options.dataDir, DATABASE_FILE),
      holdResponses: (handler) => handler,
      settled: async () => {},
      close: async () => opened.journal.close(),
    };
  }
  return {
    engine: 'memory',
    store,
    location: 'memory',
    holdResponses: (handler) => handler,
    settled: async () => {},
    close: async () => {},
  };
}
