// rootCACertPublisher against the embedded API server: every namespace gets kube-root-ca.crt, recreated when deleted, restored when changed.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT_CA_CERT_PUBLISHER_CONTROLLER_NAME,
  rootCACertPublisher,
} from '../../../../src/controllers/root-ca-cert-publisher/root-ca-cert-publisher.ts';
import {
  type ConfigMap,
  DESCRIPTION_ANNOTATION,
} from '../../../../src/controllers/root-ca-cert-publisher/root-ca-config-map.ts';
import { CONFIG_MAPS, NAMESPACES } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';

const cluster = useEmbeddedCluster();
const CA = '-----BEGIN CERTIFICATE-----\npublished\n-----END CERTIFICATE-----\n';
let stop: () => void;

beforeAll(() => {
  const sub = rootCACertPublisher({ client: cluster.api, rootCA: CA }).subscribe();
  stop = () => sub.unsubscribe();
});
afterAll(() => stop?.());

async function rootCA(namespace: string): Promise<ConfigMap | undefined> {
  try {
    return await firstValueFrom(cluster.api.get<ConfigMap>(CONFIG_MAPS, 'kube-root-ca.crt', { namespace }));
  } catch {
    return undefined;
  }
}

/** Waits (real time, bounded) until the namespace's kube-root-ca.crt holds `CA`. */
async function published(namespace: string, after?: string): Promise<ConfigMap> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const cm = await rootCA(namespace);
    if (cm?.data?.['ca.crt'] === CA && cm.metadata?.resourceVersion !== after) return cm;
    if (Date.now() > deadline) throw new Error(`timed out waiting for kube-root-ca.crt in ${namespace}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('rootCACertPublisher', () => {
  it('has upstream’s controller name', () => {
    expect(ROOT_CA_CERT_PUBLISHER_CONTROLLER_NAME).toBe('root-ca-certificate-publisher-controller');
  });

  it('publishes into the namespaces that exist and into new ones', async () => {
    expect((await published('default')).metadata?.annotations?.[DESCRIPTION_ANNOTATION]).toBeTruthy();
    await published('kube-system');
    await firstValueFrom(
      cluster.api.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }),
    );
    const cm = await published('team-a');
    expect(Object.keys(cm.data ?? {})).toEqual(['ca.crt']);
  });

  it('recreates a deleted kube-root-ca.crt', async () => {
    const before = await published('default');
    await firstValueFrom(cluster.api.delete(CONFIG_MAPS, 'kube-root-ca.crt', { namespace: 'default' }));
    const after = await published('default', before.metadata?.resourceVersion);
    expect(after.metadata?.uid).not.toBe(before.metadata?.uid);
  });

  it('puts back a changed ca.crt and drops added keys', async () => {
    const before = await published('default');
    await firstValueFrom(
      cluster.api.update(
        CONFIG_MAPS,
        { ...before, data: { 'ca.crt': 'tampered', extra: 'x' } },
        { namespace: 'default' },
      ),
    );
    const after = await published('default', before.metadata?.resourceVersion);
    expect(after.data).toEqual({ 'ca.crt': CA });
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
  });

  it('leaves other ConfigMaps alone', async () => {
    await firstValueFrom(
      cluster.api.create(CONFIG_MAPS, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'other', namespace: 'default' },
        data: { a: 'b' },
      } as ConfigMap),
    );
    await new Promise((r) => setTimeout(r, 200));
    const other = await firstValueFrom(
      cluster.api.get<ConfigMap>(CONFIG_MAPS, 'other', { namespace: 'default' }),
    );
    expect(other.data).toEqual({ a: 'b' });
  });
});
