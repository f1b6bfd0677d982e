// The cronjob controller end to end, in real time: `kube-rx controller-manager --controllers job,cronjob`, the embedded API server, kube-rx scheduler, a simulated kubelet and kubectl — `kubectl create cronjob tick --schedule='* * * * *'` fires a Job that completes (waits for the next minute: up to ~65 s).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getControllerOf } from '../../../../operators/controller/controller-ref.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { defaultKubeletConfiguration } from '../../../../src/kubelet/kubelet-configuration.ts';
import { type RunningKubelets, runKubelets } from '../../../../src/kubelet/run-kubelets.ts';
import { type KubeApiClient, kubeApiClient } from '../../../../streams/client-node/kube-api-client.ts';
import { JOBS } from '../../../../streams/resources.ts';
import { secureGet, useControllerManager } from '../../../helpers/controller-manager.ts';
import {
  KUBECTL,
  kubectl,
  type SchedulerProcess,
  startSchedulerProcess,
} from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

describe.skipIf(!KUBECTL)('cronjob-controller end to end (real time)', { timeout: 150_000 }, () => {
  const kcm = useControllerManager(['--controllers', 'job,cronjob', '--concurrent-cron-job-syncs', '2']);
  let dir: string;
  let kubeconfig: string;
  let client: KubeApiClient;
  let kubelets: RunningKubelets;
  let scheduler: SchedulerProcess;

  const ok = async (args: string[]) => {
    const r = await kubectl(kubeconfig, args);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-cronjob-'));
    kubeconfig = join(dir, 'kubeconfig');
    await kcm.cluster.server.writeKubeconfig(kubeconfig);
    client = kubeApiClient({
      kubeConfig: { from: 'string', yaml: kcm.cluster.server.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
    });
    kubelets = await runKubelets({
      client,
      nodeName: 'sim',
      config: defaultKubeletConfiguration(),
      runtime: 'simulated',
      simulatedNodes: 1,
      rootDir: join(dir, 'kubelet'),
    });
    scheduler = await startSchedulerProcess([
      '--kubeconfig',
      kubeconfig,
      '--leader-elect=false',
      '--secure-port',
      '0',
    ]);
  });

  afterAll(async () => {
    await kubelets?.stop();
    expect(await scheduler?.stop()).toBe(0);
    client?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("`kubectl create cronjob tick --schedule='* * * * *' -- echo hi` fires a Job within a minute, which completes", async () => {
    expect(kcm.manager.started.controllers).toEqual(['job-controller', 'cronjob-controller']);
    expect(
      await ok(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'echo', 'hi']),
    ).toContain('cronjob.batch/tick created');
    const job = await waitFor(async () => {
      const jobs = (await firstValueFrom(client.list<Job>(JOBS, { namespace: 'default' }))).items.filter(
        (j) => getControllerOf(j)?.name === 'tick',
      );
      expect(jobs).toHaveLength(1);
      return jobs[0] as Job;
    }, 70_000);
    const scheduled = job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'] ?? '';
    expect(Date.parse(scheduled) % 60_000).toBe(0);
    expect(job.metadata.name).toBe(`tick-${Date.parse(scheduled) / 60_000}`);
    expect(getControllerOf(job)).toMatchObject({ apiVersion: 'batch/v1', kind: 'CronJob', controller: true });

    const waited = await kubectl(kubeconfig, [
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
    const metrics = await secureGet(`https://127.0.0.1:${kcm.manager.securePort}/metrics`, kcm.token);
    expect(metrics.body).toMatch(/workqueue_adds_total\{name="cronjob"\} [1-9]/);
    expect(metrics.body).toMatch(/cronjob_controller_job_creation_skew_duration_seconds_count [1-9]/);
    await ok(['delete', 'cronjob', 'tick']);
  });
});
