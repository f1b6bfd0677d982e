// startControllers: kube-controller-manager's StartControllers — each enabled controller initialised after a jittered pause, then the shared informers started.
import {
  asyncScheduler,
  concat,
  defer,
  EMPTY,
  ignoreElements,
  Observable,
  of,
  type SchedulerLike,
  type Subscription,
  timer,
} from 'rxjs';
import { isControllerEnabled } from '../../operators/controller-manager/is-controller-enabled.ts';
import { KubeRxError } from '../../operators/errors.ts';
import type { ControllerContext, ControllerDescriptor } from './controller-context.ts';

/** Why a controller was not started (upstream logs each of these and registers no health check). */
export type SkipReason = 'disabled' | 'featureGate' | 'cloudProvider' | 'notBuilt' | 'declined';

/** What the start-up did, in order. */
export type ControllerManagerEvent =
  | { type: 'Skipped'; controller: string; reason: SkipReason }
  | { type: 'Started'; controller: string }
  /** A started controller's observable errored: it has stopped, and its health check fails from now on. */
  | { type: 'Failed'; controller: string; error: unknown }
  /** Every controller is initialised and the shared informer factory has been started. */
  | { type: 'InformersStarted' };

/** Settings of {@link startControllers}. */
export interface StartControllersConfig {
  /** Handed to every init function (its logger gets a `controller` field per controller). */
  context: ControllerContext;
  descriptors: ReadonlyMap<string, ControllerDescriptor>;
  /** `--controllers`, resolved (canonical names); default `['*']`. */
  controllers?: readonly string[];
  /** `--controller-start-interval` in ms: each start waits interval × [1, 2); default 0 (no wait). */
  startIntervalMs?: number;
  /** Random numbers in [0, 1) for the jitter; default Math.random. */
  random?: () => number;
  scheduler?: SchedulerLike;
}

/**
 * Starts the enabled controllers one after another, as kube-controller-manager does: the
 * serviceaccount-token controller first, then the others in registration order; before each, skip it
 * when a required feature gate is off, when it needs a cloud provider, or when `--controllers` disables
 * it; otherwise pause for the jittered start interval, then call its init function and subscribe to the
 * controller it returns. Only when every controller is initialised is the shared informer factory
 * started, so every controller's handlers see the whole initial list.
 *
 * ```
 * controllers: [*]  interval 1 s, random 0.5
 * events:      ---1.5s--(Started job)---1.5s--(Started ttl, InformersStarted)
 * ```
 *
 * An init function that throws ends the observable with an error naming the controller (the command
 * exits non-zero); a running controller that errors is a `Failed` event, not the end.
 *
 * Teardown: unsubscribing stops every started controller and shuts the informer factory down.
 * @param config the context, the descriptors, the flag and the start interval
 * @returns the start-up events
 */
export function startControllers(config: StartControllersConfig): Observable<ControllerManagerEvent> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const controllers = config.controllers ?? ['*'];
  const interval = config.startIntervalMs ?? 0;
  const random = config.random ?? Math.random;
  const disabledByDefault = new Set(
    [...config.descriptors.values()].filter((d) => d.disabledByDefault).map((d) => d.name),
  );
  const gates = config.context.options.featureGates;
  const ordered = [...config.descriptors.values()].sort(
    (a, b) =>
      Number(b.name === 'serviceaccount-token-controller') -
      Number(a.name === 'serviceaccount-token-controller'),
  );

  return new Observable<ControllerManagerEvent>((subscriber) => {
    const running: Subscription[] = [];
    const startOne = (d: ControllerDescriptor): Observable<ControllerManagerEvent> => {
      const skip = (reason: SkipReason) =>
        of<ControllerManagerEvent>({ type: 'Skipped', controller: d.name, reason });
      if (d.requiredFeatureGates?.some((g) => !gates[g])) return skip('featureGate');
      if (d.cloudProvider) return skip('cloudProvider');
      if (!isControllerEnabled(d.name, disabledByDefault, controllers)) return skip('disabled');
      if (!d.init) return skip('notBuilt');
      const init = d.init;
      const pause = interval > 0 ? timer(interval * (1 + random()), scheduler).pipe(ignoreElements()) : EMPTY;
      return concat(
        pause,
        defer(() => {
          const logger = config.context.logger.child({ controller: d.name });
          let controller$: Observable<unknown> | undefined;
          try {
            controller$ = init({ ...config.context, logger });
          } catch (error) {
            throw new KubeRxError(
              'KUBE_RX_CONTROLLER',
              `error starting controller "${d.name}": ${(error as Error).message}`,
              {
                cause: error,
              },
            );
          }
          if (!controller$) return skip('declined');
          running.push(
            controller$.subscribe({
              error: (error) => subscriber.next({ type: 'Failed', controller: d.name, error }),
            }),
          );
          return of<ControllerManagerEvent>({ type: 'Started', controller: d.name });
        }),
      );
    };
    const startup = concat(
      ...ordered.map(startOne),
      defer(() => {
        config.context.informerFactory.start();
        return of<ControllerManagerEvent>({ type: 'InformersStarted' });
      }),
    ).subscribe({
      next: (event) => subscriber.next(event),
      error: (error) => subscriber.error(error),
    });
    return () => {
      startup.unsubscribe();
      for (const s of running) s.unsubscribe();
      config.context.informerFactory.shutdown();
    };
  });
}
