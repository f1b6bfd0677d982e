// A convergence trial: steady writes to an API server while an informer watches it through the fault proxy; how soon does its cache match?
import { setTimeout as sleep } from 'node:timers/promises';
import { firstValueFrom } from 'rxjs';
import { ApiError, InvalidConfigError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import { objectKey } from '../../operators/object-key.ts';
import type { KubeObject } from '../../operators/types.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { CONFIG_MAPS, NAMESPACES } from '../../streams/resources.ts';
import { HandlerView } from './fault-handler-view.ts';
import type { FaultKind, FaultPlan } from './fault-plan.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { randomInt, seededRandom } from './fault-random.ts';

/** An informer under trial: its cache (key → resourceVersion) and how to stop it. */
export interface TrialInformer {
  cache(): ReadonlyMap<string, string>;
  stop(): Promise<void> | void;
}

/** Starts the informer under trial against the proxy; it must report every change to `view`. */
export type TrialInformerFactory = (target: {
  /** A kubeconfig pointing at the fault proxy. */
  kubeconfig: string;
  /** Watch ConfigMaps in this namespace only. */
  namespace: string;
  view: HandlerView;
  seed: number;
}) => TrialInformer | Promise<TrialInformer>;

/** The API server the trial writes to directly (not through the proxy). */
export interface TrialUpstream {
  url: string;
  caPem?: string;
  token?: string;
}

/** Options of {@link runConvergenceTrial}. */
export interface ConvergenceTrialConfig {
  upstream: TrialUpstream;
  /** A client of the upstream, used for the writes and the final truth (give it no rate limit). */
  writer: ApiClient;
  seed: number;
  plan: FaultPlan;
  informer: TrialInformerFactory;
  /** Namespace of the trial; default `trial-<seed>`; created if missing. */
  namespace?: string;
  /** How long the writes go on; default 2000 ms. */
  writeMs?: number;
  /** Pause between writes; default 20 ms. */
  writeIntervalMs?: number;
  /** How many distinct names the writes touch; default 12. */
  keys?: number;
  /**
   * Objects created (`cm-0`, `cm-1`, ...) before the informer starts, so that its initial list has
   * something to stream; default 0.
   */
  initialObjects?: number;
  /** How long after the writes stop the trial waits for convergence; default 10 000 ms. */
  deadlineMs?: number;
  /** How often the cache is compared with the server; default 20 ms. */
  pollMs?: number;
  logger?: Logger;
}

/** What one trial found. */
export interface ConvergenceTrialResult {
  seed: number;
  converged: boolean;
  /** Time from the end of the writes until the cache and the handler's view equalled the server; undefined if never. */
  convergeMs: number | undefined;
  writes: number;
  /** Objects on the server at the end. */
  objects: number;
  /** Broken handler promises (duplicate add, resourceVersion backwards, ...), see HandlerView. */
  violations: readonly string[];
  /** At the deadline, how the cache differed from the server (empty when converged). */
  mismatch: string;
  faults: Record<FaultKind, number>;
  requests: number;
  /** Watch requests the informer made through the proxy (its streaming watch-lists included). */
  watchRequests: number;
  /** List requests (pages) the informer made through the proxy. */
  listRequests: number;
}

/** Text with multi-byte UTF-8 characters, so that lines split at random bytes cut inside them. */
const WIDE = 'é✓日本🙂';

function positive(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidConfigError(`convergenceTrial.${field}`, `must be a number > 0, got ${value}`);
  }
  return value;
}

/** How `actual` differs from `expected`, briefly; empty when equal. */
export function describeMismatch(
  expected: ReadonlyMap<string, string>,
  actual: ReadonlyMap<string, string>,
): string {
  const missing: string[] = [];
  const extra: string[] = [];
  const stale: string[] = [];
  for (const [k, rv] of expected) {
    const got = actual.get(k);
    if (got === undefined) missing.push(k);
    else if (got !== rv) stale.push(`${k} ${got}≠${rv}`);
  }
  for (const k of actual.keys()) if (!expected.has(k)) extra.push(k);
  const parts: string[] = [];
  if (missing.length) parts.push(`missing ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}`);
  if (extra.length) parts.push(`extra ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? '…' : ''}`);
  if (stale.length) parts.push(`stale ${stale.slice(0, 5).join(', ')}${stale.length > 5 ? '…' : ''}`);
  return parts.join('; ');
}

