// bootstrapSignerController over HTTP against the embedded API server: cluster-info gains a verifiable signature per signing token, none for a token not meant for signing, and loses it when the token goes.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detachedTokenIsValid } from '../../../../operators/controller/bootstrap/detached-jws.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { bootstrapSignerController } from '../../../../src/controllers/bootstrap/bootstrap-signer-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { CONFIG_MAPS, NAMESPACES, SECRETS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { eventually } from '../../../helpers/eventually.ts';

const cluster = useEmbeddedCluster();
const KUBECONFIG =
  'apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: https://10.0.0.1:6443\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const tokenSecret = (id: string, secret: string, extra: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { namespace: 'kube-system', name: `bootstrap-token-${id}` },
  type: 'bootstrap.kubernetes.io/token',
  data: Object.fromEntries(
    Object.entries({
      'token-id': id,
      'token-secret': secret,
      'usage-bootstrap-signing': 'true',
      ...extra,
    }).map(([k, v]) => [k, b64(v)]),
  ),
});

describe('bootstrapSignerController', () => {
  let stop = () => {};
  beforeAll(async () => {
    const api = cluster.api;
    await firstValueFrom(api.get(NAMESPACES, 'kube-public')).catch(() =>
      firstValueFrom(api.create(NAMESPACES, { metadata: { name: 'kube-public' } })),
    );
    const factory = informerFactory({ client: api });
    const subs = [bootstrapSignerController({ client: api, informerFactory: factory }).subscribe()];
    factory.start();
    stop = () => {
      for (const s of subs) s.unsubscribe();
      factory.shutdown();
    };
  });
  afterAll(() => stop());

  const clusterInfo = () =>
    firstValueFrom(
      cluster.api.get<KubeObject & { data?: Record<string, string> }>(CONFIG_MAPS, 'cluster-info', {
        namespace: 'kube-public',
      }),
    );
  it('signs cluster-info with each signing token and drops the signature of a deleted one', async () => {
    const api = cluster.api;
    await firstValueFrom(
      api.create(SECRETS, tokenSecret('abc123', 'tokensecret12345'), { namespace: 'kube-system' }),
    );
    await firstValueFrom(
      api.create(SECRETS, tokenSecret('nosign', 'tokensecret12345', { 'usage-bootstrap-signing': 'false' }), {
        namespace: 'kube-system',
      }),
    );
    await firstValueFrom(
      api.create(
        CONFIG_MAPS,
        { metadata: { namespace: 'kube-public', name: 'cluster-info' }, data: { kubeconfig: KUBECONFIG } },
        { namespace: 'kube-public' },
      ),
    );
    await eventually(async () => {
      const sig = (await clusterInfo()).data?.['jws-kubeconfig-abc123'] ?? '';
      expect(detachedTokenIsValid(sig, KUBECONFIG, 'abc123', 'tokensecret12345')).toBe(true);
    }, 15_000);
    expect(Object.keys((await clusterInfo()).data ?? {}).sort()).toEqual([
      'jws-kubeconfig-abc123',
      'kubeconfig',
    ]);

    await firstValueFrom(api.delete(SECRETS, 'bootstrap-token-abc123', { namespace: 'kube-system' }));
    await eventually(async () => {
      expect(Object.keys((await clusterInfo()).data ?? {})).toEqual(['kubeconfig']);
    }, 15_000);
  }, 30_000);
});
