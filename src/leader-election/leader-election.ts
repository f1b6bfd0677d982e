// Lease-based leader election as an observable of "am I leading?", with client-go's acquire/renew/release rules.
import {
  asyncScheduler,
  catchError,
  Observable,
  of,
  ReplaySubject,
  type SchedulerLike,
  Subscription,
  share,
  timeout,
} from 'rxjs';
import {
  JITTER_FACTOR,
  type LeaderElectionTimings,
  validateLeaderElectionTimings,
} from '../../operators/leader-election-config.ts';
import { initialElectorState, isLeader, observedHolder } from '../../operators/leader-election-state.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { LeaseClient } from '../../streams/lease-client.ts';
import type { HealthzAdaptor } from './healthz-adaptor.ts';
import { elector } from './leader-elector.ts';
import { type ElectorRuntime, releaseLease, tryAcquireOrRenew, tryCoordinatedRenew } from './lease-steps.ts';

/** Configuration of one candidate; durations in milliseconds. */
export interface LeaderElectionConfig extends Partial<LeaderElectionTimings> {
  /** The Lease API (e.g. `leaseClient(apiClient)` or the in-memory store of the test kit). */
  client: LeaseClient;
  /** Namespace and name of the Lease used as the lock. */
  namespace: string;
  name: string;
  /** This candidate's identity, unique among candidates (e.g. the pod name plus a random suffix). */
  identity: string;
  /** Release the lease when leadership ends or the observable is torn down. Default `true`. */
  releaseOnCancel?: boolean;
  /**
   * Complete after leadership is lost (client-go's `Run` returns; components then exit). Default
   * `false`: go back to campaigning after a retry period.
   */
  stopOnLoss?: boolean;
  /** Called with the holder's identity whenever the observed holder changes (`''` after a release). */
  onNewLeader?: (identity: string) => void;
  /** Graceful stop: stop leading, release the lease (awaited), then complete. */
  signal?: AbortSignal;
  /** Time source for retries, deadlines and observed times. Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  /** Random source in [0, 1) for the acquire jitter. Default `Math.random`. */
  random?: () => number;
  logger?: Logger;
  /** Attached to this campaign while it runs, so `/healthz` can report an overdue renewal (client-go's HealthzAdaptor). */
  healthz?: HealthzAdaptor;
  /**
   * Coordinated leader election (client-go's `Coordinated`): the API server's controller picks the holder
   * among the LeaseCandidates (run {@link leaseCandidate} beside this, with `identity` as its name); this
   * campaign never creates or takes the Lease, it leads once named holder and stops renewing when the
   * controller sets a preferred holder. Needs an API server with the CoordinatedLeaderElection feature.
   */
  coordinated?: boolean;
}

/**
 * Campaigns for a Lease and emits whether this candidate leads: `false` at once, `true` when it acquires
 * the lease, `false` when it loses it.
 *
 * ```
 * lease free, acquire at 0, renewals keep failing from 4 s (renewDeadline 10 s, retryPeriod 2 s):
 * leader$:  (ft) 11999ms f
 * ```
 *
 * Rules (client-go's): try at once, then every retryPeriod × [1, 2.2); another holder's lease counts as
 * held until this candidate's own observed time of its last change plus its lease duration; an empty
 * holder may be taken at once. While leading, renew every retryPeriod; when no renewal succeeds within
 * renewDeadline, stop leading. Unlike client-go, a leader also stops at once when a read shows that another
 * candidate holds a valid lease. Writes use the Lease's resourceVersion, so a 409 Conflict is simply a
 * failed attempt. The holder change increments `leaseTransitions`. Every attempt (and the release) is
 * also bounded by renewDeadline, so a request that never answers cannot stall the campaign.
 *
 * Gate work on it so the work stops the moment leadership is lost:
 * @example
 * const leader$ = leaderElection({ client: leaseClient(api), namespace: 'kube-system',
 *   name: 'my-controller', identity: `${hostname()}_${randomUUID()}` });
 * leader$.pipe(switchMap((lead) => (lead ? reconcile$ : EMPTY))).subscribe();
 *
 * Teardown: unsubscribing stops every timer and request and, with `releaseOnCancel`, sends the release
 * (empty holder, one-second duration) in the background, bounded by renewDeadline. Abort `signal` instead
 * to wait for the release: the observable emits `false`, releases, then completes. The result is shared:
 * every subscriber sees the same campaign and the latest value, and the campaign ends with the last one.
 *
 * @param config the lock, identity, client and timings (defaults 15 s / 10 s / 2 s)
 * @returns a shared observable of leadership, distinct values, starting with `false`
 * @throws InvalidConfigError when the timings or identity are invalid (client-go's rules)
 */
