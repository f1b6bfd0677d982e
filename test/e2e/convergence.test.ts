// Convergence trials: kube-rx's informer behind the fault proxy converges under heavy faults, recovers from silent watches and hung lists.
import { firstValueFrom, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { exponentialBackoff } from '../../operators/backoff.ts';
import type { KubeObject, ReflectorEvent } from '../../operators/types.ts';
import { FAULT_PLANS, type FaultPlan } from '../../src/testing/fault-plan.ts';
import { type FaultProxy, startFaultProxy } from '../../src/testing/fault-proxy.ts';
import { runConvergenceTrials } from '../../src/testing/fault-trial.ts';
import { kubeRxTrialInformer } from '../../src/testing/fault-trial-informer.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { listWatch } from '../../streams/list-watch.ts';
import { CONFIG_MAPS, NAMESPACES } from '../../streams/resources.ts';
import { useEmbeddedCluster } from '../helpers/embedded-cluster.ts';

// Time is compressed about 25-fold against the defaults (inactivity 25 s → 1 s, bookmarks 10 s →
// 250 ms, backoff 0.8-30 s → 0.1-1 s), so that 20 trials fit in seconds; the request timeout (2 s)
// stays above the injected Retry-After (1 s).
const INACTIVITY_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
const backoff = () => exponentialBackoff({ initialMs: 100, maxMs: 1000 });

const cluster = useEmbeddedCluster({ bookmarkIntervalMs: 250 });

describe('convergence under faults', () => {
  it('20 seeded trials with heavy faults each converge within 5 s of the writes stopping, with no handler violation', async () => {
    const results = await runConvergenceTrials({
      upstream: cluster.server,
      writer: cluster.api,
      seeds: Array.from({ length: 20 }, (_, i) => 1 + i),
      plan: FAULT_PLANS.heavy,
      informer: kubeRxTrialInformer({
        inactivityTimeoutMs: INACTIVITY_MS,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        backoff,
      }),
      concurrency: 5,
      writeMs: 1500,
      deadlineMs: 5000,
    });
    const failures = results
      .filter((r) => !r.converged || r.violations.length > 0)
      .map((r) => ({ seed: r.seed, mismatch: r.mismatch, violations: r.violations }));
    expect(failures).toEqual([]);
    // the trials did meet faults, and writes of every kind
    const injected = results.reduce((n, r) => n + Object.values(r.faults).reduce((a, b) => a + b, 0), 0);
    expect(injected).toBeGreaterThan(100);
    expect(results.every((r) => r.writes > 20)).toBe(true);
  }, 90_000);
});

/** A listWatch of one namespace's ConfigMaps through the proxy, folded into a map of key → rv. */
function watchThrough(proxy: FaultProxy, namespace: string, watchList: boolean) {
  const client = kubeApiClient({
    kubeConfig: { from: 'string', yaml: proxy.kubeconfig },
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  const cache = new Map<string, string>();
  const events: ReflectorEvent[] = [];
  const subscription: Subscription = listWatch(listerWatcher(client, CONFIG_MAPS, { namespace }), {
    inactivityTimeoutMs: INACTIVITY_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    watchList,
    backoff,
  }).subscribe((event) => {
    events.push(event);
    if (event.type === 'Replace') {
      cache.clear();
      for (const o of event.items) cache.set(o.metadata!.name!, o.metadata!.resourceVersion!);
    } else if (event.type === 'Added' || event.type === 'Updated') {
      cache.set(event.object.metadata!.name!, event.object.metadata!.resourceVersion!);
    } else if (event.type === 'Deleted') cache.delete(event.object.metadata!.name!);
  });
  return {
    cache,
    events,
    stop: () => {
      subscription.unsubscribe();
      client.close();
    },
  };
}

async function until(check: () => boolean, limitMs: number): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - started;
}

async function namespaceWith(namespace: string, names: string[]): Promise<Map<string, string>> {
  await firstValueFrom(cluster.api.create(NAMESPACES, { metadata: { name: namespace } }));
  const rvs = new Map<string, string>();
  for (const name of names) {
    const made = await firstValueFrom(
      cluster.api.create<KubeObject>(CONFIG_MAPS, { metadata: { name, namespace }, data: { v: '1' } }),
    );
    rvs.set(name, made.metadata!.resourceVersion!);
  }
  return rvs;
}

describe('silent watches and hung requests', () => {
  it('a watch that stalls for ever is abandoned and resumed within the inactivity window', async () => {
    await namespaceWith('stall', ['a']);
    let stalledAt: number | undefined;
    const proxy = await startFaultProxy({
      upstream: cluster.server,
      seed: 5,
      onFault: (fault) => {
        if (fault.kind !== 'stallForever' || stalledAt !== undefined) return;
        stalledAt = performance.now();
        proxy.setPlan({});
      },
    });
    const watcher = watchThrough(proxy, 'stall', true);
    try {
      await until(() => watcher.cache.has('a'), 3000);
      const requestsBefore = proxy.requests();
      proxy.setPlan({ stallForever: 1, applies: (r) => r.watch });
      await until(() => stalledAt !== undefined, 2000);
      // the next request is the resumed watch; it must come within the inactivity window
      await until(() => proxy.requests() > requestsBefore, 3000);
      const resumedAfter = performance.now() - stalledAt!;
      expect(resumedAfter).toBeLessThan(INACTIVITY_MS + 500);
      const updated = await firstValueFrom(
        cluster.api.patch<KubeObject>(CONFIG_MAPS, 'a', { data: { v: '2' } }, 'merge', {
          namespace: 'stall',
        }),
      );
      await until(() => watcher.cache.get('a') === updated.metadata!.resourceVersion, 3000);
      expect(proxy.counts().stallForever).toBe(1);
    } finally {
      watcher.stop();
      await proxy.close();
    }
  });

  // A hung list waits out the request timeout; a hung watch-list is silent, so the (shorter) inactivity
  // window ends it first.
  it.each<[string, boolean, FaultPlan, number]>([
    ['a list that never answers', false, { hang: 1, applies: (r) => r.index === 1 }, REQUEST_TIMEOUT_MS],
    [
      'a list whose body stops after the head',
      false,
      { stallForever: 1, applies: (r) => r.index === 1 },
      REQUEST_TIMEOUT_MS,
    ],
    ['a watch-list that never answers', true, { hang: 1, applies: (r) => r.index === 1 }, INACTIVITY_MS],
  ])('%s is abandoned after its time limit and retried', async (_name, watchList, plan, limitMs) => {
    const namespace = `hung-${watchList ? 'wl' : 'list'}-${'stallForever' in plan ? 'body' : 'head'}`;
    const rvs = await namespaceWith(namespace, ['a', 'b']);
    const proxy = await startFaultProxy({ upstream: cluster.server, seed: 9, plan });
    const started = performance.now();
    const watcher = watchThrough(proxy, namespace, watchList);
    try {
      await until(() => proxy.requests() >= 2, limitMs + 3000);
      const retriedAfter = performance.now() - started;
      // not before the limit; then at most one first backoff (0.1-0.2 s) and some slack
      expect(retriedAfter).toBeGreaterThanOrEqual(limitMs - 50);
      expect(retriedAfter).toBeLessThan(limitMs + 200 + 800);
      await until(() => watcher.cache.size === 2, 3000);
      expect(watcher.cache).toEqual(rvs);
      expect(proxy.counts()[Object.keys(plan).find((k) => k !== 'applies') as 'hang']).toBe(1);
    } finally {
      watcher.stop();
      await proxy.close();
    }
  });
});
