// The client-certificate authenticator: upstream's x509 basics (CN user, O groups, chain, usage).
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { x509Authenticator } from '../../../../src/apiserver/auth/x509-authenticator.ts';

/** A request over a TLS socket whose peer certificate and verification result are given. */
function overTls(cert: Record<string, unknown>, authorized: boolean): IncomingMessage {
  return {
    headers: {},
    socket: { authorized, getPeerCertificate: () => cert },
  } as unknown as IncomingMessage;
}

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

describe('x509Authenticator', () => {
  const authenticate = x509Authenticator();

  it.each([
    [
      'CN only',
      { subject: { CN: 'client_cert' }, ext_key_usage: [CLIENT_AUTH] },
      true,
      { username: 'client_cert', groups: [] },
    ],
    [
      'CN and one O',
      { subject: { CN: 'u', O: 'group_a' }, ext_key_usage: [CLIENT_AUTH] },
      true,
      { username: 'u', groups: ['group_a'] },
    ],
    [
      'CN and several O',
      { subject: { CN: 'u', O: ['group_a', 'group_b'] }, ext_key_usage: [CLIENT_AUTH] },
      true,
      { username: 'u', groups: ['group_a', 'group_b'] },
    ],
    ['no extended key usage at all', { subject: { CN: 'u' } }, true, { username: 'u', groups: [] }],
    [
      'a certificate that does not chain to the CA',
      { subject: { CN: 'u' }, ext_key_usage: [CLIENT_AUTH] },
      false,
      'invalid',
    ],
    ['a server-only certificate', { subject: { CN: 'u' }, ext_key_usage: [SERVER_AUTH] }, true, 'invalid'],
    ['no CN', { subject: { O: 'g' }, ext_key_usage: [CLIENT_AUTH] }, true, 'invalid'],
    ['no certificate', {}, false, undefined],
  ])('%s', (_name, cert, authorized, want) => {
    expect(authenticate(overTls(cert, authorized))).toEqual(want);
  });

  it('ignores plain HTTP sockets', () => {
    expect(authenticate({ headers: {}, socket: {} } as unknown as IncomingMessage)).toBeUndefined();
  });
});