async function ensureNamespace(writer: ApiClient, namespace: string): Promise<void> {
  try {
    await firstValueFrom(writer.create(NAMESPACES, { metadata: { name: namespace } }));
  } catch (error) {
    if (!(error instanceof ApiError && error.statusCode === 409)) throw error;
  }
}

/** Creates `cm-0` … `cm-(count-1)` that do not exist yet, 20 at a time. */
async function createInitialObjects(
  writer: ApiClient,
  namespace: string,
  count: number,
  seed: number,
): Promise<void> {
  for (let from = 0; from < count; from += 20) {
    const batch = [];
    for (let i = from; i < Math.min(count, from + 20); i++) {
      batch.push(
        firstValueFrom(
          writer.create(CONFIG_MAPS, {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i}`, namespace },
            data: { n: 'initial', text: `${WIDE} ${seed}` },
          }),
        ).catch((error: unknown) => {
          if (!(error instanceof ApiError && error.statusCode === 409)) throw error;
        }),
      );
    }
    await Promise.all(batch);
  }
}

/** The server's state of the trial's namespace: key → resourceVersion. */
async function serverState(writer: ApiClient, namespace: string): Promise<Map<string, string>> {
  const list = await firstValueFrom(writer.list<KubeObject>(CONFIG_MAPS, { namespace }));
  return new Map(list.items.map((o) => [objectKey(o), o.metadata?.resourceVersion ?? '']));
}

/**
 * Runs one convergence trial: starts a fault proxy with the seed and plan in front of the upstream,
 * starts the informer against the proxy, writes (create, update, delete over a small set of names,
 * values with multi-byte characters) straight to the upstream for `writeMs`, then polls until the
 * informer's cache and its handler's view both equal the server's state (names and resourceVersions),
 * or the deadline passes. Faults go on during the wait.
 *
 * @example
 * const result = await runConvergenceTrial({ upstream: server, writer, seed: 1, plan: FAULT_PLANS.heavy,
 *   informer: kubeRxTrialInformer({ inactivityTimeoutMs: 1000 }) });
 * @param config upstream, writer, seed, plan, informer and timings
 * @returns the result; the proxy and the informer are stopped before it resolves
 */
export async function runConvergenceTrial(config: ConvergenceTrialConfig): Promise<ConvergenceTrialResult> {
  const writeMs = positive('writeMs', config.writeMs, 2000);
  const writeIntervalMs = positive('writeIntervalMs', config.writeIntervalMs, 20);
  const keys = Math.floor(positive('keys', config.keys, 12));
  const deadlineMs = positive('deadlineMs', config.deadlineMs, 10_000);
  const pollMs = positive('pollMs', config.pollMs, 20);
  const initialObjects = config.initialObjects ?? 0;
  if (!Number.isInteger(initialObjects) || initialObjects < 0) {
    throw new InvalidConfigError(
      'convergenceTrial.initialObjects',
      `must be a whole number >= 0, got ${initialObjects}`,
    );
  }
  const { writer, seed } = config;
  const namespace = config.namespace ?? `trial-${seed}`;
  const random = seededRandom(seed ^ 0x5eed);

  await ensureNamespace(writer, namespace);
  await createInitialObjects(writer, namespace, initialObjects, seed);
  const proxy: FaultProxy = await startFaultProxy({
    upstream: config.upstream,
    seed,
    plan: config.plan,
    ...(config.logger ? { logger: config.logger } : {}),
  });
  const view = new HandlerView();
  let informer: TrialInformer | undefined;
  try {
    informer = await config.informer({ kubeconfig: proxy.kubeconfig, namespace, view, seed });
    const present = new Set((await serverState(writer, namespace)).keys());
    let writes = 0;
    const started = performance.now();
    while (performance.now() - started < writeMs) {
      const name = `cm-${randomInt(random, 0, keys - 1)}`;
      const key = `${namespace}/${name}`;
      const data = { n: String(writes), text: `${WIDE} ${seed}/${writes}` };
      try {
        if (!present.has(key)) {
          await firstValueFrom(
            writer.create(CONFIG_MAPS, {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name, namespace },
              data,
            }),
          );
          present.add(key);
        } else if (random() < 0.75) {
          await firstValueFrom(writer.patch(CONFIG_MAPS, name, { data }, 'merge', { namespace }));
        } else {
          await firstValueFrom(writer.delete(CONFIG_MAPS, name, { namespace }));
          present.delete(key);
        }
        writes++;
      } catch (error) {
        // A 404/409 means our idea of what exists was wrong; ask the server and go on.
        if (!(error instanceof ApiError)) throw error;
        const truth = await serverState(writer, namespace);
        present.clear();
        for (const k of truth.keys()) present.add(k);
      }
      await sleep(writeIntervalMs);
    }
    const stoppedAt = performance.now();
    const truth = await serverState(writer, namespace);
    let convergeMs: number | undefined;
    let mismatch = '';
    for (;;) {
      const cacheDiff = describeMismatch(truth, informer.cache());
      const viewDiff = describeMismatch(truth, view.snapshot());
      const elapsed = performance.now() - stoppedAt;
      if (!cacheDiff && !viewDiff) {
        convergeMs = elapsed;
        break;
      }
      if (elapsed >= deadlineMs) {
        mismatch = [cacheDiff && `cache: ${cacheDiff}`, viewDiff && `handler: ${viewDiff}`]
          .filter(Boolean)
          .join(' | ');
        break;
      }
      await sleep(pollMs);
    }
    return {
      seed,
      converged: convergeMs !== undefined,
      convergeMs,
      writes,
      objects: truth.size,
      violations: [...view.violations],
      mismatch,
      faults: proxy.counts(),
      requests: proxy.requests(),
      watchRequests: proxy.requestKinds().watch,
      listRequests: proxy.requestKinds().list,
    };
  } finally {
    await informer?.stop();
    await proxy.close();
  }
}

/** Options of {@link runConvergenceTrials}: a trial's options without its seed, plus the seeds. */
export type ConvergenceTrialsConfig = Omit<ConvergenceTrialConfig, 'seed' | 'namespace'> & {
  seeds: readonly number[];
  /** Trials run at once; default 5. */
  concurrency?: number;
  /** Namespace of each trial; default `trial-<seed>`. */
  namespaceOf?: (seed: number) => string;
};

/**
 * Runs one trial per seed, `concurrency` at a time, each in its own namespace behind its own proxy.
 * @returns the results in seed order
 */
export async function runConvergenceTrials(
  config: ConvergenceTrialsConfig,
): Promise<ConvergenceTrialResult[]> {
  const concurrency = Math.floor(positive('concurrency', config.concurrency, 5));
  const results: ConvergenceTrialResult[] = new Array(config.seeds.length);
  let next = 0;
  const worker = async () => {
    while (next < config.seeds.length) {
      const i = next++;
      const seed = config.seeds[i]!;
      results[i] = await runConvergenceTrial({
        ...config,
        seed,
        ...(config.namespaceOf ? { namespace: config.namespaceOf(seed) } : {}),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, config.seeds.length) }, worker));
  return results;
}

/** Converged-within counts and quantiles of a set of trials. */
export interface TrialSummary {
  trials: number;
  within5s: number;
  within10s: number;
  /** Median time to converge (ms) over all trials, counting a trial that never converged as Infinity. */
  medianMs: number;
  p90Ms: number;
  violations: number;
  /** Mean watch and list requests per trial. */
  watchRequestsPerTrial: number;
  listRequestsPerTrial: number;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * Summarises trials: how many converged within 5 s and 10 s, and the median and p90 time (nearest
 * rank; a trial that never converged counts as Infinity).
 */
export function summarizeTrials(results: readonly ConvergenceTrialResult[]): TrialSummary {
  const times = results.map((r) => r.convergeMs ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  return {
    trials: results.length,
    within5s: times.filter((t) => t <= 5000).length,
    within10s: times.filter((t) => t <= 10_000).length,
    medianMs: quantile(times, 0.5),
    p90Ms: quantile(times, 0.9),
    violations: results.reduce((n, r) => n + r.violations.length, 0),
    watchRequestsPerTrial: mean(results.map((r) => r.watchRequests)),
    listRequestsPerTrial: mean(results.map((r) => r.listRequests)),
  };
}