export function leaderElection(config: LeaderElectionConfig): Observable<boolean> {
  const timings = validateLeaderElectionTimings(config);
  const scheduler = config.scheduler ?? asyncScheduler;
  const random = config.random ?? Math.random;
  const releaseOnCancel = config.releaseOnCancel ?? true;
  const step = config.coordinated ? tryCoordinatedRenew : tryAcquireOrRenew;
  const logger = (config.logger ?? silentLogger).child({
    component: 'leader-election',
    lease: `${config.namespace}/${config.name}`,
    identity: config.identity,
  });

  const campaign$ = new Observable<boolean>((subscriber) => {
    const rt: ElectorRuntime = {
      state: initialElectorState(config, timings.leaseDuration),
      client: config.client,
      scheduler,
      logger,
    };
    let leading = false;
    let reported = '';
    let finished = false;
    let current = new Subscription();
    let deadline: Subscription | undefined;

    const clear = () => {
      current.unsubscribe();
      deadline?.unsubscribe();
      deadline = undefined;
    };
    const later = (fn: () => void, ms: number) => {
      current = scheduler.schedule(fn, ms);
    };
    const attempt = (step$: Observable<boolean>, then: (ok: boolean) => void) => {
      const s = new Subscription();
      current = s;
      let ok = false;
      s.add(
        step$.subscribe({
          next: (v) => {
            ok = v;
          },
          error: () => then(false),
          complete: () => then(ok),
        }),
      );
    };
    const setLeading = (value: boolean) => {
      if (leading === value) return;
      leading = value;
      logger.info(value ? 'became leader' : 'stopped leading');
      subscriber.next(value);
    };
    const report = () => {
      const holder = observedHolder(rt.state);
      if (holder === reported) return;
      reported = holder;
      logger.info({ holder }, 'new leader observed');
      if (!config.onNewLeader) return;
      try {
        config.onNewLeader(holder);
      } catch (error) {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'onNewLeader threw');
      }
    };
    const jittered = () => timings.retryPeriod * (1 + random() * JITTER_FACTOR);
    const bounded = (step$: Observable<boolean>) =>
      step$.pipe(
        timeout({ first: timings.renewDeadline, scheduler }),
        catchError(() => of(false)),
      );
    const finish = () => {
      finished = true;
      subscriber.complete();
    };

    const acquire = () => {
      attempt(bounded(step(rt)), (ok) => {
        report();
        if (ok) {
          setLeading(true);
          renew();
        } else {
          later(acquire, jittered());
        }
      });
    };

    const renew = () => {
      deadline = scheduler.schedule(() => {
        deadline = undefined;
        current.unsubscribe();
        logger.info(
          { renewDeadline: timings.renewDeadline },
          'failed to renew the lease within the deadline',
        );
        lost();
      }, timings.renewDeadline);
      const poll = () => {
        attempt(step(rt), (ok) => {
          report();
          if (ok) {
            deadline?.unsubscribe();
            deadline = undefined;
            later(renew, timings.retryPeriod);
          } else if (!isLeader(rt.state) && observedHolder(rt.state) !== '') {
            deadline?.unsubscribe();
            deadline = undefined;
            logger.info({ holder: observedHolder(rt.state) }, 'another candidate holds the lease');
            lost();
          } else {
            later(poll, timings.retryPeriod);
          }
        });
      };
      poll();
    };

    const lost = () => {
      clear();
      setLeading(false);
      const next = () => {
        if (config.stopOnLoss) finish();
        else later(acquire, jittered());
      };
      if (releaseOnCancel && isLeader(rt.state)) {
        attempt(bounded(releaseLease(rt)), () => {
          report();
          next();
        });
      } else {
        next();
      }
    };

    const stopGracefully = () => {
      if (finished || subscriber.closed) return;
      clear();
      setLeading(false);
      if (releaseOnCancel && isLeader(rt.state)) {
        attempt(bounded(releaseLease(rt)), () => {
          report();
          finish();
        });
      } else {
        finish();
      }
    };

    config.healthz?.setElector(elector(rt, timings.leaseDuration));
    subscriber.next(false);
    if (config.signal?.aborted) {
      finish();
      return;
    }
    config.signal?.addEventListener('abort', stopGracefully, { once: true });
    acquire();

    return () => {
      config.healthz?.setElector(undefined);
      config.signal?.removeEventListener('abort', stopGracefully);
      clear();
      if (!finished && releaseOnCancel && isLeader(rt.state)) {
        bounded(releaseLease(rt)).subscribe();
      }
    };
  });

  return campaign$.pipe(
    share({
      connector: () => new ReplaySubject<boolean>(1),
      resetOnError: true,
      resetOnComplete: true,
      resetOnRefCountZero: true,
    }),
  );
}
