// Tests the mapping of HTTP error answers to ApiError, and Retry-After parsing.
import { describe, expect, it } from 'vitest';
import { isExpired, isRetryable } from '../../../operators/errors.ts';
import { apiErrorFromAnswer, parseRetryAfter } from '../../../streams/client-node/api-error-from-answer.ts';

describe('parseRetryAfter', () => {
  it.each([
    ['seconds', '7', 7],
    ['zero', '0', 0],
    ['padded', ' 12 ', 12],
    ['an HTTP date 5 s ahead', new Date(1_000_000 + 4_500).toUTCString(), 4],
    ['a date in the past', new Date(0).toUTCString(), 0],
    ['garbage', 'soon', undefined],
    ['absent', undefined, undefined],
  ])('%s', (_name, header, expected) => {
    expect(parseRetryAfter(header, 1_000_000)).toBe(expected);
  });
});

describe('apiErrorFromAnswer', () => {
  it('keeps a Status body and reads Retry-After', () => {
    const error = apiErrorFromAnswer({
      statusCode: 429,
      headers: { 'retry-after': '2' },
      body: JSON.stringify({ kind: 'Status', reason: 'TooManyRequests', message: 'slow down', code: 429 }),
    });
    expect(error).toMatchObject({ statusCode: 429, reason: 'TooManyRequests', retryAfterSeconds: 2 });
    expect(isRetryable(error)).toBe(true);
  });

  it('falls back to the Status details for Retry-After', () => {
    const error = apiErrorFromAnswer({
      statusCode: 500,
      headers: {},
      body: JSON.stringify({ kind: 'Status', reason: 'InternalError', details: { retryAfterSeconds: 4 } }),
    });
    expect(error.retryAfterSeconds).toBe(4);
    expect(error.status.code).toBe(500);
  });

  it.each([
    [410, 'Expired'],
    [404, 'NotFound'],
    [503, 'ServiceUnavailable'],
    [418, 'Unknown'],
  ])('synthesises a Status for a bare %i', (code, reason) => {
    const error = apiErrorFromAnswer({ statusCode: code, headers: {}, body: '' });
    expect(error.reason).toBe(reason);
    expect(error.status.message).toBe(`HTTP ${code}`);
    if (code === 410) expect(isExpired(error)).toBe(true);
  });
});
