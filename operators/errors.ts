// Error classes with stable codes, and the predicates that classify API errors for retry and relist.
import type { Status } from './types.ts';

/** Base class of every kube-rx error; `code` is stable and safe to switch on. */
export class KubeRxError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Invalid configuration or input: names the input and the field. */
export class InvalidConfigError extends KubeRxError {
  readonly field: string;
  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super('KUBE_RX_INVALID_CONFIG', `${field}: ${message}`, options);
    this.field = field;
  }
}

/** Bad input data (a manifest, a selector, a watch line): names the input and the field. */
export class InvalidInputError extends KubeRxError {
  readonly input: string;
  readonly field: string | undefined;
  constructor(input: string, field: string | undefined, message: string, options?: { cause?: unknown }) {
    super('KUBE_RX_INVALID_INPUT', `${input}${field ? ` (${field})` : ''}: ${message}`, options);
    this.input = input;
    this.field = field;
  }
}

/** An object's key could not be computed (e.g. it has no metadata.name). */
export class KeyError extends KubeRxError {
  readonly object: unknown;
  constructor(object: unknown, message: string) {
    super('KUBE_RX_KEY', `couldn't get key for object: ${message}`);
    this.object = object;
  }
}

/** An API server answered with an error Status (or an HTTP error without one). */
export class ApiError extends KubeRxError {
  readonly statusCode: number;
  readonly reason: string;
  readonly status: Status;
  /** Seconds to wait before retrying, from `Retry-After` or `details.retryAfterSeconds`. */
  readonly retryAfterSeconds: number | undefined;
  constructor(statusCode: number, status: Status, retryAfterSeconds?: number) {
    super('KUBE_RX_API', `${status.reason ?? 'Unknown'} (${statusCode}): ${status.message ?? 'no message'}`);
    this.statusCode = statusCode;
    this.reason = status.reason ?? '';
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds ?? status.details?.retryAfterSeconds;
  }
}

/** A request that did not finish within its timeout. */
export class TimeoutError extends KubeRxError {
  constructor(what: string, ms: number) {
    super('KUBE_RX_TIMEOUT', `${what} did not answer within ${ms} ms`);
  }
}

function statusOf(error: unknown): { code: number | undefined; reason: string; message: string } {
  if (error instanceof ApiError) {
    return { code: error.statusCode, reason: error.reason, message: error.status.message ?? '' };
  }
  if (error && typeof error === 'object' && 'kind' in error && (error as Status).kind === 'Status') {
    const s = error as Status;
    return { code: s.code, reason: s.reason ?? '', message: s.message ?? '' };
  }
  return { code: undefined, reason: '', message: error instanceof Error ? error.message : '' };
}

/** 410 Gone / reason Expired or Gone: the resourceVersion is too old, relist. */
export function isExpired(error: unknown): boolean {
  const s = statusOf(error);
  return s.code === 410 || s.reason === 'Expired' || s.reason === 'Gone';
}

/**
 * "Too large resource version": the server is behind the requested resourceVersion, relist from scratch.
 * Recognised by the message or by a `ResourceVersionTooLarge` status cause, as apimachinery does.
 */
export function isTooLargeResourceVersion(error: unknown): boolean {
  const s = statusOf(error);
  if (
    (s.code === 504 || s.code === 500 || s.reason === 'Timeout') &&
    /too large resource version/i.test(s.message)
  ) {
    return true;
  }
  return (
    hasStatusCause(error, 'ResourceVersionTooLarge') ||
    causesOf(error).some((c) => c.message === 'Too large resource version')
  );
}

function causesOf(error: unknown): NonNullable<NonNullable<Status['details']>['causes']> {
  return (error instanceof ApiError ? error.status : (error as Status | undefined))?.details?.causes ?? [];
}

/**
 * The refusal carries a Status cause of this type (metav1.StatusCause's `reason`), as apimachinery's
 * `HasStatusCause`: e.g. `NamespaceTerminating` for a create in a namespace being deleted.
 */
export function hasStatusCause(error: unknown, cause: string): boolean {
  return causesOf(error).some((c) => c.reason === cause);
}

/** 429 and 5xx: worth retrying with backoff. */
export function isRetryable(error: unknown): boolean {
  const s = statusOf(error);
  return s.code === undefined || s.code === 429 || s.code >= 500;
}
