// tokenRequestClient against the embedded API server: a bound token for a pod, the server's words for a missing account, the standalone error.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { tokenRequestClient } from '../../../../src/kubelet/token/token-request-client.ts';
import { PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';

const cluster = useEmbeddedCluster({ port: 0 });

describe('tokenRequestClient', () => {
  it('gets a token bound to a pod, with the asked audience and lifetime', async () => {
    const pod = await firstValueFrom(
      cluster.api.create<Pod>(
        PODS,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'bound', namespace: 'default' },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
        { namespace: 'default' },
      ),
    );
    const tr = await tokenRequestClient(cluster.api)('default', 'default', {
      spec: {
        audiences: ['vault'],
        expirationSeconds: 7200,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'bound', uid: pod.metadata.uid },
      },
    });
    expect(tr.spec.expirationSeconds).toBe(7200);
    const claims = JSON.parse(
      Buffer.from(tr.status?.token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    );
    expect(claims.aud).toEqual(['vault']);
    expect(claims['kubernetes.io'].pod).toEqual({ name: 'bound', uid: pod.metadata.uid });
    expect(Date.parse(tr.status?.expirationTimestamp ?? '') - claims.iat * 1000).toBe(7_200_000);
  });

  it('says which service account is missing, in the API server’s words', async () => {
    await expect(tokenRequestClient(cluster.api)('default', 'nope', { spec: {} })).rejects.toThrow(
      'serviceaccounts "nope" not found',
    );
  });

  it('a kubelet without an API server cannot mint tokens', async () => {
    await expect(tokenRequestClient(undefined)('default', 'default', { spec: {} })).rejects.toThrow(
      'cannot use TokenManager when kubelet is in standalone mode',
    );
  });
});
