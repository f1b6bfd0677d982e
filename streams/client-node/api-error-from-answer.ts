// Turns an HTTP error answer into an ApiError: the Status body if there is one, and Retry-After parsed.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../../operators/errors.ts';
import type { Status } from '../../operators/types.ts';

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/**
 * Parses a `Retry-After` header: delay seconds, or an HTTP date (relative to `now`).
 * @returns whole seconds to wait (>= 0), or `undefined` when absent or unreadable
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The ApiError of an HTTP error answer. A `Status` body is kept as is (its code defaults to the HTTP
 * status); any other body becomes a Status with the conventional reason for the code and the body
 * (truncated) as its message.
 * @param answer status code, headers and body text
 * @returns the error, with `retryAfterSeconds` from the header or the Status details
 */
export function apiErrorFromAnswer(answer: {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
}): ApiError {
  let status: Status | undefined;
  try {
    const parsed = JSON.parse(answer.body) as Status;
    if (parsed && typeof parsed === 'object' && parsed.kind === 'Status') status = parsed;
  } catch {
    // not JSON: described below
  }
  if (!status) {
    const text = answer.body.trim();
    status = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code: answer.statusCode,
      reason: REASONS[answer.statusCode] ?? 'Unknown',
      message: text ? (text.length > 500 ? `${text.slice(0, 500)}…` : text) : `HTTP ${answer.statusCode}`,
    };
  } else if (status.code === undefined) {
    status = { ...status, code: answer.statusCode };
  }
  return new ApiError(answer.statusCode, status, parseRetryAfter(answer.headers['retry-after']));
}
