// signingDuration: upstream's signer duration cases (the TTL, a shorter expirationSeconds, the 10-minute floor), as a table.
import { describe, expect, it } from 'vitest';
import { signingDuration } from '../../../../operators/controller/certificates/signing-duration.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('signingDuration', () => {
  it.each<[string, number, number | undefined, number]>([
    ['no request: the signer TTL', HOUR, undefined, HOUR],
    ['the TTL asked for exactly', HOUR, 3600, HOUR],
    ['longer than the TTL: the TTL', HOUR, 7200, HOUR],
    ['shorter than the TTL: as asked', HOUR, 1800, 30 * MIN],
    ['exactly ten minutes', HOUR, 600, 10 * MIN],
    ['under ten minutes: ten minutes', HOUR, 599, 10 * MIN],
    ['a tiny request: ten minutes', HOUR, 1, 10 * MIN],
    ['a year by default', 365 * 24 * HOUR, undefined, 365 * 24 * HOUR],
    ['a day out of a year', 365 * 24 * HOUR, 86_400, 24 * HOUR],
  ])('%s', (_name, ttl, expirationSeconds, want) => {
    expect(signingDuration(ttl, expirationSeconds)).toBe(want);
  });
});
