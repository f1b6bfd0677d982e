// tokenExpiration and signingToken: upstream's token cleaner cases (no expiration, expired, not expired, unparseable) and the bootstrap signer's secret checks, as tables.
import { describe, expect, it } from 'vitest';
import {
  type BootstrapTokenSecret,
  signingToken,
  tokenExpiration,
} from '../../../../operators/controller/bootstrap/bootstrap-token.ts';

const NOW = Date.UTC(2030, 0, 1, 12);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const token = (
  data: Record<string, string>,
  name = 'bootstrap-token-abc123',
  type = 'bootstrap.kubernetes.io/token',
): BootstrapTokenSecret => ({
  metadata: { namespace: 'kube-system', name },
  type,
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});
const VALID = { 'token-id': 'abc123', 'token-secret': 'tokensecret12345', 'usage-bootstrap-signing': 'true' };

describe('tokenExpiration', () => {
  it.each<[string, Record<string, string>, { expired: boolean; timeLeftMs: number }]>([
    ['no expiration: never expires', {}, { expired: false, timeLeftMs: 0 }],
    ['an hour ago: expired', { expiration: '2030-01-01T11:00:00Z' }, { expired: true, timeLeftMs: 0 }],
    ['exactly now: expired', { expiration: '2030-01-01T12:00:00Z' }, { expired: true, timeLeftMs: 0 }],
    [
      'in an hour: an hour left',
      { expiration: '2030-01-01T13:00:00Z' },
      { expired: false, timeLeftMs: 3600_000 },
    ],
    ['with an offset', { expiration: '2030-01-01T14:00:00+01:00' }, { expired: false, timeLeftMs: 3600_000 }],
    ['not RFC 3339: treated as expired', { expiration: 'tomorrow' }, { expired: true, timeLeftMs: 0 }],
    [
      'a date without a time: treated as expired',
      { expiration: '2031-01-01' },
      { expired: true, timeLeftMs: 0 },
    ],
  ])('%s', (_name, data, want) => {
    expect(tokenExpiration(token(data), NOW)).toEqual(want);
  });
});

describe('signingToken', () => {
  it.each<[string, BootstrapTokenSecret, { id: string; secret: string } | undefined]>([
    ['a valid signing token', token(VALID), { id: 'abc123', secret: 'tokensecret12345' }],
    [
      'not expiring yet',
      token({ ...VALID, expiration: '2030-01-02T00:00:00Z' }),
      { id: 'abc123', secret: 'tokensecret12345' },
    ],
    ['expired', token({ ...VALID, expiration: '2029-12-31T00:00:00Z' }), undefined],
    ['not for signing', token({ ...VALID, 'usage-bootstrap-signing': 'false' }), undefined],
    ['no signing usage', token({ 'token-id': 'abc123', 'token-secret': 'tokensecret12345' }), undefined],
    ['another type', token(VALID, 'bootstrap-token-abc123', 'Opaque'), undefined],
    ['a name without the prefix', token(VALID, 'abc123'), undefined],
    ['a name whose id is not the token id', token(VALID, 'bootstrap-token-zzz999'), undefined],
    [
      'an id that is not six lower-case characters',
      token({ ...VALID, 'token-id': 'ABC123' }, 'bootstrap-token-ABC123'),
      undefined,
    ],
    ['no token secret', token({ 'token-id': 'abc123', 'usage-bootstrap-signing': 'true' }), undefined],
  ])('%s', (_name, secret, want) => {
    expect(signingToken(secret, NOW)).toEqual(want);
  });
});
