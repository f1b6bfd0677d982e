// The fault plan of the fault-injection proxy: which faults, how often, and the named presets the trials use.
import { InvalidConfigError } from '../../operators/errors.ts';
import type { SeededRandom } from './fault-random.ts';

/** Faults decided once per request, before it is forwarded. At most one applies to a request. */
export const REQUEST_FAULTS = [
  'dropBeforeHeaders',
  'hang',
  'tooManyRequests',
  'serverError',
  'unavailable',
  'delay',
] as const;
export type RequestFault = (typeof REQUEST_FAULTS)[number];

/**
 * Faults decided for each line of a watch (and once for the body of any other answer). At most one
 * applies to a line.
 */
export const STREAM_FAULTS = [
  'cut',
  'cleanEnd',
  'expire',
  'stall',
  'stallForever',
  'malformed',
  'split',
] as const;
export type StreamFault = (typeof STREAM_FAULTS)[number];

export type FaultKind = RequestFault | StreamFault;

/** What the proxy knows about a request when it decides whether the plan applies to it. */
export interface ProxiedRequest {
  /** 1 for the proxy's first request, then counting up. */
  index: number;
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  /** True for a watch (`?watch=true` or a `/watch/` path). */
  watch: boolean;
}

/**
 * A fault plan: probabilities in [0, 1] per fault. Invariant (checked by {@link validateFaultPlan}):
 * the request faults' probabilities sum to at most 1, and so do the stream faults'.
 *
 * Request faults, per request:
 * - `dropBeforeHeaders`: the connection is destroyed before any answer.
 * - `hang`: the request is never answered (until the client gives up or the proxy closes).
 * - `tooManyRequests`: a 429 Status with `Retry-After: retryAfterSeconds`.
 * - `serverError` / `unavailable`: a 500 / 503 Status.
 * - `delay`: forwarded after a pause drawn from `delayMs`.
 *
 * Stream faults, per watch line (per body for other answers):
 * - `cut`: part of the line (any byte, possibly none) is sent, then the connection is destroyed.
 * - `cleanEnd`: the answer ends cleanly before the line (watches only).
 * - `expire`: a `410 Expired` ERROR event replaces the line and the answer ends (watches only).
 * - `stall`: the line is held for a pause drawn from `stallMs`, then the stream resumes.
 * - `stallForever`: nothing more is sent, the connection stays open (a silent watch, a hung list).
 * - `malformed`: the line is replaced by a complete but broken one (truncated JSON, not JSON, not a
 *   watch event, an event without metadata); the stream goes on.
 * - `split`: the line is sent in pieces cut at random byte positions (also inside UTF-8 characters).
 */
export interface FaultPlan {
  dropBeforeHeaders?: number;
  hang?: number;
  tooManyRequests?: number;
  serverError?: number;
  unavailable?: number;
  delay?: number;
  cut?: number;
  cleanEnd?: number;
  expire?: number;
  stall?: number;
  stallForever?: number;
  malformed?: number;
  split?: number;
  /** `Retry-After` of injected 429s, in whole seconds; default 1. */
  retryAfterSeconds?: number;
  /** Pause of `delay`, in ms, [min, max]; default [20, 300]. */
  delayMs?: readonly [number, number];
  /** Pause of `stall`, in ms, [min, max]; default [50, 500]. */
  stallMs?: readonly [number, number];
  /** Which requests get faults; default all. Others pass through untouched. */
  applies?: (request: ProxiedRequest) => boolean;
  /**
   * Draw the stream faults of a list body once per object in it, as a watch draws them once per line,
   * so that a per-event hazard hits a paginated list as often as a streaming one; the fault then
   * happens at that object's place in the body. Default false: one draw per body.
   */
  listFaultsPerItem?: boolean;
}

/** A plan with every default filled in. */
export interface ResolvedFaultPlan {
  request: Readonly<Record<RequestFault, number>>;
  stream: Readonly<Record<StreamFault, number>>;
  retryAfterSeconds: number;
  delayMs: readonly [number, number];
  stallMs: readonly [number, number];
  applies: (request: ProxiedRequest) => boolean;
  listFaultsPerItem: boolean;
}

function probability(field: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidConfigError(`faultPlan.${field}`, `must be a probability in [0, 1], got ${value}`);
  }
  return value;
}

function range(
  field: string,
  value: readonly [number, number] | undefined,
  fallback: readonly [number, number],
): readonly [number, number] {
  if (value === undefined) return fallback;
  const [min, max] = value;
  if (!Number.isFinite(min) || !Number.isFinite(max) || min < 0 || max < min) {
    throw new InvalidConfigError(
      `faultPlan.${field}`,
      `must be [min, max] with 0 <= min <= max, got ${value}`,
    );
  }
  return [min, max];
}

