// filePodSource: the kubelet's static pod manifests from a file or directory, as full pod sets.
import { type FSWatcher, watch as fsWatch } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import { decodeStaticPods } from '../../operators/pod-config/decode-static-pods.ts';
import type { Pod } from '../../operators/pod-config/types.ts';

export interface FilePodSourceConfig {
  /** A manifest file or a directory of manifests (`--pod-manifest-path` / `staticPodPath`). */
  path: string;
  /** The node name the pods are bound to and suffixed with. */
  nodeName: string;
  /** Full re-read period, ms (`--file-check-frequency`); default 20 000. */
  checkFrequencyMs?: number;
  /** Watch the file system for changes; default true. With false only the periodic re-read runs. */
  watch?: boolean;
  /** Retry period for a watch that could not be set up (missing path), ms; default 1 000. */
  watchRetryMs?: number;
  /** Largest manifest read, bytes; default 10 MiB as the kubelet. */
  maxBytes?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;
/** Manifests read at once during a full re-read; results are applied in file-name order. */
const READ_CONCURRENCY = 32;

type Read = { ok: true; pod: Pod } | { ok: false; missing: boolean; reason: string };

/**
 * Emits the full set of static pods from a manifest file or directory: once at once, again after
 * every file-system change (add, edit, rename, delete) and after every periodic re-read. Dot-files
 * and subdirectories are ignored. A manifest that fails to read, parse or validate is logged with
 * its path and reason and skipped; a file that was good keeps its last good pod until it is
 * deleted or good again. A missing path emits an empty set. Pods are in file-name order.
 *
 * ```
 * fs:     a-----e-----d        a = add x.yaml  e = edit x.yaml  d = delete x.yaml
 * result: A-----E-----D        A = [x]         E = [x']         D = []
 * ```
 *
 * @example
 * filePodSource({ path: '/etc/kubernetes/manifests', nodeName: 'node-1' }).subscribe(console.log);
 *
 * Recovery/Teardown: reads are serial, changes arriving during a read are coalesced per file; a
 * watch that fails is set up again after `watchRetryMs`. Unsubscribing closes the watcher, stops
 * the timers and aborts reads in flight.
 *
 * @param config path, node name, periods, scheduler, logger
 * @returns a cold observable of full pod sets
 */
export function filePodSource(config: FilePodSourceConfig): Observable<Pod[]> {
  const path = config.path.length > 1 ? config.path.replace(/[\\/]+$/, '') : config.path;
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ source: 'file', path });
  const period = config.checkFrequencyMs ?? 20_000;
  const retry = config.watchRetryMs ?? 1_000;
  const maxBytes = config.maxBytes ?? MAX_MANIFEST_BYTES;
  const shouldWatch = config.watch ?? true;

  return new Observable<Pod[]>((subscriber) => {
    const abort = new AbortController();
    let closed = false;
    let pods = new Map<string, Pod>();
    let fullPending = true;
    const filesPending = new Set<string>();
    let draining = false;
    let watcher: FSWatcher | undefined;
    let watchedDir: string | undefined;
    let watchRetry: Subscription | undefined;
    let isDir: boolean | undefined;

    const emit = () => {
      if (closed) return;
      subscriber.next([...pods.keys()].sort().map((k) => pods.get(k)!));
    };

    const readManifest = async (file: string): Promise<Read> => {
      try {
        const info = await stat(file);
        if (!info.isFile()) return { ok: false, missing: false, reason: 'not a regular file' };
        if (info.size > maxBytes)
          return { ok: false, missing: false, reason: `larger than ${maxBytes} bytes` };
        const text = await readFile(file, { encoding: 'utf8', signal: abort.signal });
        const decoded = decodeStaticPods(text, { source: file, kind: 'file', nodeName: config.nodeName });
        if (!decoded.ok) return { ok: false, missing: false, reason: decoded.error.message };
        if (decoded.pods.length !== 1) return { ok: false, missing: false, reason: 'expected one pod' };
        return { ok: true, pod: decoded.pods[0]! };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return { ok: false, missing: code === 'ENOENT', reason: (error as Error).message };
      }
    };

    const listAll = async () => {
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          logger.debug('pod manifest path does not exist, ignoring');
          isDir = undefined;
          pods = new Map();
          emit();
        } else logger.warn({ err: (error as Error).message }, 'unable to read pod manifest path');
        return;
      }
      if (info.isDirectory()) {
        isDir = true;
        const names = (await readdir(path)).filter((n) => !n.startsWith('.')).sort();
        const next = new Map<string, Pod>();
        const reads: Read[] = [];
        for (let i = 0; i < names.length; i += READ_CONCURRENCY) {
          if (closed) return;
          const batch = names.slice(i, i + READ_CONCURRENCY).map((name) => readManifest(join(path, name)));
          reads.push(...(await Promise.all(batch)));
        }
        for (const [i, name] of names.entries()) {
          const file = join(path, name);
          const read = reads[i]!;
          if (read.ok) next.set(file, read.pod);
          else if (!read.missing && read.reason !== 'not a regular file') {
            logger.warn({ file, reason: read.reason }, 'could not process manifest file');
            const last = pods.get(file);
            if (last) next.set(file, last);
          } else if (read.reason === 'not a regular file')
            logger.debug({ file }, 'not a regular file, ignored');
        }
        pods = next;
        emit();
      } else if (info.isFile()) {
        isDir = false;
        const read = await readManifest(path);
        if (read.ok) {
          pods = new Map([[path, read.pod]]);
          emit();
        } else logger.warn({ file: path, reason: read.reason }, 'could not process manifest file');
      } else {
        logger.warn('pod manifest path is not a directory or file');
      }
    };

    const readOne = async (file: string) => {
      const read = await readManifest(file);
      if (read.ok) {
        pods.set(file, read.pod);
        emit();
      } else if (read.missing) {
        if (pods.delete(file)) emit();
      } else if (read.reason !== 'not a regular file') {
        logger.warn({ file, reason: read.reason }, 'could not process manifest file');
      }
    };

    const drain = async () => {
      if (draining) return;
      draining = true;
      try {
        while (!closed && (fullPending || filesPending.size > 0)) {
          if (fullPending) {
            fullPending = false;
            filesPending.clear();
            await listAll();
            ensureWatch();
          } else {
            // take the whole batch: deleting a Set's first entry one at a time makes each next lookup walk
            // the deleted slots, quadratic in a burst of changed files
            const batch = [...filesPending];
            filesPending.clear();
            for (const file of batch) {
              if (closed || fullPending) break; // a full listing covers the rest
              await readOne(file);
            }
          }
        }
      } catch (error) {
        if (!closed) logger.error({ err: (error as Error).message }, 'pod manifest read failed');
      } finally {
        draining = false;
      }
    };

    const onEvent = (filename: string | null) => {
      if (closed) return;
      if (filename === null) {
        fullPending = true;
      } else if (watchedDir === path && isDir) {
        const name = basename(filename);
        if (name.startsWith('.')) return;
        filesPending.add(join(path, name));
      } else if (basename(filename) === basename(path)) {
        fullPending = true;
      } else return;
      void drain();
    };

    const closeWatch = () => {
      watcher?.close();
      watcher = undefined;
      watchedDir = undefined;
    };

    function ensureWatch() {
      if (!shouldWatch || closed) return;
      const want = isDir ? path : dirname(path);
      if (watcher && watchedDir === want) return;
      closeWatch();
      try {
        watcher = fsWatch(want, { persistent: true }, (_event, filename) => onEvent(filename));
        watchedDir = want;
        watcher.on('error', (error) => {
          logger.warn({ err: error.message }, 'pod manifest watch failed, retrying');
          closeWatch();
          scheduleWatchRetry();
        });
      } catch (error) {
        logger.debug({ err: (error as Error).message }, 'unable to watch pod manifest path, retrying');
        closeWatch();
        scheduleWatchRetry();
      }
    }

    function scheduleWatchRetry() {
      if (closed || watchRetry) return;
      watchRetry = scheduler.schedule(() => {
        watchRetry = undefined;
        fullPending = true;
        void drain();
      }, retry);
    }

    const ticker = scheduler.schedule(function tick() {
      fullPending = true;
      void drain();
      this.schedule(undefined, period);
    }, period);
    void drain();

    return () => {
      closed = true;
      abort.abort();
      ticker.unsubscribe();
      watchRetry?.unsubscribe();
      closeWatch();
    };
  });
}
