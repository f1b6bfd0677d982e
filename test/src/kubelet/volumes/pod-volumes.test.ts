// podVolumes: emptyDir, configMap, secret, downwardAPI, projected and hostPath volumes written under the pod directory; errors named.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pod, Volume } from '../../../../operators/api/core-v1.ts';
import type { KubeObjectReader } from '../../../../src/kubelet/kube-objects.ts';
import { type TokenRequest, tokenManager } from '../../../../src/kubelet/token/token-manager.ts';
import { containerMounts, type PodVolumes, podVolumes } from '../../../../src/kubelet/volumes/pod-volumes.ts';

let dir: string;
let volumes: PodVolumes;
const reader: KubeObjectReader = {
  configMap: async (_ns, name) => (name === 'cm' ? { data: { a: 'A', b: 'B' } } : undefined),
  secret: async (_ns, name) => (name === 's' ? { data: { password: 'hunter2' } } : undefined),
};
const caReader: KubeObjectReader = {
  ...reader,
  configMap: async (_ns, name) => (name === 'kube-root-ca.crt' ? { data: { 'ca.crt': 'CA' } } : undefined),
};
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-volumes-'));
  volumes = podVolumes({ rootDir: dir, reader });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pod = (vols: Volume[]): Pod => ({
  metadata: { uid: 'u1', name: 'web', namespace: 'ns', labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'c', volumeMounts: vols.map((v) => ({ name: v.name, mountPath: `/mnt/${v.name}` })) },
    ],
    volumes: vols,
  },
});
const base = () => join(dir, 'pods', 'u1', 'volumes');

describe('podVolumes', () => {
  it('writes every supported volume and returns the mounts', async () => {
    const p = pod([
      { name: 'scratch', emptyDir: {} },
      { name: 'config', configMap: { name: 'cm', items: [{ key: 'a', path: 'sub/a.txt' }] } },
      { name: 'creds', secret: { secretName: 's' } },
      {
        name: 'info',
        downwardAPI: {
          items: [
            { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
            { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
          ],
        },
      },
      {
        name: 'sa',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] },
            },
          ],
        },
      },
      { name: 'host', hostPath: { path: '/tmp' } },
    ]);
    const result = await volumes.mount(p, { podIP: '1.2.3.4' });
    if ('error' in result) throw new Error(result.error);
    expect((await stat(join(base(), 'kubernetes.io~empty-dir', 'scratch'))).isDirectory()).toBe(true);
    expect(await readFile(join(base(), 'kubernetes.io~configmap', 'config', 'sub', 'a.txt'), 'utf8')).toBe(
      'A',
    );
    expect(await readFile(join(base(), 'kubernetes.io~secret', 'creds', 'password'), 'utf8')).toBe('hunter2');
    expect(await readFile(join(base(), 'kubernetes.io~downward-api', 'info', 'name'), 'utf8')).toBe('web');
    expect(await readFile(join(base(), 'kubernetes.io~downward-api', 'info', 'labels'), 'utf8')).toBe(
      'app="web"',
    );
    expect(await readFile(join(base(), 'kubernetes.io~projected', 'sa', 'namespace'), 'utf8')).toBe('ns');
    await expect(stat(join(base(), 'kubernetes.io~projected', 'sa', 'token'))).rejects.toThrow();
    const container = p.spec.containers[0];
    if (!container) throw new Error('no container');
    expect(containerMounts(container, result.paths).find((m) => m.containerPath === '/mnt/host')).toEqual({
      hostPath: '/tmp',
      containerPath: '/mnt/host',
      readonly: false,
    });
    await volumes.remove('u1');
    await expect(stat(join(dir, 'pods', 'u1'))).rejects.toThrow();
  });

  it.each<[string, Volume, string]>([
    [
      'missing configMap',
      { name: 'v', configMap: { name: 'nope' } },
      'MountVolume.SetUp failed for volume "v" : configmap "nope" not found',
    ],
    [
      'missing secret',
      { name: 'v', secret: { secretName: 'nope' } },
      'MountVolume.SetUp failed for volume "v" : secret "nope" not found',
    ],
    [
      'missing key',
      { name: 'v', configMap: { name: 'cm', items: [{ key: 'zz', path: 'z' }] } },
      'MountVolume.SetUp failed for volume "v" : configured key zz not found in configmap "cm"',
    ],
    [
      'a PVC',
      { name: 'v', persistentVolumeClaim: { claimName: 'c' } },
      'volume v: persistentVolumeClaim volumes are not supported by this kubelet',
    ],
  ])('refuses a %s with a message naming the volume', async (_name, volume, message) => {
    expect(await volumes.mount(pod([volume]), {})).toEqual({ error: message });
  });

  it('an optional missing configMap gives an empty directory', async () => {
    const result = await volumes.mount(pod([{ name: 'v', configMap: { name: 'nope', optional: true } }]), {});
    expect('paths' in result).toBe(true);
  });
});

