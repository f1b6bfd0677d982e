// A service-account token minted before a restart still authenticates after it, when the server keeps a data dir.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApiServer } from '../../../src/apiserver/index.ts';
import { request } from './fixtures/http.ts';

describe('service-account token signing key', () => {
  it('is kept in --data-dir, so a token verifies after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kube-rx-sa-'));
    const first = await startApiServer({ dataDir });
    let token: string;
    try {
      const minted = await request(
        first,
        'POST',
        '/api/v1/namespaces/default/serviceaccounts/default/token',
        {
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
        },
      );
      expect(minted.status).toBe(201);
      token = minted.body.status.token;
    } finally {
      await first.close();
    }
    const second = await startApiServer({ dataDir });
    try {
      const asAccount = { url: second.url, caPem: second.caPem, token };
      const review = await request(asAccount, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
      expect(review.status).toBe(201);
      expect(review.body.status.userInfo.username).toBe('system:serviceaccount:default:default');
      const wrong = await request(
        { ...asAccount, token: `${token}x` },
        'GET',
        '/api/v1/namespaces/default/pods',
      );
      expect(wrong.status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
