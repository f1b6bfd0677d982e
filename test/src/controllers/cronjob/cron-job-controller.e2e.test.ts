// The cronjob controller end to end, in real time: `kube-rx controller-manager --controllers job,cronjob`, the embedded API server, kube-rx scheduler, a simulated kubelet and kubectl — `kubectl create cronjob tick --schedule='* * * * *'` fires a Job that completes (waits for the next minute: up to ~65 s).
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { getControllerOf } from '../../../../operators/controller/controller-ref.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { JOBS } from '../../../../streams/resources.ts';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { secureGet } from '../../../helpers/controller-manager.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

describe.skipIf(!KUBECTL)('cronjob-controller end to end (real time)', { timeout: 150_000 }, () => {
  const plane = useControlPlane({
    nodes: 1,
    controllerManager: ['--controllers', 'job,cronjob', '--concurrent-cron-job-syncs', '2'],
  });
  const ok = async (args: string[]) => {
    const r = await plane.kubectl(args);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };

  it("`kubectl create cronjob tick --schedule='* * * * *' -- echo hi` fires a Job within a minute, which completes", async () => {
    expect(plane.manager!.started.controllers).toEqual(['job-controller', 'cronjob-controller']);
    expect(
      await ok(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'echo', 'hi']),
    ).toContain('cronjob.batch/tick created');
    const job = await waitFor(async () => {
      const jobs = (
        await firstValueFrom(plane.client.list<Job>(JOBS, { namespace: 'default' }))
      ).items.filter((j) => getControllerOf(j)?.name === 'tick');
      expect(jobs).toHaveLength(1);
      return jobs[0] as Job;
    }, 70_000);
    const scheduled = job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'] ?? '';
    expect(Date.parse(scheduled) % 60_000).toBe(0);
    expect(job.metadata.name).toBe(`tick-${Date.parse(scheduled) / 60_000}`);
    expect(getControllerOf(job)).toMatchObject({ apiVersion: 'batch/v1', kind: 'CronJob', controller: true });

    const waited = await plane.kubectl([
      'wait',
      '--for=condition=complete',
      `job/${job.metadata.name}`,
      '--timeout=30s',
    ]);
    expect(waited.code).toBe(0);
    await waitFor(async () => {
      const status = JSON.parse(await ok(['get', 'cronjob', 'tick', '-o', 'jsonpath={.status}']));
      expect(Date.parse(status.lastScheduleTime)).toBe(Date.parse(scheduled));
      expect(status.lastSuccessfulTime).toBeDefined();
      expect(status.active ?? []).toEqual([]);
    }, 15_000);
    const reasons = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.kind=CronJob,involvedObject.name=tick',
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    expect(reasons.split(' ')).toEqual(expect.arrayContaining(['SuccessfulCreate', 'SawCompletedJob']));
    const metrics = await secureGet(`https://127.0.0.1:${plane.manager!.securePort}/metrics`, plane.token);
    expect(metrics.body).toMatch(/workqueue_adds_total\{name="cronjob"\} [1-9]/);
    expect(metrics.body).toMatch(/cronjob_controller_job_creation_skew_duration_seconds_count [1-9]/);
    await ok(['delete', 'cronjob', 'tick']);
  });
});
