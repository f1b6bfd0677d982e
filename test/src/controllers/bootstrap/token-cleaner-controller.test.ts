// tokenCleanerController over HTTP against the embedded API server: an expired bootstrap token is deleted at once, one expiring in five seconds when it expires, a later one kept.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenCleanerController } from '../../../../src/controllers/bootstrap/token-cleaner-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { NAMESPACES, SECRETS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { eventually } from '../../../helpers/eventually.ts';

const cluster = useEmbeddedCluster();
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

describe('tokenCleanerController', () => {
  let stop = () => {};
  beforeAll(async () => {
    const api = cluster.api;
    await firstValueFrom(api.get(NAMESPACES, 'kube-public')).catch(() =>
      firstValueFrom(api.create(NAMESPACES, { metadata: { name: 'kube-public' } })),
    );
    const factory = informerFactory({ client: api });
    const subs = [tokenCleanerController({ client: api, informerFactory: factory }).subscribe()];
    factory.start();
    stop = () => {
      for (const s of subs) s.unsubscribe();
      factory.shutdown();
    };
  });
  afterAll(() => stop());

  const secretNames = async () =>
    (await firstValueFrom(cluster.api.list(SECRETS, { namespace: 'kube-system' }))).items.map(
      (s) => s.metadata?.name,
    );

  it('deletes an expired token at once and a token expiring in five seconds when it expires', async () => {
    const api = cluster.api;
    const iso = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d+Z$/, 'Z');
    await firstValueFrom(
      api.create(SECRETS, tokenSecret('old111', 's', { expiration: iso(-3600_000) }), {
        namespace: 'kube-system',
      }),
    );
    await firstValueFrom(
      api.create(SECRETS, tokenSecret('soon22', 's', { expiration: iso(5000) }), {
        namespace: 'kube-system',
      }),
    );
    await firstValueFrom(
      api.create(SECRETS, tokenSecret('later3', 's', { expiration: iso(3600_000) }), {
        namespace: 'kube-system',
      }),
    );
    await eventually(async () => {
      const names = await secretNames();
      expect(names).not.toContain('bootstrap-token-old111');
      expect(names).toContain('bootstrap-token-soon22');
    }, 4000);
    await eventually(async () => {
      expect(await secretNames()).not.toContain('bootstrap-token-soon22');
    }, 15_000);
    expect(await secretNames()).toContain('bootstrap-token-later3');
  }, 30_000);
});
