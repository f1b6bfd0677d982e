// Builders of the API errors a Kubernetes API server answers with, for fakes and tests.
import { ApiError } from '../../operators/errors.ts';
import type { Status } from '../../operators/types.ts';

function status(code: number, reason: string, message: string, extra: Partial<Status> = {}): Status {
  return { apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message, ...extra };
}

/** 410 Expired: the resourceVersion (or continue token) is older than the server's history. */
export function expiredError(message = 'too old resource version'): ApiError {
  return new ApiError(410, status(410, 'Expired', message));
}

/** 429 TooManyRequests, optionally with `Retry-After` seconds. */
export function tooManyRequestsError(retryAfterSeconds?: number): ApiError {
  const details = retryAfterSeconds === undefined ? {} : { details: { retryAfterSeconds } };
  return new ApiError(
    429,
    status(429, 'TooManyRequests', 'too many requests, please try again later', details),
  );
}

/** 500 InternalError (or another 5xx with `code`), optionally with `Retry-After` seconds. */
export function internalError(message = 'internal error', code = 500, retryAfterSeconds?: number): ApiError {
  const reason = code === 503 ? 'ServiceUnavailable' : 'InternalError';
  return new ApiError(code, status(code, reason, message), retryAfterSeconds);
}

/** 504 Timeout "Too large resource version": the server has not yet seen the requested resourceVersion. */
export function tooLargeResourceVersionError(requested = '', current = ''): ApiError {
  return new ApiError(
    504,
    status(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
    }),
  );
}
