// VirtualClock: a virtual-time scheduler you advance by hand, for testing timed streams without sleeping.
import { VirtualTimeScheduler } from 'rxjs';

/**
 * A scheduler whose time moves only when the test says so. Pass `clock.scheduler` wherever a
 * `scheduler` option is accepted, then `clock.advance(ms)` runs every timer due in that span, in order.
 *
 * @example
 * const clock = new VirtualClock();
 * const sub = listWatch(server, { scheduler: clock.scheduler }).subscribe(...);
 * clock.advance(30_000); // 30 virtual seconds, instantly
 */
export class VirtualClock {
  readonly scheduler = new VirtualTimeScheduler();

  /** The current virtual time in ms. */
  now(): number {
    return this.scheduler.now();
  }

  /** Timers scheduled and not yet run or cancelled. */
  get pending(): number {
    return this.scheduler.actions.length;
  }

  /**
   * Moves time forward by `ms`, running every timer that falls due, including ones scheduled meanwhile.
   * @param ms how far to move, at least 0
   */
  advance(ms: number): void {
    const target = this.scheduler.frame + Math.max(0, ms);
    this.scheduler.maxFrames = target;
    this.scheduler.flush();
    this.scheduler.frame = target;
  }
}
