// Tests: namespace deletion in the registry — as kube-apiserver (Terminating until `finalize`) and with builtinNamespaceControllers (emptied at once).
import { describe, expect, it } from 'vitest';
import { registryFixture } from './admission/registry-fixture.ts';

type Ns = {
  spec?: { finalizers?: string[] };
  status?: { phase?: string };
  metadata?: { finalizers?: string[] };
};

describe('namespace deletion as kube-apiserver', () => {
  const setup = () => {
    const f = registryFixture(undefined, { builtinNamespaceControllers: false });
    f.create('namespaces', undefined, { metadata: { name: 'team' } });
    f.create('configmaps', 'team', { metadata: { name: 'settings' } });
    const ns = () => f.get('namespaces', undefined, 'team') as Ns;
    const finalize = (finalizers: string[]) =>
      f.registry.update(
        f.def('namespaces'),
        undefined,
        'team',
        { ...ns(), spec: { finalizers } },
        'finalize',
      );
    return { ...f, ns, finalize };
  };

  it('marks the namespace Terminating and leaves its content to the namespace controller', () => {
    const { registry, def, ns, get } = setup();
    const out = registry.delete(def('namespaces'), undefined, 'team', {});
    expect(out.gone).toBe(false);
    expect(ns()).toMatchObject({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } });
    expect(get('configmaps', 'team', 'settings').metadata?.name).toBe('settings');
  });

  it('removes the namespace once finalize empties spec.finalizers', () => {
    const { registry, def, get, finalize } = setup();
    registry.delete(def('namespaces'), undefined, 'team', {});
    finalize(['example.com/other', 'kubernetes']);
    expect(get('namespaces', undefined, 'team')).toBeDefined();
    finalize([]);
    expect(() => get('namespaces', undefined, 'team')).toThrow('not found');
  });

  it('waits for metadata.finalizers too', () => {
    const { registry, def, get, finalize, ns } = setup();
    registry.patch(
      def('namespaces'),
      undefined,
      'team',
      'application/merge-patch+json',
      '{"metadata":{"finalizers":["example.com/meta"]}}',
    );
    registry.delete(def('namespaces'), undefined, 'team', {});
    finalize([]);
    expect(ns().metadata?.finalizers).toEqual(['example.com/meta']);
    registry.patch(
      def('namespaces'),
      undefined,
      'team',
      'application/merge-patch+json',
      '{"metadata":{"finalizers":null}}',
    );
    expect(() => get('namespaces', undefined, 'team')).toThrow('not found');
  });

  it('deletes at once a namespace whose spec.finalizers are already empty', () => {
    const { registry, def, get, finalize } = setup();
    finalize([]);
    expect(registry.delete(def('namespaces'), undefined, 'team', {}).gone).toBe(true);
    expect(() => get('namespaces', undefined, 'team')).toThrow('not found');
  });

  it('deleting every object of a terminating namespace does not finalize it', () => {
    const { registry, def, ns, remove } = setup();
    registry.delete(def('namespaces'), undefined, 'team', {});
    remove('configmaps', 'team', 'settings');
    expect(ns().spec?.finalizers).toEqual(['kubernetes']);
  });
});

describe('namespace deletion with builtinNamespaceControllers', () => {
  it('empties the namespace at once; an object with a finalizer holds it until the finalizer goes', () => {
    const { registry, def, create, get } = registryFixture();
    create('namespaces', undefined, { metadata: { name: 'doomed' } });
    create('configmaps', 'doomed', { metadata: { name: 'keep', finalizers: ['x.io/y'] } });
    create('configmaps', 'doomed', { metadata: { name: 'go' } });
    const out = registry.delete(def('namespaces'), undefined, 'doomed', {});
    expect((out.body as Ns).status?.phase).toBe('Terminating');
    expect(() => get('configmaps', 'doomed', 'go')).toThrow('not found');
    expect(get('configmaps', 'doomed', 'keep').metadata?.deletionTimestamp).toBeDefined();
    registry.patch(
      def('configmaps'),
      'doomed',
      'keep',
      'application/merge-patch+json',
      '{"metadata":{"finalizers":null}}',
    );
    expect(() => get('namespaces', undefined, 'doomed')).toThrow('not found');
  });
});

describe('a restart while a namespace terminates', () => {
  it.each([false, true])(
    'bootstrap (builtinNamespaceControllers %s) gives a terminating namespace nothing new and does not fail',
    (builtinNamespaceControllers) => {
      const { registry, def, create, get, remove } = registryFixture(undefined, {
        builtinNamespaceControllers,
      });
      create('namespaces', undefined, { metadata: { name: 'going' } });
      create('configmaps', 'going', { metadata: { name: 'held', finalizers: ['x.io/y'] } });
      if (builtinNamespaceControllers) remove('serviceaccounts', 'going', 'default');
      registry.delete(def('namespaces'), undefined, 'going', {});
      expect(() => registry.bootstrap()).not.toThrow();
      expect(() => get('serviceaccounts', 'going', 'default')).toThrow('not found');
      expect(get('namespaces', undefined, 'going').metadata?.deletionTimestamp).toBeDefined();
    },
  );
});
