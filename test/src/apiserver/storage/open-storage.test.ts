// Choosing the storage engine from the options, refusing bad etcd options by name, and splitting etcd keys.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../../operators/errors.ts';
import { silentLogger } from '../../../../operators/logger.ts';
import { namespacedKey, splitStorageKey } from '../../../../src/apiserver/storage/etcd-journal.ts';
import { openStorage } from '../../../../src/apiserver/storage/open-storage.ts';

describe('openStorage', () => {
  it('keeps objects in memory without a data dir or etcd servers', async () => {
    const storage = await openStorage({ logger: silentLogger });
    expect([storage.engine, storage.location]).toEqual(['memory', 'memory']);
    storage.store.commit('cm', 'a', 'ADDED', { metadata: { name: 'a' } });
    await storage.settled();
    expect(storage.store.currentRv).toBe(1);
    await storage.close();
  });

  it('opens SQLite in the data dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-open-'));
    try {
      const storage = await openStorage({ logger: silentLogger, dataDir: dir });
      expect([storage.engine, storage.location]).toEqual(['sqlite', join(dir, 'objects.db')]);
      await storage.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ etcdServers: ['127.0.0.1:2379'] }, 'etcdServers', /not an http\(s\) URL: "127.0.0.1:2379"/],
    [
      { etcdServers: ['http://127.0.0.1:2379'], etcdPrefix: 'registry' },
      'etcdPrefix',
      /must start with "\/"/,
    ],
    [
      { etcdServers: ['https://127.0.0.1:2379'], etcdCertFile: '/nowhere/client.crt' },
      'etcdKeyFile',
      /give both etcdCertFile and etcdKeyFile/,
    ],
    [
      { etcdServers: ['https://127.0.0.1:2379'], etcdCaFile: '/nowhere/ca.crt' },
      'etcdCaFile',
      /cannot read \/nowhere\/ca.crt/,
    ],
    [
      { etcdServers: ['http://127.0.0.1:2379'], etcdCaFile: import.meta.filename },
      'etcdServers',
      /every server must be an https:\/\/ URL/,
    ],
  ])('refuses %j naming %s', async (options, field, message) => {
    const attempt = openStorage({ logger: silentLogger, ...options });
    await expect(attempt).rejects.toBeInstanceOf(InvalidConfigError);
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.toMatchObject({ field });
  });
});

describe('splitStorageKey', () => {
  it.each([
    ['pods/default/web', true, 'pods', 'default/web'],
    ['namespaces/default', false, 'namespaces', 'default'],
    ['apps/deployments/default/web', true, 'apps/deployments', 'default/web'],
    [
      'scheduling.k8s.io/priorityclasses/system-node-critical',
      false,
      'scheduling.k8s.io/priorityclasses',
      'system-node-critical',
    ],
    ['example.com/widgets/team-a/w1', true, 'example.com/widgets', 'team-a/w1'],
    ['example.com/clusterwidgets/w1', false, 'example.com/clusterwidgets', 'w1'],
    ['apps/deployments/web', false, 'apps/deployments', 'web'],
    [
      'configmaps/kube-system/extension-apiserver-authentication',
      true,
      'configmaps',
      'kube-system/extension-apiserver-authentication',
    ],
  ])('%s (namespaced: %s) → %s, %s', (rest, namespaced, resource, key) => {
    expect(namespacedKey(rest)).toBe(namespaced);
    expect(splitStorageKey(rest, namespaced)).toEqual({ resource, key });
  });
});
