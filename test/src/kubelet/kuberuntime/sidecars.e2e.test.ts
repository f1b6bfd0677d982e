// Sidecar containers end to end on the process runtime: started before the app and kept running, restarted when they exit, stopped after the app.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { type KubeletFixture, startKubeletFixture, waitForPod } from '../kubelet-fixture.ts';

const NODE = 'node-sidecars';
const cluster = useEmbeddedCluster({ port: 0 });
let fixture: KubeletFixture;
let dir: string;

beforeAll(async () => {
  fixture = await startKubeletFixture(cluster.api, { nodeName: NODE });
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-sidecars-'));
});
afterAll(async () => {
  await fixture?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const create = (pod: Pod) => firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
const sh = (name: string, script: string, extra: Record<string, unknown> = {}) => ({
  name,
  image: 'busybox',
  command: ['sh', '-c', script],
  ...extra,
});

describe('sidecar containers (restartPolicy Always init containers)', () => {
  it('runs the sidecar before the app, keeps it running, and stops it after the app exits', async () => {
    const up = join(dir, 'up');
    const log = join(dir, 'order');
    await create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'with-sidecar', namespace: 'default' },
      spec: {
        nodeName: NODE,
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 10,
        initContainers: [
          sh(
            'proxy',
            `echo up > ${up}; trap 'echo proxy-stopped >> ${log}; exit 0' TERM; while true; do sleep 0.1; done`,
            { restartPolicy: 'Always' },
          ),
        ],
        containers: [sh('app', `test -f ${up} && echo saw-sidecar; sleep 1; echo app-done >> ${log}`)],
      },
    });
    const running = await waitForPod(
      cluster.api,
      'with-sidecar',
      (p) => p?.status?.phase === 'Running',
      'Running',
    );
    expect(running?.status?.initContainerStatuses?.[0]?.state?.running).toBeDefined();
    expect(running?.status?.conditions?.find((c) => c.type === 'Initialized')?.status).toBe('True');
    const done = await waitForPod(
      cluster.api,
      'with-sidecar',
      (p) =>
        p?.status?.phase === 'Succeeded' &&
        p.status.initContainerStatuses?.[0]?.state?.terminated !== undefined,
      'Succeeded with the sidecar stopped',
    );
    expect(done?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);
    // the sidecar got SIGTERM only after the app had finished
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['app-done', 'proxy-stopped']);
  }, 30_000);

  it('restarts a sidecar that exits while the app runs', async () => {
    await create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'flaky-sidecar', namespace: 'default' },
      spec: {
        nodeName: NODE,
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 2,
        initContainers: [sh('flaky', 'sleep 0.5; exit 1', { restartPolicy: 'Always' })],
        containers: [sh('app', 'sleep 30')],
      },
    });
    const pod = await waitForPod(
      cluster.api,
      'flaky-sidecar',
      (p) => (p?.status?.initContainerStatuses?.[0]?.restartCount ?? 0) >= 1,
      'the sidecar restarted',
      20_000,
    );
    expect(pod?.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
    expect(pod?.status?.phase).toBe('Running');
    await firstValueFrom(
      cluster.api.delete(PODS, 'flaky-sidecar', { namespace: 'default', gracePeriodSeconds: 0 }),
    );
  }, 30_000);

  it('on deletion stops the app first and the sidecars after it, in reverse order', async () => {
    const log = join(dir, 'stop-order');
    const trap = (name: string, delay: string) =>
      `trap 'sleep ${delay}; echo ${name} >> ${log}; exit 0' TERM; while true; do sleep 0.1; done`;
    await create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stop-order', namespace: 'default' },
      spec: {
        nodeName: NODE,
        terminationGracePeriodSeconds: 10,
        initContainers: [
          sh('first', trap('first', '0'), { restartPolicy: 'Always' }),
          sh('second', trap('second', '0'), { restartPolicy: 'Always' }),
        ],
        containers: [sh('app', trap('app', '0.5'))],
      },
    });
    await waitForPod(
      cluster.api,
      'stop-order',
      (p) => p?.status?.containerStatuses?.[0]?.state?.running !== undefined,
      'the app running',
    );
    await firstValueFrom(cluster.api.delete(PODS, 'stop-order', { namespace: 'default' }));
    const deadline = Date.now() + 15_000;
    let lines: string[] = [];
    while (lines.length < 3 && Date.now() < deadline) {
      lines = (await readFile(log, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(lines).toEqual(['app', 'second', 'first']);
  }, 30_000);

  it('waits for a sidecar’s startup probe before starting the app', async () => {
    const ready = join(dir, 'ready');
    await create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'slow-sidecar', namespace: 'default' },
      spec: {
        nodeName: NODE,
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 2,
        initContainers: [
          sh('slow', `sleep 1.5; touch ${ready}; while true; do sleep 0.1; done`, {
            restartPolicy: 'Always',
            startupProbe: {
              exec: { command: ['test', '-f', ready] },
              periodSeconds: 1,
              failureThreshold: 30,
            },
          }),
        ],
        containers: [
          sh('app', `if test -f ${ready}; then echo after-startup; else echo too-early; exit 1; fi`),
        ],
      },
    });
    const waitingPod = await waitForPod(
      cluster.api,
      'slow-sidecar',
      (p) => p?.status?.initContainerStatuses?.[0]?.state?.running !== undefined,
      'the sidecar running',
    );
    expect(waitingPod?.status?.initContainerStatuses?.[0]?.started).not.toBe(true);
    const done = await waitForPod(
      cluster.api,
      'slow-sidecar',
      (p) => p?.status?.phase === 'Succeeded' || p?.status?.phase === 'Failed',
      'the pod to finish',
      20_000,
    );
    expect(done?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);
    expect(done?.status?.phase).toBe('Succeeded');
  }, 30_000);
});
