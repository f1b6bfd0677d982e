// `kube-rx controller-manager --controllers job,ttl-after-finished` against the embedded API server: the registered job controller runs a Job to completion and its queue shows in /metrics.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { silentLogger } from '../../../../operators/logger.ts';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { controllerManagerCommand } from '../../../../src/controller-manager/command.ts';
import { type KubeApiClient, kubeApiClient } from '../../../../streams/client-node/kube-api-client.ts';
import { JOBS, PODS } from '../../../../streams/resources.ts';
import { freePort } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

/** A GET to the secure port (self-signed certificate not checked). */
function get(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { rejectUnauthorized: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('job-controller in kube-rx controller-manager', { timeout: 60_000 }, () => {
  let server: RunningApiServer;
  let client: KubeApiClient;
  let dir: string;
  const signals = new EventEmitter();
  let run: Promise<unknown>;
  const lines: string[] = [];
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
    securePort = await freePort();
    run = controllerManagerCommand({
      logger: silentLogger,
      signals,
      stdout: { write: (l: string) => lines.push(l) },
    })
      .exitOverride()
      .parseAsync(
        [
          '--kubeconfig',
          kubeconfig,
          '--controllers',
          'job,ttl-after-finished',
          '--concurrent-job-syncs',
          '2',
          '--secure-port',
          String(securePort),
          '--bind-address',
          '127.0.0.1',
        ],
        { from: 'user' },
      );
    await waitFor(async () => expect(lines).toHaveLength(1), 20_000);
  });

  afterAll(async () => {
    signals.emit('SIGTERM');
    await run?.catch(() => undefined);
    client?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts the two controllers by their aliases and completes a Job', async () => {
    expect(JSON.parse(lines[0] as string).controllers).toEqual([
      'job-controller',
      'ttl-after-finished-controller',
    ]);
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
    const metrics = await get(`https://127.0.0.1:${securePort}/metrics`, token);
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
    expect(await get(`https://127.0.0.1:${securePort}/healthz/job-controller`, token)).toEqual({
      status: 200,
      body: 'ok',
    });
  });
});
