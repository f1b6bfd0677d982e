// The kubelet end to end: real processes for pods bound to the node, statuses in the embedded API server.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { CONFIG_MAPS, EVENTS, PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import {
  type KubeletFixture,
  processAlive,
  shellPod,
  startKubeletFixture,
  waitForPod,
} from './kubelet-fixture.ts';

const NODE = 'node-e2e';
const cluster = useEmbeddedCluster({ port: 0 });
let fixture: KubeletFixture;

beforeAll(async () => {
  fixture = await startKubeletFixture(cluster.api, { nodeName: NODE });
});
afterAll(async () => {
  await fixture?.close();
});

const create = (pod: Pod) => firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
const phase = (p: string) => (pod: Pod | undefined) => pod?.status?.phase === p;

describe('kubelet (process runtime)', () => {
  it('runs a pod bound to the node: Running, then Succeeded after exit 0', async () => {
    await create(shellPod('succeeds', NODE, 'echo hello; sleep 1.5; exit 0'));
    const running = await waitForPod(cluster.api, 'succeeds', phase('Running'), 'Running');
    expect(running?.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
    expect(running?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(running?.status?.hostIP).toBe('127.0.0.1');
    const pod = await waitForPod(cluster.api, 'succeeds', phase('Succeeded'), 'Succeeded');
    const status = pod?.status?.containerStatuses?.[0];
    expect(status?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(status?.containerID).toMatch(/^process:\/\//);
    expect(pod?.status?.conditions?.find((c) => c.type === 'Ready')?.reason).toBe('PodCompleted');
  });

  it('a container exiting 3 fails the pod with exit code 3 in its status', async () => {
    await create(shellPod('fails', NODE, 'exit 3'));
    const pod = await waitForPod(cluster.api, 'fails', phase('Failed'), 'Failed');
    expect(pod?.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
  });

  it('resolves env from a ConfigMap and the downward API, expands $(VAR) in args, and writes the log file', async () => {
    await firstValueFrom(
      cluster.api.create(
        CONFIG_MAPS,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'greeting', namespace: 'default' },
          data: { GREETING: 'hello from a configmap' },
        },
        { namespace: 'default' },
      ),
    );
    const pod = shellPod('env', NODE, 'echo "$GREETING / $POD_NAME / $NODE" ; echo "$1"', {
      volumes: [
        {
          name: 'podinfo',
          downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
        },
      ],
    });
    pod.metadata.labels = { app: 'env-test' };
    const c = pod.spec.containers[0];
    if (!c) throw new Error('no container');
    c.args = ['x', 'expanded=$(GREETING)'];
    c.envFrom = [{ configMapRef: { name: 'greeting' } }];
    c.env = [
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ];
    c.volumeMounts = [{ name: 'podinfo', mountPath: '/etc/podinfo' }];
    const created = await create(pod);
    await waitForPod(cluster.api, 'env', phase('Succeeded'), 'Succeeded');
    const log = await readFile(
      join(fixture.rootDir, 'logs', 'pods', `default_env_${created.metadata.uid}`, 'main', '0.log'),
      'utf8',
    );
    expect(log).toContain('hello from a configmap / env / node-e2e');
    expect(log).toContain('expanded=hello from a configmap');
    const labels = await readFile(
      join(
        fixture.rootDir,
        'pods',
        created.metadata.uid ?? '',
        'volumes',
        'kubernetes.io~downward-api',
        'podinfo',
        'labels',
      ),
      'utf8',
    );
    expect(labels).toBe('app="env-test"');
  });

  it('a missing ConfigMap keeps the container waiting with CreateContainerConfigError', async () => {
    const pod = shellPod('no-cm', NODE, 'true');
    const c = pod.spec.containers[0];
    if (c) c.env = [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'absent', key: 'k' } } }];
    await create(pod);
    const got = await waitForPod(
      cluster.api,
      'no-cm',
      (p) => p?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CreateContainerConfigError',
      'CreateContainerConfigError',
    );
    expect(got?.status?.containerStatuses?.[0]?.state?.waiting?.message).toBe('configmap "absent" not found');
  });

  it('a crashing container backs off with CrashLoopBackOff and the kubelet message', async () => {
    await create(shellPod('crashes', NODE, 'exit 1', { restartPolicy: 'Always' }));
    const pod = await waitForPod(
      cluster.api,
      'crashes',
      (p) => p?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff',
      'CrashLoopBackOff',
      20_000,
    );
    const status = pod?.status?.containerStatuses?.[0];
    expect(status?.state?.waiting?.message).toBe(
      `back-off 10s restarting failed container=main pod=crashes_default(${pod?.metadata.uid})`,
    );
    expect(status?.lastState?.terminated?.exitCode).toBe(1);
    expect(status?.restartCount).toBeGreaterThanOrEqual(1);
    expect(pod?.status?.phase).toBe('Running');
  });

  it('a pod too big for the node is rejected with OutOfcpu', async () => {
    const pod = shellPod('too-big', NODE, 'true');
    const c = pod.spec.containers[0];
    if (c) c.resources = { requests: { cpu: '64' } };
    await create(pod);
    const got = await waitForPod(cluster.api, 'too-big', phase('Failed'), 'Failed');
    expect(got?.status?.reason).toBe('OutOfcpu');
    expect(got?.status?.message).toMatch(/^Pod was rejected: Node didn't have enough resource: cpu/);
    const events = await firstValueFrom(cluster.api.list(EVENTS, { namespace: 'default' }));
    expect(events.items.some((e) => (e as { reason?: string }).reason === 'OutOfcpu')).toBe(true);
  });

  it('a pod past its activeDeadlineSeconds fails with DeadlineExceeded and its process is stopped', async () => {
    await create(
      shellPod('deadline', NODE, 'while true; do sleep 0.2; done', {
        activeDeadlineSeconds: 1,
        terminationGracePeriodSeconds: 1,
      }),
    );
    const pod = await waitForPod(cluster.api, 'deadline', phase('Failed'), 'Failed');
    expect(pod?.status).toMatchObject({
      reason: 'DeadlineExceeded',
      message: 'Pod was active on the node longer than the specified deadline',
    });
    await waitForPod(
      cluster.api,
      'deadline',
      (p) => p?.status?.containerStatuses?.[0]?.state?.terminated !== undefined,
      'container terminated',
    );
  });

  it('a deleted pod gets SIGTERM, then SIGKILL after its grace period, and is removed from the API server', async () => {
    const pod = shellPod('ignores-term', NODE, 'trap "echo got TERM" TERM; while true; do sleep 0.1; done', {
      terminationGracePeriodSeconds: 2,
      restartPolicy: 'Always',
    });
    const created = await create(pod);
    await waitForPod(cluster.api, 'ignores-term', phase('Running'), 'Running');
    const [container] = await fixture.runtime.listContainers({ podUid: created.metadata.uid });
    const pid = container?.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    const logPath = join(
      fixture.rootDir,
      'logs',
      'pods',
      `default_ignores-term_${created.metadata.uid}`,
      'main',
      '0.log',
    );
    const stopped = new Promise<{ exitCode?: number; log: string }>((resolve) => {
      const sub = fixture.runtime.events$.subscribe((event) => {
        if (event.containerId !== container?.id || event.type !== 'CONTAINER_STOPPED_EVENT') return;
        sub.unsubscribe();
        void Promise.all([
          fixture.runtime.containerStatus(event.containerId).catch(() => undefined),
          readFile(logPath, 'utf8').catch(() => ''),
        ]).then(([status, log]) => resolve({ exitCode: status?.exitCode, log }));
      });
    });
    await firstValueFrom(cluster.api.delete(PODS, 'ignores-term', { namespace: 'default' }));
    const outcome = await stopped;
    expect(outcome.log).toContain('got TERM');
    expect(outcome.exitCode).toBe(137);
    expect(processAlive(pid)).toBe(false);
    await waitForPod(
      cluster.api,
      'ignores-term',
      (p) => p === undefined,
      'deleted from the API server',
      20_000,
    );
  });
});
