// Over HTTPS against the embedded API server: the calls the namespace controller makes — discovery, deletecollection, and PUT of the finalize subresource.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KubeObject, ObjectList } from '../../../operators/types.ts';
import { CONFIG_MAPS, NAMESPACES } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';

const cluster = useEmbeddedCluster();

describe('kubeApiClient: discovery, deleteCollection, finalize', () => {
  it('serverPreferredResources lists core v1 and each group at its preferred version, with verbs', async () => {
    const found = await firstValueFrom(cluster.api.serverPreferredResources!());
    expect(found.failed).toEqual([]);
    const core = found.lists.find((l) => l.groupVersion === 'v1');
    expect(core?.resources.find((r) => r.name === 'pods')).toMatchObject({
      namespaced: true,
      kind: 'Pod',
      verbs: expect.arrayContaining(['delete', 'deletecollection', 'list']),
    });
    expect(found.lists.map((l) => l.groupVersion)).toEqual(expect.arrayContaining(['apps/v1', 'batch/v1']));
    // one version per group
    const groups = found.lists.map((l) => l.groupVersion.split('/')[0]);
    expect(new Set(groups).size).toBe(groups.length);
  });

  it('deleteCollection deletes what the selector picks in one namespace', async () => {
    const cm = (name: string, labels: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default', labels },
    });
    await firstValueFrom(cluster.api.create(CONFIG_MAPS, cm('dc-a', { dc: 'x' })));
    await firstValueFrom(cluster.api.create(CONFIG_MAPS, cm('dc-b', { dc: 'x' })));
    await firstValueFrom(cluster.api.create(CONFIG_MAPS, cm('dc-c', { dc: 'y' })));
    await firstValueFrom(
      cluster.api.deleteCollection!(CONFIG_MAPS, { namespace: 'default', labelSelector: 'dc=x' }),
    );
    const left = (await firstValueFrom(
      cluster.api.list(CONFIG_MAPS, { namespace: 'default', labelSelector: 'dc' }),
    )) as ObjectList<KubeObject>;
    expect(left.items.map((i) => i.metadata?.name)).toEqual(['dc-c']);
  });

  it('update with subresource finalize PUTs namespaces/NAME/finalize, which removes a deleted namespace', async () => {
    await firstValueFrom(
      cluster.api.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fin' } }),
    );
    await firstValueFrom(cluster.api.delete(NAMESPACES, 'fin'));
    const ns = await firstValueFrom(
      cluster.api.get<KubeObject & { spec?: { finalizers?: string[] } }>(NAMESPACES, 'fin'),
    );
    expect(ns.spec?.finalizers).toEqual(['kubernetes']);
    await firstValueFrom(
      cluster.api.update(NAMESPACES, { ...ns, spec: { finalizers: [] } }, { subresource: 'finalize' }),
    );
    await expect(firstValueFrom(cluster.api.get(NAMESPACES, 'fin'))).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
