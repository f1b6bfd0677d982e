// Resync periods of informer handlers: client-go's minimum, the informer's check period and the effective period.
import { InvalidConfigError } from './errors.ts';

/** No handler resyncs more often than this (client-go's minimumResyncPeriod). */
export const MINIMUM_RESYNC_PERIOD_MS = 1000;

/**
 * client-go's determineResyncPeriod: a handler that asked for no resync gets none; an informer whose check
 * period is 0 resyncs nobody; otherwise the handler resyncs at the slower of its period and the check period.
 * @param desiredMs the handler's requested period (0: never)
 * @param resyncCheckMs the informer's resync check period (0: never)
 * @returns the effective period in ms (0: never)
 */
export function determineResyncPeriod(desiredMs: number, resyncCheckMs: number): number {
  if (desiredMs === 0 || resyncCheckMs === 0) return 0;
  return Math.max(desiredMs, resyncCheckMs);
}

/** How registering a handler changes resync settings. */
export interface ResyncRegistration {
  /** The handler's period after the minimum and started-informer adjustments. */
  requestedMs: number;
  /** The informer's check period from now on. */
  resyncCheckMs: number;
  /** The handler's effective period ({@link determineResyncPeriod}). */
  effectiveMs: number;
  /** True when the check period was lowered: every existing handler's effective period must be recomputed. */
  lowered: boolean;
  /** Why the requested period was changed, for a log line. */
  adjusted?: string;
}

/**
 * client-go's AddEventHandlerWithResyncPeriod rules: a period under 1 s is raised to 1 s; a period under the
 * check period is raised to it once the informer has started, or lowers the check period before that.
 *
 * @example
 * registerResync(30_000, 60_000, false) // { requestedMs: 30000, resyncCheckMs: 30000, effectiveMs: 30000, lowered: true }
 * @param requestedMs the handler's period (0: never)
 * @param resyncCheckMs the informer's current check period
 * @param started whether the informer is running
 * @returns the adjusted periods
 * @throws InvalidConfigError when the period is negative or not a number
 */
export function registerResync(
  requestedMs: number,
  resyncCheckMs: number,
  started: boolean,
): ResyncRegistration {
  if (!Number.isFinite(requestedMs) || requestedMs < 0) {
    throw new InvalidConfigError('resyncPeriodMs', `must be a number >= 0, got ${requestedMs}`);
  }
  let requested = requestedMs;
  let check = resyncCheckMs;
  let lowered = false;
  let adjusted: string | undefined;
  if (requested > 0) {
    if (requested < MINIMUM_RESYNC_PERIOD_MS) {
      adjusted = `resync period ${requested} ms is below the minimum; using ${MINIMUM_RESYNC_PERIOD_MS} ms`;
      requested = MINIMUM_RESYNC_PERIOD_MS;
    }
    if (requested < check) {
      if (started) {
        adjusted = `resync period ${requested} ms is below the running informer's check period; using ${check} ms`;
        requested = check;
      } else {
        check = requested;
        lowered = true;
      }
    }
  }
  const out: ResyncRegistration = {
    requestedMs: requested,
    resyncCheckMs: check,
    effectiveMs: determineResyncPeriod(requested, check),
    lowered,
  };
  if (adjusted) out.adjusted = adjusted;
  return out;
}
