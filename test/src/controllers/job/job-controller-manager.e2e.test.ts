// `kube-rx controller-manager --controllers job,ttl-after-finished` against the embedded API server: the registered job controller runs a Job to completion and its queue shows in /metrics.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { JOBS, PODS } from '../../../../streams/resources.ts';
import { secureGet, useControllerManager } from '../../../helpers/controller-manager.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

describe('job-controller in kube-rx controller-manager', { timeout: 60_000 }, () => {
  const kcm = useControllerManager([
    '--controllers',
    'job,ttl-after-finished',
    '--concurrent-job-syncs',
    '2',
  ]);

  it('starts the two controllers by their aliases and completes a Job', async () => {
    expect(kcm.manager.started.controllers).toEqual(['job-controller', 'ttl-after-finished-controller']);
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
    await firstValueFrom(kcm.cluster.api.create(JOBS, job, { namespace: 'default' }));
    const pod = await waitFor(async () => {
      const pods = (
        await firstValueFrom(
          kcm.cluster.api.list<Pod>(PODS, { namespace: 'default', labelSelector: 'app=one' }),
        )
      ).items;
      expect(pods).toHaveLength(1);
      return pods[0] as Pod;
    });
    await firstValueFrom(
      kcm.cluster.api.updateStatus<Pod>(
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
      const done = await firstValueFrom(kcm.cluster.api.get<Job>(JOBS, 'one', { namespace: 'default' }));
      expect(done.status?.conditions?.find((c) => c.type === 'Complete')?.status).toBe('True');
      expect(done.status?.succeeded).toBe(1);
    }, 15_000);
    const token = kcm.token;
    const metrics = await secureGet(`https://127.0.0.1:${kcm.manager.securePort}/metrics`, token);
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
    expect(
      await secureGet(`https://127.0.0.1:${kcm.manager.securePort}/healthz/job-controller`, token),
    ).toEqual({
      status: 200,
      body: 'ok',
    });
  });
});
