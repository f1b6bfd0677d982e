// Starts a scheduler: informers synced, then the scheduling loop gated on leadership of Lease kube-system/kube-scheduler.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Registry as MetricsRegistry } from 'prom-client';
import { BehaviorSubject, EMPTY, type Observable, type Subscription, switchMap, tap } from 'rxjs';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { Registry } from '../../operators/scheduling/framework/interface.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { leaseClient } from '../../streams/lease-client.ts';
import type { InformerFactory } from '../informers/informer-factory.ts';
import { parseGoDuration } from '../kubelet/go-duration.ts';
import type { HealthzAdaptor } from '../leader-election/healthz-adaptor.ts';
import { leaderElection } from '../leader-election/leader-election.ts';
import type { KubeSchedulerConfiguration } from './config/types.ts';
import { newScheduler, type Scheduler } from './scheduler.ts';

/** Options of {@link startScheduler}. */
export interface StartSchedulerOptions {
  client: ApiClient;
  /** The configuration (defaulted here); its `leaderElection` decides whether and how to campaign. */
  config?: KubeSchedulerConfiguration;
  outOfTreeRegistry?: Registry;
  informers?: InformerFactory;
  metricsRegistry?: MetricsRegistry;
  /** Leader election identity; default `hostname_uuid` as upstream. */
  identity?: string;
  /** Abort to give up waiting for the caches. */
  signal?: AbortSignal;
  /** Attached to the leader election campaign, for /healthz (kube-scheduler uses a 20 s timeout). */
  healthz?: HealthzAdaptor;
  logger?: Logger;
}

/** A started scheduler. */
export interface RunningScheduler {
  readonly scheduler: Scheduler;
  /** Whether this scheduler runs its loop now (always true without leader election). */
  readonly leading$: Observable<boolean>;
  /** Stops leading (releasing the lease), the loop, the informers' handlers and the bindings. */
  stop(): Promise<void>;
}

/**
 * Builds the scheduler, waits for its caches, then runs the scheduling loop: at once with
 * `leaderElection.leaderElect: false`, else only while this process holds the Lease
 * (`leader$.pipe(switchMap((lead) => (lead ? run$ : EMPTY)))`), so losing the lease stops the loop at once.
 *
 * @param options the client, configuration, registries and identity
 * @returns the running scheduler
 * @throws InvalidConfigError for a bad configuration; Error when the caches did not sync before `signal` aborted
 */
export async function startScheduler(options: StartSchedulerOptions): Promise<RunningScheduler> {
  const logger = (options.logger ?? silentLogger).child({ component: 'kube-scheduler' });
  const scheduler = newScheduler({
    client: options.client,
    ...(options.config ? { config: options.config } : {}),
    ...(options.outOfTreeRegistry ? { outOfTreeRegistry: options.outOfTreeRegistry } : {}),
    ...(options.informers ? { informers: options.informers } : {}),
    ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  if (!(await scheduler.start(options.signal))) {
    await scheduler.stop();
    throw new Error('scheduler: caches did not sync before the start was cancelled');
  }
  const le = scheduler.config.leaderElection ?? {};
  const leading$ = new BehaviorSubject(false);
  const stopElection = new AbortController();
  let loop: Subscription;
  let ended!: () => void;
  const loopEnded = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const onEnd = {
    error: (err: unknown) => {
      logger.error({ err: String(err) }, 'scheduling loop stopped');
      ended();
    },
    complete: () => ended(),
  };
  if (le.leaderElect) {
    const identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    loop = leaderElection({
      client: leaseClient(options.client),
      namespace: le.resourceNamespace ?? 'kube-system',
      name: le.resourceName ?? 'kube-scheduler',
      identity,
      leaseDuration: parseGoDuration('leaderElection.leaseDuration', le.leaseDuration ?? '15s'),
      renewDeadline: parseGoDuration('leaderElection.renewDeadline', le.renewDeadline ?? '10s'),
      retryPeriod: parseGoDuration('leaderElection.retryPeriod', le.retryPeriod ?? '2s'),
      signal: stopElection.signal,
      ...(options.healthz ? { healthz: options.healthz } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    })
      .pipe(
        tap((lead) => leading$.next(lead)),
        switchMap((lead) => (lead ? scheduler.run$ : EMPTY)),
      )
      .subscribe(onEnd);
  } else {
    leading$.next(true);
    loop = scheduler.run$.subscribe(onEnd);
  }
  logger.info({ leaderElect: Boolean(le.leaderElect) }, 'scheduler started');
  let stopping: Promise<void> | undefined;
  return {
    scheduler,
    leading$: leading$.asObservable(),
    stop() {
      stopping ??= (async () => {
        stopElection.abort();
        await scheduler.stop();
        // The campaign completes once the lease is released (bounded by renewDeadline); do not wait longer.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          loopEnded,
          new Promise<void>((r) => {
            timer = setTimeout(r, 10_000);
          }),
        ]);
        clearTimeout(timer);
        loop.unsubscribe();
        leading$.next(false);
        leading$.complete();
      })();
      return stopping;
    },
  };
}
