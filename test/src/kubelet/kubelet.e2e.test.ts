// The kubelet end to end: real processes for pods bound to the node, statuses in the embedded API server.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { eventually } from '../../helpers/eventually.ts';
import { getPod, type KubeletFixture, shellPod, startKubeletFixture } from './kubelet-fixture.ts';

const cluster = useEmbeddedCluster({ port: 0 });
let fixture: KubeletFixture;

beforeAll(async () => {
  fixture = await startKubeletFixture(cluster.api, { nodeName: 'node-e2e' });
});
afterAll(async () => {
  await fixture?.close();
});

const create = (pod: Pod) => firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));

describe('kubelet (process runtime)', () => {
  it('runs a pod bound to the node: Running, then Succeeded after exit 0', async () => {
    await create(shellPod('succeeds', 'node-e2e', 'echo hello; sleep 1.5; exit 0'));
    await eventually(async () => undefined, 10);
    let sawRunning = false;
    await eventually(() => undefined);
    const deadline = Date.now() + 15_000;
    let pod: Pod | undefined;
    while (Date.now() < deadline) {
      pod = await getPod(cluster.api, 'succeeds');
      if (pod?.status?.phase === 'Running') sawRunning = true;
      if (pod?.status?.phase === 'Succeeded') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(sawRunning).toBe(true);
    expect(pod?.status?.phase).toBe('Succeeded');
    const status = pod?.status?.containerStatuses?.[0];
    expect(status?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(status?.containerID).toMatch(/^process:\/\//);
    expect(pod?.status?.conditions?.find((c) => c.type === 'Ready')?.reason).toBe('PodCompleted');
  }, 30_000);
});
