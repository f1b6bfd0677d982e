// The kubelet end to end with static pods: a manifest file gets a mirror pod that comes back when deleted; stopping leaves no process behind.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { type KubeletFixture, processAlive, startKubeletFixture, waitForPod } from './kubelet-fixture.ts';

const NODE = 'static-node';
const cluster = useEmbeddedCluster({ port: 0 });
let fixture: KubeletFixture | undefined;
let manifests: string;

beforeAll(async () => {
  manifests = await mkdtemp(join(tmpdir(), 'kube-rx-manifests-'));
  await writeFile(
    join(manifests, 'web.yaml'),
    [
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: web',
      '  namespace: default',
      'spec:',
      '  containers:',
      '  - name: server',
      '    image: busybox',
      '    command: ["sh", "-c", "while true; do sleep 0.2; done"]',
      '',
    ].join('\n'),
  );
  fixture = await startKubeletFixture(cluster.api, { nodeName: NODE, podManifestPath: manifests });
});
afterAll(async () => {
  await fixture?.close();
  await rm(manifests, { recursive: true, force: true });
});

const MIRROR = `web-${NODE}`;
const isMirror = (pod: Pod | undefined) =>
  pod?.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined;

describe('kubelet static pods', () => {
  it('creates a mirror pod for a static manifest, shows its status there, and recreates it when deleted', async () => {
    const mirror = await waitForPod(cluster.api, MIRROR, isMirror, 'a mirror pod');
    expect(mirror?.spec.nodeName).toBe(NODE);
    expect(mirror?.metadata.annotations?.['kubernetes.io/config.mirror']).toBe(
      mirror?.metadata.annotations?.['kubernetes.io/config.hash'],
    );
    expect(mirror?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: NODE });
    await waitForPod(cluster.api, MIRROR, (p) => p?.status?.phase === 'Running', 'the mirror pod Running');
    const uid = mirror?.metadata.uid;
    await firstValueFrom(cluster.api.delete(PODS, MIRROR, { namespace: 'default', gracePeriodSeconds: 0 }));
    const again = await waitForPod(
      cluster.api,
      MIRROR,
      (p) => isMirror(p) && p?.metadata.uid !== uid,
      'a new mirror pod',
    );
    expect(again?.metadata.uid).not.toBe(uid);
  });

  it('stopping the kubelet stops every process it started', async () => {
    if (!fixture) throw new Error('no kubelet');
    const containers = await fixture.runtime.listContainers({ state: 'CONTAINER_RUNNING' });
    const pids = containers.map((c) => c.pid).filter((pid): pid is number => typeof pid === 'number');
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.every(processAlive)).toBe(true);
    await fixture.close();
    fixture = undefined;
    expect(pids.filter(processAlive)).toEqual([]);
  });
});
