// The job controller and the ttl-after-finished controller against the embedded API server (pods' phases written by the test): creation with finalizer and controller reference, completion, suspend and resume, adoption, TTL clean-up.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { jobController } from '../../../../src/controllers/job/job-controller.ts';
import { ttlAfterFinishedController } from '../../../../src/controllers/ttl-after-finished/ttl-after-finished-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { JOBS, PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };

const newJob = (name: string, spec: Partial<Job['spec']> = {}): Job => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default' },
  spec: {
    completions: 2,
    parallelism: 2,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
    },
    ...spec,
  },
});

const podsOf = async (name: string) =>
  (await firstValueFrom(cluster.api.list<Pod>(PODS, { ...ns, labelSelector: `app=${name}` }))).items;
const jobOf = (name: string) => firstValueFrom(cluster.api.get<Job>(JOBS, name, ns));
const condition = (job: Job, type: string) => job.status?.conditions?.find((c) => c.type === type);

/** Writes a pod's phase as a kubelet would. */
async function finish(pod: Pod, phase: 'Succeeded' | 'Failed') {
  const live = await firstValueFrom(cluster.api.get<Pod>(PODS, pod.metadata.name ?? '', ns));
  const exitCode = phase === 'Succeeded' ? 0 : 1;
  const finishedAt = new Date().toISOString();
  await firstValueFrom(
    cluster.api.updateStatus<Pod>(
      PODS,
      {
        ...live,
        status: {
          phase,
          containerStatuses: [
            {
              name: 'c',
              ready: false,
              restartCount: 0,
              image: 'busybox',
              imageID: '',
              state: { terminated: { exitCode, finishedAt } },
            },
          ],
        },
      },
      ns,
    ),
  );
}

describe('job controller on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription;

  beforeAll(() => {
    factory = informerFactory({ client: cluster.api });
    running = jobController({ client: cluster.api, informerFactory: factory, workers: 2 }).subscribe();
    running.add(ttlAfterFinishedController({ client: cluster.api, informerFactory: factory }).subscribe());
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('creates parallelism pods with the tracking finalizer and a controller reference, then completes', async () => {
    await firstValueFrom(cluster.api.create(JOBS, newJob('two'), ns));
    let pods: Pod[] = [];
    await waitFor(async () => {
      pods = await podsOf('two');
      expect(pods).toHaveLength(2);
    });
    for (const p of pods) {
      expect(p.metadata.finalizers).toContain('batch.kubernetes.io/job-tracking');
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Job', name: 'two', controller: true });
      expect(p.metadata.generateName).toBe('two-');
    }
    await waitFor(async () => expect((await jobOf('two')).status).toMatchObject({ active: 2 }));
    for (const p of pods) await finish(p, 'Succeeded');
    await waitFor(async () => {
      const job = await jobOf('two');
      expect(condition(job, 'Complete')?.status).toBe('True');
      expect(job.status).toMatchObject({ succeeded: 2, active: 0 });
    }, 15_000);
    for (const p of await podsOf('two'))
      expect(p.metadata.finalizers ?? []).not.toContain('batch.kubernetes.io/job-tracking');
  });

  it('holds a suspended job (Suspended, no pods) and creates its pods on resume', async () => {
    await firstValueFrom(cluster.api.create(JOBS, newJob('later', { suspend: true }), ns));
    await waitFor(async () =>
      expect(condition(await jobOf('later'), 'Suspended')).toMatchObject({
        status: 'True',
        reason: 'JobSuspended',
      }),
    );
    expect(await podsOf('later')).toHaveLength(0);
    expect((await jobOf('later')).status?.startTime).toBeUndefined();
    await firstValueFrom(cluster.api.patch(JOBS, 'later', { spec: { suspend: false } }, 'merge', ns));
    await waitFor(async () => {
      const job = await jobOf('later');
      expect(condition(job, 'Suspended')).toMatchObject({
        status: 'False',
        reason: 'JobResumed',
        message: 'Job resumed',
      });
      expect(job.status?.startTime).toBeDefined();
      expect(await podsOf('later')).toHaveLength(2);
    });
  });

  it('adopts an orphan pod matching its selector, adding the tracking finalizer', async () => {
    await firstValueFrom(
      cluster.api.create<Pod>(
        PODS,
        {
          metadata: { name: 'stray', namespace: 'default', labels: { app: 'adopter' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
        ns,
      ),
    );
    await firstValueFrom(cluster.api.create(JOBS, newJob('adopter', { completions: 1, parallelism: 1 }), ns));
    await waitFor(async () => {
      const stray = await firstValueFrom(cluster.api.get<Pod>(PODS, 'stray', ns));
      expect(stray.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'Job',
        name: 'adopter',
        controller: true,
      });
      expect(stray.metadata.finalizers).toContain('batch.kubernetes.io/job-tracking');
    });
    // the adopted pod counts towards parallelism: no second pod
    expect(await podsOf('adopter')).toHaveLength(1);
  });

  it('counts every pod exactly once across a controller restart', async () => {
    await firstValueFrom(cluster.api.create(JOBS, newJob('restart', { completions: 3, parallelism: 3 }), ns));
    let pods: Pod[] = [];
    await waitFor(async () => {
      pods = await podsOf('restart');
      expect(pods).toHaveLength(3);
    });
    await finish(pods[0] as Pod, 'Succeeded');
    await finish(pods[1] as Pod, 'Failed');
    // a new controller process: new informers, no expectations, no memory
    running.unsubscribe();
    factory.shutdown();
    factory = informerFactory({ client: cluster.api });
    running = jobController({ client: cluster.api, informerFactory: factory, workers: 2 }).subscribe();
    running.add(ttlAfterFinishedController({ client: cluster.api, informerFactory: factory }).subscribe());
    factory.start();
    await finish(pods[2] as Pod, 'Succeeded');
    // the failed pod is replaced (after the 10 s back-off at most); its replacement succeeds too
    const replacement = await waitFor(async () => {
      const now = await podsOf('restart');
      const extra = now.find((p) => !pods.some((q) => q.metadata.uid === p.metadata.uid));
      expect(extra).toBeDefined();
      return extra as Pod;
    }, 20_000);
    await finish(replacement, 'Succeeded');
    await waitFor(async () => {
      const job = await jobOf('restart');
      expect(condition(job, 'Complete')?.status).toBe('True');
      expect(job.status).toMatchObject({ succeeded: 3, failed: 1, active: 0 });
      expect(job.status?.uncountedTerminatedPods ?? {}).toEqual({});
    }, 15_000);
  });

  it('fails at the backoff limit, then the ttl-after-finished controller deletes the job', async () => {
    await firstValueFrom(
      cluster.api.create(
        JOBS,
        newJob('short', { completions: 1, parallelism: 1, backoffLimit: 0, ttlSecondsAfterFinished: 0 }),
        ns,
      ),
    );
    let pods: Pod[] = [];
    await waitFor(async () => {
      pods = await podsOf('short');
      expect(pods).toHaveLength(1);
    });
    await finish(pods[0] as Pod, 'Failed');
    // foreground deletion: the job is marked deleted (the garbage collector then removes its pods and it)
    await waitFor(async () => {
      const job = await jobOf('short').catch((e: { statusCode?: number }) =>
        e.statusCode === 404 ? undefined : Promise.reject(e),
      );
      if (job === undefined) return;
      expect(condition(job, 'Failed')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded' });
      expect(job.metadata.deletionTimestamp).toBeDefined();
      expect(job.metadata.finalizers ?? []).toContain('foregroundDeletion');
    }, 15_000);
  });
});
