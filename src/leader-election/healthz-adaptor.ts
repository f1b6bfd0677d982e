// healthzAdaptor: client-go's HealthzAdaptor — /healthz fails when this leader's renewal is overdue past a timeout.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { LeaderElector } from './leader-elector.ts';

/**
 * A health check tied to one elector. Healthy while not leading (a hot standby is fine) and while leading
 * with a renewal no older than the lease duration plus `timeoutMs`; after that the leader should have
 * stepped down and has not (a stuck event loop, a deadlock), so the check fails and a supervisor can
 * restart the process.
 */
export interface HealthzAdaptor {
  /** The check's name in `/healthz` output: `leaderElection`. */
  readonly name: string;
  /** Undefined when healthy, else the error to report. */
  check(): Error | undefined;
  /** Attached by `leaderElection({ healthz })` while its campaign runs; undefined detaches. */
  setElector(elector: LeaderElector | undefined): void;
}

/**
 * @param timeoutMs how far past the lease duration an unrenewed leadership is tolerated (kube-scheduler and
 *   kube-controller-manager use 20 s)
 * @param scheduler the clock; default `asyncScheduler`
 */
export function healthzAdaptor(timeoutMs: number, scheduler: SchedulerLike = asyncScheduler): HealthzAdaptor {
  let current: LeaderElector | undefined;
  return {
    name: 'leaderElection',
    setElector(elector) {
      current = elector;
    },
    check() {
      const el = current;
      if (!el?.isLeader()) return undefined;
      if (scheduler.now() - el.observedTime() > el.leaseDuration + timeoutMs) {
        return new Error(`failed election to renew leadership on lease ${el.name}`);
      }
      return undefined;
    },
  };
}
