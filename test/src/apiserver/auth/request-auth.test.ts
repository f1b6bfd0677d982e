// The front door: authenticator order, refusing bad credentials, anonymous and insecure opt-outs, impersonation.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ApiStatusError } from '../../../../src/apiserver/api-status.ts';
import { createAuthorizer } from '../../../../src/apiserver/auth/authorizer.ts';
import {
  admitRequest,
  authenticate,
  type RequestAuthConfig,
} from '../../../../src/apiserver/auth/request-auth.ts';
import { tokenAuthenticator } from '../../../../src/apiserver/auth/token-file.ts';
import { rbacSource, rule } from './rbac-fixtures.ts';

const tokens = tokenAuthenticator(
  new Map([
    ['admin', { username: 'admin', groups: ['system:masters'] }],
    ['alice', { username: 'alice', groups: ['devs'] }],
  ]),
);
const rbac = rbacSource({
  clusterRoles: [{ metadata: { name: 'impersonator' }, rules: [rule('impersonate', '', 'users')] }],
  clusterRoleBindings: [
    {
      metadata: { name: 'alice-impersonates' },
      roleRef: { kind: 'ClusterRole', name: 'impersonator' },
      subjects: [{ kind: 'User', name: 'alice' }],
    },
  ],
});
const config = (over: Partial<RequestAuthConfig> = {}): RequestAuthConfig => ({
  authenticators: [tokens],
  authorize: createAuthorizer(['RBAC'], rbac),
  anonymousAuth: false,
  insecureAllowUnauthenticated: false,
  ...over,
});
const req = (headers: Record<string, string | string[]> = {}, method = 'GET', url = '/api/v1/secrets') =>
  ({
    method,
    url,
    headers: Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]),
    ),
    headersDistinct: Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v : [v]]),
    ),
  }) as unknown as IncomingMessage;

async function statusOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as ApiStatusError).statusCode;
  }
}

describe('authenticate', () => {
  it.each([
    [
      'a known token',
      { Authorization: 'Bearer alice' },
      {},
      { username: 'alice', groups: ['devs', 'system:authenticated'] },
    ],
    ['an unknown token', { Authorization: 'Bearer nope' }, {}, undefined],
    [
      'an unknown token with anonymous on',
      { Authorization: 'Bearer nope' },
      { anonymousAuth: true },
      undefined,
    ],
    ['basic auth', { Authorization: 'Basic eDp5' }, { anonymousAuth: true }, undefined],
    ['nothing', {}, {}, undefined],
    [
      'nothing with anonymous on',
      {},
      { anonymousAuth: true },
      { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    ],
    [
      'nothing with insecure on',
      {},
      { insecureAllowUnauthenticated: true },
      { username: 'system:anonymous', groups: ['system:unauthenticated', 'system:masters'] },
    ],
  ])('%s', async (_name, headers, over, want) => {
    expect(await authenticate(req(headers), config(over))).toEqual(want);
  });

  it('serves the health paths to requests with no credential even with anonymous off', async () => {
    expect(await authenticate(req({}, 'GET', '/readyz?verbose'), config())).toEqual({
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    });
    expect(await authenticate(req({}, 'POST', '/readyz'), config())).toBeUndefined();
  });
});

describe('admitRequest', () => {
  it.each([
    ['admin reads secrets', { Authorization: 'Bearer admin' }, 'ok'],
    ['alice reads secrets', { Authorization: 'Bearer alice' }, 403],
    ['nobody reads secrets', {}, 401],
    ['admin as alice', { Authorization: 'Bearer admin', 'Impersonate-User': 'alice' }, 403],
    [
      'alice as admin (she may impersonate users)',
      { Authorization: 'Bearer alice', 'Impersonate-User': 'admin' },
      403,
    ],
    [
      'alice as admin in system:masters (she may not impersonate groups)',
      { Authorization: 'Bearer alice', 'Impersonate-User': 'admin', 'Impersonate-Group': 'system:masters' },
      403,
    ],
    ['admin as a group with no user', { Authorization: 'Bearer admin', 'Impersonate-Group': 'devs' }, 400],
    [
      'admin as a member of system:masters',
      {
        Authorization: 'Bearer admin',
        'Impersonate-User': 'x',
        'Impersonate-Group': ['devs', 'system:masters'],
      },
      'ok',
    ],
  ])('%s → %s', async (_name, headers, want) => {
    const path = '/api/v1/namespaces/default/secrets';
    expect(await statusOf(admitRequest(req(headers), path, new URLSearchParams(), config()))).toBe(want);
  });

  it('runs an impersonated service account with its groups', async () => {
    const attrs = await admitRequest(
      req(
        { Authorization: 'Bearer admin', 'Impersonate-User': 'system:serviceaccount:ns1:sa' },
        'GET',
        '/healthz',
      ),
      '/healthz',
      new URLSearchParams(),
      config(),
    );
    expect(attrs.user).toEqual({
      username: 'system:serviceaccount:ns1:sa',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
    });
  });
});