describe('podVolumes with a token manager', () => {
  const saVolume: Volume = {
    name: 'kube-api-access-x',
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { path: 'token', audience: 'vault', expirationSeconds: 7200 } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      ],
    },
  };
  const saPod = (): Pod => {
    const p = pod([saVolume]);
    p.spec.serviceAccountName = 'builder';
    return p;
  };
  const projectedDir = () => join(base(), 'kubernetes.io~projected', 'kube-api-access-x');

  it('asks for a token bound to the pod, writes it, rewrites it after a refresh and forgets it on removal', async () => {
    let now = Date.UTC(2026, 0, 1);
    const asked: { ns: string; name: string; request: TokenRequest }[] = [];
    let n = 0;
    const tokens = tokenManager({
      getToken: async (ns, name, request) => {
        asked.push({ ns, name, request });
        n++;
        return {
          ...request,
          status: { token: `token-${n}`, expirationTimestamp: new Date(now + 7_200_000).toISOString() },
        };
      },
      now: () => now,
      random: () => 0,
    });
    const withTokens = podVolumes({ rootDir: dir, reader: caReader, tokens, now: () => now });
    const first = await withTokens.mount(saPod(), {});
    if ('error' in first) throw new Error(first.error);
    expect(asked).toEqual([
      {
        ns: 'ns',
        name: 'builder',
        request: {
          spec: {
            audiences: ['vault'],
            expirationSeconds: 7200,
            boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'u1' },
          },
        },
      },
    ]);
    expect(await readFile(join(projectedDir(), 'token'), 'utf8')).toBe('token-1');
    expect(await readFile(join(projectedDir(), 'ca.crt'), 'utf8')).toBe('CA');
    await withTokens.mount(saPod(), {});
    expect(asked).toHaveLength(1);
    now += 100 * 60_000; // past 80 % of two hours
    await withTokens.mount(saPod(), {});
    expect(asked).toHaveLength(2);
    expect(await readFile(join(projectedDir(), 'token'), 'utf8')).toBe('token-2');
    expect(tokens.size).toBe(1);
    await withTokens.remove('u1');
    expect(tokens.size).toBe(0);
  });

  it('a token that cannot be had fails the volume with the token manager words', async () => {
    const tokens = tokenManager({
      getToken: async () => {
        throw new Error('serviceaccounts "builder" not found');
      },
    });
    const withTokens = podVolumes({ rootDir: dir, reader: caReader, tokens });
    expect(await withTokens.mount(saPod(), {})).toEqual({
      error:
        'MountVolume.SetUp failed for volume "kube-api-access-x" : failed to fetch token: serviceaccounts "builder" not found',
    });
  });

  it.each([
    { requireRootCA: false, result: 'mounted' },
    {
      requireRootCA: true,
      result:
        'MountVolume.SetUp failed for volume "kube-api-access-x" : configmap "kube-root-ca.crt" not found',
    },
  ])(
    'a missing kube-root-ca.crt with requireRootCA $requireRootCA: $result',
    async ({ requireRootCA, result }) => {
      const tokens = tokenManager({
        getToken: async (_ns, _n, request) => ({
          ...request,
          status: { token: 't', expirationTimestamp: new Date(Date.now() + 3_600_000).toISOString() },
        }),
      });
      const v = podVolumes({ rootDir: dir, reader, tokens, requireRootCA });
      const r = await v.mount(saPod(), {});
      expect('error' in r ? r.error : 'mounted').toBe(result);
    },
  );
});
