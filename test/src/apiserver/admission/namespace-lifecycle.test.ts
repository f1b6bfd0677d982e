// NamespaceLifecycle: no new content in a missing or terminating namespace; system namespaces exist and stay (upstream's admission_test cases).
import { describe, expect, it } from 'vitest';
import { pod, refusal, registryFixture } from './registry-fixture.ts';

describe('NamespaceLifecycle', () => {
  it.each(['default', 'kube-system', 'kube-public', 'kube-node-lease'])(
    '%s exists from the start',
    (name) => {
      const { get } = registryFixture();
      expect(get('namespaces', undefined, name).metadata?.name).toBe(name);
    },
  );

  it('refuses a create in a missing namespace with 404 naming it', () => {
    const { create } = registryFixture();
    expect(refusal(() => create('pods', 'nowhere', pod('p')))).toEqual({
      code: 404,
      message: 'namespaces "nowhere" not found',
    });
  });

  it('refuses a create in a terminating namespace with upstream words', () => {
    const { create, registry, def } = registryFixture();
    create('namespaces', undefined, { metadata: { name: 'going', finalizers: ['example.com/hold'] } });
    registry.delete(def('namespaces'), undefined, 'going', {});
    expect(refusal(() => create('configmaps', 'going', { metadata: { name: 'cm' } }))).toEqual({
      code: 403,
      message:
        'configmaps "cm" is forbidden: unable to create new content in namespace going because it is being terminated',
    });
  });

  it.each(['default', 'kube-system', 'kube-public'])('refuses deleting %s', (name) => {
    const { registry, def } = registryFixture();
    expect(refusal(() => registry.delete(def('namespaces'), undefined, name, {}))?.code).toBe(403);
  });

  it('allows cluster-scoped creates and creates in an active namespace', () => {
    const { create } = registryFixture();
    expect(
      create('storage.k8s.io/storageclasses', undefined, { metadata: { name: 'sc' }, provisioner: 'x' })
        .metadata?.uid,
    ).toBeTruthy();
    expect(create('configmaps', 'default', { metadata: { name: 'cm' } }).metadata?.namespace).toBe('default');
  });
});
