// tokenManager: the kubelet's cache of service-account tokens for pods (pkg/kubelet/token), refreshed at 80 % of their life or after 24 h.
import type { Observable, SchedulerLike } from 'rxjs';
import { asyncScheduler, interval, map } from 'rxjs';
import { type Logger, silentLogger } from '../../../operators/logger.ts';

/** A TokenRequest (authentication.k8s.io/v1), the fields the kubelet sends and reads. */
export interface TokenRequest {
  apiVersion?: string;
  kind?: string;
  /** The service account's uid, when the caller knows it (a recreated account misses the cache). */
  metadata?: { name?: string; namespace?: string; uid?: string };
  spec: {
    audiences?: string[];
    expirationSeconds?: number;
    boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string };
  };
  status?: { token: string; expirationTimestamp: string };
}

/** Asks the API server for a token (POST serviceaccounts/NAME/token). */
export type GetToken = (namespace: string, name: string, request: TokenRequest) => Promise<TokenRequest>;

/** Settings of {@link tokenManager}. */
export interface TokenManagerConfig {
  getToken: GetToken;
  /** Wall clock in ms (token expiry times are wall clock); default `Date.now`. */
  now?: () => number;
  /** In [0, 1): the refresh jitter of up to 10 s; default `Math.random`. */
  random?: () => number;
  logger?: Logger;
}

/** The token cache of one kubelet. */
export interface TokenManager {
  /**
   * A token for `namespace/name` as `request` asks: the cached one unless it needs a refresh; a new one
   * from the API server otherwise; the cached one again (logged) if that fails while it is still valid.
   * @throws Error `failed to fetch token: ...` or `token KEY expired and refresh failed: ...`
   */
  getServiceAccountToken(namespace: string, name: string, request: TokenRequest): Promise<TokenRequest>;
  /** Forgets every token bound to the pod (called when the pod is removed). */
  deleteServiceAccountToken(podUid: string): void;
  /** Forgets expired tokens (upstream runs it every minute). */
  cleanup(): void;
  /** Runs {@link cleanup} every `periodMs` (default 60 s) while subscribed; emits the cache size after each. */
  cleanup$(periodMs?: number, scheduler?: SchedulerLike): Observable<number>;
  /** How many tokens are cached. */
  readonly size: number;
  /** Whether a token is cached under the key of this request. */
  has(namespace: string, name: string, request: TokenRequest): boolean;
}

const MAX_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_JITTER_SECONDS = 10;
const GC_PERIOD_MS = 60_000;

/**
 * The cache key: service account, namespace, its uid, audiences, lifetime and bound object. Holds no
 * secret, so it may be logged.
 */
export function tokenCacheKey(namespace: string, name: string, request: TokenRequest): string {
  const ref = request.spec.boundObjectRef ?? {};
  return JSON.stringify([
    name,
    namespace,
    request.metadata?.uid ?? '',
    request.spec.audiences ?? null,
    request.spec.expirationSeconds ?? 0,
    [ref.apiVersion ?? '', ref.kind ?? '', ref.name ?? '', ref.uid ?? ''],
  ]);
}

function expiresAt(request: TokenRequest): number {
  return Date.parse(request.status?.expirationTimestamp ?? '');
}

/**
 * Whether a cached token must be requested again (requiresRefresh): older than 24 h less a jitter,
 * within 20 % of its lifetime (plus jitter) of expiry, or issued in the future (the clock leapt back).
 * A token without `expirationSeconds` is never refreshed.
 *
 * @param request the cached TokenRequest
 * @param now wall-clock ms
 * @param jitterSeconds 0 to 10
 */
export function requiresRefresh(request: TokenRequest, now: number, jitterSeconds = 0): boolean {
  const seconds = request.spec.expirationSeconds;
  if (seconds === undefined || seconds === null) return false;
  const exp = expiresAt(request);
  const issued = exp - seconds * 1000;
  const jitter = Math.floor(jitterSeconds) * 1000;
  if (now > issued + MAX_TTL_MS - jitter) return true;
  if (now > exp - Math.floor((seconds * 20) / 100) * 1000 - jitter) return true;
  return now < issued;
}

/**
 * The kubelet's token manager. A projected `serviceAccountToken` source reads its token through it on
 * every mount, so the token file is rewritten once the cached token needs a refresh.
 *
 * Teardown: the cache holds one entry per (service account, audiences, lifetime, pod); entries go when
 * their pod is removed ({@link TokenManager.deleteServiceAccountToken}) or they expire (`cleanup$`).
 *
 * @example
 * const tokens = tokenManager({ getToken: tokenRequestClient(client) });
 * const tr = await tokens.getServiceAccountToken('default', 'default', { spec: { expirationSeconds: 3607 } });
 * @param config how to request tokens, the clock and the jitter source
 * @returns the manager
 */
export function tokenManager(config: TokenManagerConfig): TokenManager {
  const now = config.now ?? Date.now;
  const random = config.random ?? Math.random;
  const logger = (config.logger ?? silentLogger).child({ component: 'token-manager' });
  const cache = new Map<string, TokenRequest>();
  const expired = (request: TokenRequest) => !(now() <= expiresAt(request));

  const manager: TokenManager = {
    get size() {
      return cache.size;
    },
    has(namespace, name, request) {
      return cache.has(tokenCacheKey(namespace, name, request));
    },
    async getServiceAccountToken(namespace, name, request) {
      const key = tokenCacheKey(namespace, name, request);
      const cached = cache.get(key);
      if (cached && !requiresRefresh(cached, now(), random() * MAX_JITTER_SECONDS)) return cached;
      let fresh: TokenRequest;
      try {
        fresh = await config.getToken(namespace, name, request);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!cached) throw new Error(`failed to fetch token: ${message}`);
        if (expired(cached)) throw new Error(`token ${key} expired and refresh failed: ${message}`);
        logger.error({ cacheKey: key, err: message }, "Couldn't update token");
        return cached;
      }
      // the cache is keyed by what was asked; the answer carries the bound pod's uid for deletion
      const entry: TokenRequest = {
        ...fresh,
        spec: { ...fresh.spec, boundObjectRef: fresh.spec?.boundObjectRef ?? request.spec.boundObjectRef },
      };
      cache.set(key, entry);
      return entry;
    },
    deleteServiceAccountToken(podUid) {
      for (const [key, request] of cache) if (request.spec.boundObjectRef?.uid === podUid) cache.delete(key);
    },
    cleanup() {
      for (const [key, request] of cache) if (expired(request)) cache.delete(key);
    },
    cleanup$(periodMs = GC_PERIOD_MS, scheduler = asyncScheduler) {
      return interval(periodMs, scheduler).pipe(
        map(() => {
          manager.cleanup();
          return cache.size;
        }),
      );
    },
  };
  return manager;
}