/**
 * Checks a plan and fills in its defaults.
 * @param plan the plan
 * @returns the resolved plan
 * @throws InvalidConfigError naming the field (`faultPlan.cut`, ...) when a value is out of range or
 *   the probabilities of one group sum to more than 1
 */
export function validateFaultPlan(plan: FaultPlan): ResolvedFaultPlan {
  const request = {} as Record<RequestFault, number>;
  for (const k of REQUEST_FAULTS) request[k] = probability(k, plan[k]);
  const stream = {} as Record<StreamFault, number>;
  for (const k of STREAM_FAULTS) stream[k] = probability(k, plan[k]);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  if (sum(Object.values(request)) > 1 + 1e-9) {
    throw new InvalidConfigError('faultPlan', 'the request faults’ probabilities sum to more than 1');
  }
  if (sum(Object.values(stream)) > 1 + 1e-9) {
    throw new InvalidConfigError('faultPlan', 'the stream faults’ probabilities sum to more than 1');
  }
  const retryAfterSeconds = plan.retryAfterSeconds ?? 1;
  if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
    throw new InvalidConfigError(
      'faultPlan.retryAfterSeconds',
      `must be a whole number >= 0, got ${retryAfterSeconds}`,
    );
  }
  if (plan.listFaultsPerItem !== undefined && typeof plan.listFaultsPerItem !== 'boolean') {
    throw new InvalidConfigError('faultPlan.listFaultsPerItem', 'must be a boolean');
  }
  if (plan.applies !== undefined && typeof plan.applies !== 'function') {
    throw new InvalidConfigError('faultPlan.applies', 'must be a function');
  }
  return {
    request,
    stream,
    retryAfterSeconds,
    delayMs: range('delayMs', plan.delayMs, [20, 300]),
    stallMs: range('stallMs', plan.stallMs, [50, 500]),
    applies: plan.applies ?? (() => true),
    listFaultsPerItem: plan.listFaultsPerItem === true,
  };
}

/**
 * Picks at most one fault from a group by one draw: the faults' probabilities are laid end to end on
 * [0, 1) in the group's order, and the draw falls in one of them or past them all (no fault).
 * @param probabilities the group, in a fixed order
 * @param random the generator
 * @returns the fault, or undefined
 */
export function pickFault<K extends string>(
  probabilities: Readonly<Record<K, number>>,
  order: readonly K[],
  random: SeededRandom,
): K | undefined {
  const draw = random();
  let edge = 0;
  for (const kind of order) {
    edge += probabilities[kind];
    if (draw < edge) return kind;
  }
  return undefined;
}

/** True for a proxy's first request: an informer's initial list or watch-list. */
export function isFirstRequest(request: ProxiedRequest): boolean {
  return request.index === 1;
}

/**
 * The named fault settings of the trials and the benchmark. `heavy` mixes every fault; the others
 * stress one family each. The last three are the settings of issue 19's harness, per watch event
 * (a streamed initial list's events included; a paginated list draws once per body): `stalls6s`
 * stalls of 6 s that then resume, `hangs` stalls that never resume (headers sent, then nothing more),
 * `hangsInList` never-resuming stalls in the first request only, the initial list, streamed or
 * paginated (per listed object there), and nothing after it.
 */
export const FAULT_PLANS = {
  none: {},
  light: { delay: 0.05, serverError: 0.02, cut: 0.005, cleanEnd: 0.005, split: 0.2 },
  heavy: {
    dropBeforeHeaders: 0.04,
    hang: 0.02,
    tooManyRequests: 0.04,
    serverError: 0.03,
    unavailable: 0.03,
    delay: 0.1,
    cut: 0.02,
    cleanEnd: 0.01,
    expire: 0.01,
    stall: 0.02,
    stallForever: 0.005,
    malformed: 0.01,
    split: 0.3,
  },
  stalls: { hang: 0.08, stall: 0.05, stallForever: 0.01, stallMs: [100, 1000] },
  throttling: { tooManyRequests: 0.3, unavailable: 0.1, retryAfterSeconds: 1 },
  garbled: { malformed: 0.03, split: 0.6, cut: 0.01 },
  stalls6s: { stall: 0.01, stallMs: [6000, 6000] },
  hangs: { stallForever: 0.01 },
  hangsInList: { stallForever: 0.01, listFaultsPerItem: true, applies: isFirstRequest },
} as const satisfies Record<string, FaultPlan>;

export type FaultPlanName = keyof typeof FAULT_PLANS;
