// The kubelet end to end with probes: readiness follows an exec probe, a failing liveness probe restarts the container.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { type KubeletFixture, shellPod, startKubeletFixture, waitForPod } from './kubelet-fixture.ts';

const NODE = 'probe-node';
const cluster = useEmbeddedCluster({ port: 0 });
let fixture: KubeletFixture;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-probes-'));
  fixture = await startKubeletFixture(cluster.api, { nodeName: NODE });
});
afterAll(async () => {
  await fixture?.close();
  await rm(dir, { recursive: true, force: true });
});

const create = (pod: Pod) => firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
const ready = (pod: Pod | undefined) => pod?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

describe('kubelet probes (process runtime)', () => {
  it('Ready follows the readiness probe', async () => {
    const flag = join(dir, 'ready');
    const pod = shellPod('readiness', NODE, 'while true; do sleep 0.2; done', {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 1,
    });
    const c = pod.spec.containers[0];
    if (c) c.readinessProbe = { exec: { command: ['test', '-f', flag] }, periodSeconds: 1 };
    await create(pod);
    const running = await waitForPod(
      cluster.api,
      'readiness',
      (p) => p?.status?.phase === 'Running',
      'Running',
    );
    expect(ready(running)).toBe('False');
    await writeFile(flag, '');
    const got = await waitForPod(cluster.api, 'readiness', (p) => ready(p) === 'True', 'Ready');
    expect(got?.status?.containerStatuses?.[0]?.ready).toBe(true);
    await rm(flag);
    await waitForPod(cluster.api, 'readiness', (p) => ready(p) === 'False', 'not Ready again');
  });

  it('a failing liveness probe restarts the container', async () => {
    const pod = shellPod('liveness', NODE, 'while true; do sleep 0.2; done', {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 1,
    });
    const c = pod.spec.containers[0];
    if (c)
      c.livenessProbe = {
        exec: { command: ['test', '-f', join(dir, 'never-there')] },
        periodSeconds: 1,
        failureThreshold: 1,
      };
    await create(pod);
    const got = await waitForPod(
      cluster.api,
      'liveness',
      (p) => (p?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
      'a restart',
      20_000,
    );
    expect(got?.status?.containerStatuses?.[0]?.lastState?.terminated).toBeDefined();
  });
});
