// Service account tokens: signed with upstream's claims, verified by signature, issuer, audience and lifetime; the key kept owner-only.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadServiceAccountKeys,
  SERVICE_ACCOUNT_KEY_FILE,
  signServiceAccountToken,
  verifyServiceAccountToken,
} from '../../../../src/apiserver/builtin/service-account-token.ts';

const NOW = 1_800_000_000;
const keys = loadServiceAccountKeys();
const claims = {
  namespace: 'team',
  name: 'robot',
  uid: 'sa-uid',
  audiences: ['https://kubernetes.default.svc.cluster.local'],
  expirationSeconds: 3600,
  now: NOW,
};

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

describe('service account tokens', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('carries iss, aud, exp, iat, nbf, sub and the kubernetes.io claims', async () => {
    const token = await signServiceAccountToken(keys, {
      ...claims,
      boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' },
    });
    expect(payloadOf(token)).toMatchObject({
      iss: 'https://kubernetes.default.svc.cluster.local',
      aud: ['https://kubernetes.default.svc.cluster.local'],
      sub: 'system:serviceaccount:team:robot',
      iat: NOW,
      nbf: NOW,
      exp: NOW + 3600,
      'kubernetes.io': {
        namespace: 'team',
        serviceaccount: { name: 'robot', uid: 'sa-uid' },
        pod: { name: 'web-0', uid: 'pod-uid' },
      },
    });
    const head = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
    expect(head).toEqual({ alg: 'RS256', kid: keys.keyId });
  });

  it('verifies to the service account user and its groups', async () => {
    const token = await signServiceAccountToken(keys, claims);
    const out = await verifyServiceAccountToken(keys, token, { now: NOW + 10 });
    expect(out).toEqual({
      ok: true,
      subject: {
        username: 'system:serviceaccount:team:robot',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team'],
        namespace: 'team',
        serviceAccount: { name: 'robot', uid: 'sa-uid' },
        expiresAt: NOW + 3600,
      },
    });
  });

  it.each([
    [
      'an expired token',
      async () => [await signServiceAccountToken(keys, claims), { now: NOW + 3601 }] as const,
    ],
    [
      'a token not yet valid',
      async () => [await signServiceAccountToken(keys, claims), { now: NOW - 120 }] as const,
    ],
    [
      'another audience',
      async () =>
        [await signServiceAccountToken(keys, { ...claims, audiences: ['vault'] }), { now: NOW }] as const,
    ],
    [
      'another key',
      async () => [await signServiceAccountToken(loadServiceAccountKeys(), claims), { now: NOW }] as const,
    ],
    [
      'a tampered payload',
      async () => {
        const [h, , s] = (await signServiceAccountToken(keys, claims)).split('.');
        const forged = Buffer.from(
          JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' }),
        ).toString('base64url');
        return [`${h}.${forged}.${s}`, { now: NOW }] as const;
      },
    ],
  ])('refuses %s', async (_name, make) => {
    const [token, options] = await make();
    const out = await verifyServiceAccountToken(keys, token, options);
    expect(out.ok).toBe(false);
  });

  it('keeps the key in the data dir, owner-only, and reuses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-sa-key-'));
    dirs.push(dir);
    const first = loadServiceAccountKeys(dir);
    expect(statSync(join(dir, SERVICE_ACCOUNT_KEY_FILE)).mode & 0o777).toBe(0o600);
    const second = loadServiceAccountKeys(dir);
    expect(second.keyId).toBe(first.keyId);
    const token = await signServiceAccountToken(first, claims);
    expect((await verifyServiceAccountToken(second, token, { now: NOW })).ok).toBe(true);
  });
});
