// kubeletPodConfig: the kubelet's pod config assembled from its settings: file, HTTP, API server and custom sources.
import type { Observable, SchedulerLike } from 'rxjs';
import { InvalidConfigError } from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import { podConfigMux } from '../../operators/pod-config/pod-config-mux.ts';
import {
  API_SOURCE,
  FILE_SOURCE,
  HTTP_SOURCE,
  type Pod,
  type PodConfigMode,
  type PodUpdate,
} from '../../operators/pod-config/types.ts';
import { apiserverPodSource, type ListWatchFn } from '../../streams/pod-sources/apiserver.ts';
import { filePodSource } from '../../streams/pod-sources/file.ts';
import { httpPodSource } from '../../streams/pod-sources/http.ts';
import type { ListerWatcher } from '../../streams/ports.ts';

export interface KubeletPodConfigOptions {
  /** The node's name (`--hostname-override`/`--node-name`); pods are bound to it. */
  nodeName: string;
  /** `--pod-manifest-path`: a manifest file or directory. */
  podManifestPath?: string;
  /** `--file-check-frequency`, ms; default 20 000. */
  fileCheckFrequencyMs?: number;
  /** `--manifest-url`. */
  manifestUrl?: string;
  /** `--manifest-url-header`, in order; a repeated key sends every value. */
  manifestUrlHeaders?: readonly (readonly [string, string])[];
  /** `--http-check-frequency`, ms; default 20 000. */
  httpCheckFrequencyMs?: number;
  /** The API server source: the pods' ListerWatcher and the reflector. */
  apiserver?: { listerWatcher: ListerWatcher<Pod>; listWatch?: ListWatchFn };
  /** Sources of your own: name to an observable of that source's full pod sets. */
  custom?: Readonly<Record<string, Observable<readonly Pod[]>>>;
  /** Default `Incremental`. */
  mode?: PodConfigMode;
  /** Injected into the HTTP source (tests). */
  fetch?: typeof fetch;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** The assembled pipeline: its update stream and the names of the sources it waits for. */
export interface KubeletPodConfig {
  /** Cold: each subscription starts every source; unsubscribing stops them all. */
  updates$: Observable<PodUpdate>;
  /** The configured source names, for `sourcesReady`. */
  sources: string[];
}

/**
 * Builds the kubelet's pod configuration: the file source under `file`, the manifest URL under
 * `http`, the API server under `api` and custom sources under their own names, merged by the mux.
 *
 * @example
 * const { updates$, sources } = kubeletPodConfig({ nodeName: 'node-1', podManifestPath: '/etc/kubernetes/manifests' });
 * updates$.pipe(coalescePodUpdates(syncLoop)).subscribe();
 *
 * @param options the kubelet's pod-config settings
 * @returns the update stream and the configured source names
 * @throws InvalidConfigError for an empty node name or a custom source that reuses a built-in name
 */
export function kubeletPodConfig(options: KubeletPodConfigOptions): KubeletPodConfig {
  if (!options.nodeName) throw new InvalidConfigError('nodeName', 'a node name is required');
  const logger = options.logger ?? silentLogger;
  const sources: Record<string, Observable<readonly Pod[]>> = {};
  if (options.podManifestPath) {
    sources[FILE_SOURCE] = filePodSource({
      path: options.podManifestPath,
      nodeName: options.nodeName,
      checkFrequencyMs: options.fileCheckFrequencyMs,
      scheduler: options.scheduler,
      logger,
    });
  }
  if (options.manifestUrl) {
    sources[HTTP_SOURCE] = httpPodSource({
      url: options.manifestUrl,
      headers: options.manifestUrlHeaders,
      nodeName: options.nodeName,
      checkFrequencyMs: options.httpCheckFrequencyMs,
      fetch: options.fetch,
      scheduler: options.scheduler,
      logger,
    });
  }
  if (options.apiserver) {
    sources[API_SOURCE] = apiserverPodSource({
      ...options.apiserver,
      nodeName: options.nodeName,
      scheduler: options.scheduler,
      logger,
    });
  }
  for (const [name, pods$] of Object.entries(options.custom ?? {})) {
    if (name in sources || [FILE_SOURCE, HTTP_SOURCE, API_SOURCE].includes(name)) {
      throw new InvalidConfigError(`custom.${name}`, `the source name ${JSON.stringify(name)} is taken`);
    }
    sources[name] = pods$;
  }
  return {
    sources: Object.keys(sources),
    updates$: podConfigMux(sources, {
      mode: options.mode,
      scheduler: options.scheduler,
      logger: logger.child({ component: 'pod-config' }),
    }),
  };
}
