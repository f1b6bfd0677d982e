import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { type KubeApiClient, kubeApiClient } from '../../../../streams/client-node/kube-api-client.ts';
import { JOBS, PODS } from '../../../../streams/resources.ts';
import {
  type RunningControllerManager,
  secureGet,
  startControllerManager,
} from '../../../helpers/controller-manager.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

describe('job-controller in kube-rx controller-manager', { timeout: 60_000 }, () => {
  let server: RunningApiServer;
  let client: KubeApiClient;
  let dir: string;
  let manager: RunningControllerManager;
  let securePort: number;

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-kcm-job-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    client = kubeApiClient({
      kubeConfig: { from: 'string', yaml: server.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
    });
    manager = await startControllerManager([
      '--kubeconfig',
      kubeconfig,
      '--controllers',
      'job,ttl-after-finished',
      '--concurrent-job-syncs',
      '2',
    ]);
    securePort = manager.securePort;
  });

  afterAll(async () => {
    await manager?.stop();
    client?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts the two controllers by their aliases and completes a Job', async () => {
    expect(manager.started.controllers).toEqual(['job-controller', 'ttl-after-finished-controller']);
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'one', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'one' } },
        template: {
          metadata: { labels: { app: 'one' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    };
    await firstValueFrom(client.create(JOBS, job, { namespace: 'default' }));
    const pod = await waitFor(async () => {
      const pods = (
        await firstValueFrom(client.list<Pod>(PODS, { namespace: 'default', labelSelector: 'app=one' }))
      ).items;
      expect(pods).toHaveLength(1);
      return pods[0] as Pod;
    });
    await firstValueFrom(
      client.updateStatus<Pod>(
        PODS,
        {
          ...pod,
          status: {
            phase: 'Succeeded',
            containerStatuses: [
              {
                name: 'c',
                ready: false,
                restartCount: 0,
                image: 'busybox',
                imageID: '',
                state: { terminated: { exitCode: 0, finishedAt: new Date().toISOString() } },
              },
            ],
          },
        },
        { namespace: 'default' },
      ),
    );
    await waitFor(async () => {
      const done = await firstValueFrom(client.get<Job>(JOBS, 'one', { namespace: 'default' }));
      expect(done.status?.conditions?.find((c) => c.type === 'Complete')?.status).toBe('True');
      expect(done.status?.succeeded).toBe(1);
    }, 15_000);
    const token = /token: (\S+)/.exec(server.kubeconfig)?.[1] ?? '';
    const metrics = await secureGet(`https://127.0.0.1:${securePort}/metrics`, token);
    expect(metrics.body).toMatch(/workqueue_adds_total\{name="job"\} [1-9]/);
    expect(metrics.body).toMatch(
      /job_controller_jobs_finished_total\{completion_mode="NonIndexed",result="succeeded",reason=""\} 1/,
    );
    expect(metrics.body).toMatch(
      /job_controller_job_pods_finished_total\{completion_mode="NonIndexed",result="succeeded"\} 1/,
    );
    expect(metrics.body).toMatch(
      /job_controller_job_syncs_total\{completion_mode="NonIndexed",result="success",action="pods_created"\} 1/,
    );
    expect(metrics.body).toMatch(/job_controller_job_sync_duration_seconds_bucket\{le="0.004"/);
    expect(await secureGet(`https://127.0.0.1:${securePort}/healthz/job-controller`, token)).toEqual({
      status: 200,
      body: 'ok',
    });
  });
});
