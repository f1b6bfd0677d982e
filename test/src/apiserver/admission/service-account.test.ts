// ServiceAccount admission: pods get an account and its projected token volume (upstream's admission_test cases); default accounts per namespace with and without builtinNamespaceControllers.
import { describe, expect, it, vi } from 'vitest';
import { SERVICE_ACCOUNT_MOUNT_PATH } from '../../../../src/apiserver/admission/service-account.ts';
import { pod, refusal, registryFixture } from './registry-fixture.ts';

type PodSpec = {
  serviceAccountName?: string;
  volumes?: { name: string; projected?: { sources: object[] } }[];
  containers: { volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[] }[];
  initContainers?: { volumeMounts?: { name: string; mountPath: string }[] }[];
};

const specOf = (o: object) => (o as { spec?: unknown }).spec as PodSpec;

describe('ServiceAccount admission', () => {
  it('creates a default service account in every namespace, system ones included', () => {
    const { create, get } = registryFixture();
    create('namespaces', undefined, { metadata: { name: 'team' } });
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team'])
      expect(get('serviceaccounts', ns, 'default').metadata?.name).toBe('default');
  });

  it('brings back a deleted default account, but not in a namespace being deleted', () => {
    const { create, get, remove, registry, def } = registryFixture();
    const before = get('serviceaccounts', 'default', 'default').metadata?.uid;
    remove('serviceaccounts', 'default', 'default');
    expect(get('serviceaccounts', 'default', 'default').metadata?.uid).not.toBe(before);
    create('namespaces', undefined, { metadata: { name: 'going' } });
    registry.delete(def('namespaces'), undefined, 'going', {});
    expect(() => get('namespaces', undefined, 'going')).toThrow('not found');
    expect(() => get('serviceaccounts', 'going', 'default')).toThrow('not found');
  });

  it('as kube-apiserver (no builtin controllers): a new namespace gets no account from the server', () => {
    const { create, get, remove } = registryFixture(undefined, { builtinNamespaceControllers: false });
    // the system namespaces have theirs from the start
    expect(get('serviceaccounts', 'kube-system', 'default').metadata?.name).toBe('default');
    create('namespaces', undefined, { metadata: { name: 'team' } });
    expect(() => get('serviceaccounts', 'team', 'default')).toThrow('not found');
    remove('serviceaccounts', 'default', 'default');
    expect(() => get('serviceaccounts', 'default', 'default')).toThrow('not found');
    expect(refusal(() => create('pods', 'team', pod('p')))?.message).toContain(
      'error looking up service account team/default: serviceaccount "default" not found',
    );
  });

  it('as kube-apiserver: a pod waits for the serviceaccount controller to create `default`', async () => {
    vi.useFakeTimers();
    try {
      const { create, registry, def } = registryFixture(undefined, { builtinNamespaceControllers: false });
      create('namespaces', undefined, { metadata: { name: 'team' } });
      const body = pod('p');
      let done = false;
      const waited = registry.awaitDefaultServiceAccount(def('pods'), 'team', body).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(500);
      expect(done).toBe(false);
      create('serviceaccounts', 'team', { metadata: { name: 'default' } });
      await vi.advanceTimersByTimeAsync(200);
      await waited;
      expect(specOf(create('pods', 'team', body)).serviceAccountName).toBe('default');
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['a pod naming another account', 'team', { serviceAccountName: 'robot' }],
    ['a pod in a namespace that has its account', 'default', {}],
    ['a mirror pod', 'team', { mirror: true }],
  ])('as kube-apiserver: %s does not wait', async (_name, namespace, spec) => {
    vi.useFakeTimers();
    try {
      const { create, registry, def } = registryFixture(undefined, { builtinNamespaceControllers: false });
      create('namespaces', undefined, { metadata: { name: 'team' } });
      let done = false;
      const { mirror, ...podSpec } = spec as { mirror?: boolean };
      const body = pod('p', undefined, podSpec);
      if (mirror)
        body.metadata = { ...body.metadata, annotations: { 'kubernetes.io/config.mirror': 'hash' } };
      void registry.awaitDefaultServiceAccount(def('pods'), namespace, body).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives a pod the default account and mounts its token, CA and namespace in every container', () => {
    const { create } = registryFixture();
    const created = create(
      'pods',
      'default',
      pod('p', { a: {}, b: {} }, { initContainers: [{ name: 'i', image: 'busybox' }] }),
    );
    const spec = specOf(created);
    expect(spec.serviceAccountName).toBe('default');
    const volume = spec.volumes!.find((v) => v.name.startsWith('kube-api-access-'))!;
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected!.sources).toHaveLength(3);
    for (const c of [...spec.containers, ...spec.initContainers!])
      expect(c.volumeMounts).toEqual([
        { name: volume.name, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH },
      ]);
  });

  it.each([
    ['the pod opts out', { automountServiceAccountToken: false }, undefined, false],
    ['the account opts out', {}, false, false],
    ['the pod opts in over the account', { automountServiceAccountToken: true }, false, true],
    ['neither says', {}, undefined, true],
  ])('token volume when %s', (_name, podSpec, accountAutomount, mounted) => {
    const { create } = registryFixture();
    create('serviceaccounts', 'default', {
      metadata: { name: 'robot' },
      ...(accountAutomount === undefined ? {} : { automountServiceAccountToken: accountAutomount }),
    });
    const created = create(
      'pods',
      'default',
      pod('p', { c: {} }, { serviceAccountName: 'robot', ...podSpec }),
    );
    const spec = specOf(created);
    expect((spec.volumes ?? []).some((v) => v.name.startsWith('kube-api-access-'))).toBe(mounted);
    expect(spec.serviceAccountName).toBe('robot');
  });

  it('adds nothing when a container already mounts something at the token path', () => {
    const { create } = registryFixture();
    const created = create('pods', 'default', {
      ...pod('p'),
      spec: {
        volumes: [{ name: 'mine', emptyDir: {} }],
        containers: [
          {
            name: 'c',
            image: 'nginx',
            volumeMounts: [{ name: 'mine', mountPath: SERVICE_ACCOUNT_MOUNT_PATH }],
          },
        ],
      },
    });
    expect(specOf(created).volumes).toEqual([{ name: 'mine', emptyDir: {} }]);
  });

  it('refuses a pod naming an account that does not exist', () => {
    const { create } = registryFixture();
    expect(
      refusal(() => create('pods', 'default', pod('p', { c: {} }, { serviceAccountName: 'ghost' }))),
    ).toEqual({
      code: 403,
      message:
        'pods "p" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found',
    });
  });

  it('leaves mirror pods alone', () => {
    const { create } = registryFixture();
    const mirror = pod('m');
    mirror.metadata!.annotations = { 'kubernetes.io/config.mirror': 'abc' };
    const created = create('pods', 'default', mirror);
    expect(specOf(created).volumes).toBeUndefined();
  });
});
