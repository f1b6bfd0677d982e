// Test harness: cronJobController in virtual time over an in-memory API (CronJobs, Jobs, Events), its writes fed back as watch events.
import { defer, firstValueFrom, of, Subject, throwError } from 'rxjs';
import type { CronJob } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { ApiError } from '../../../../operators/errors.ts';
import type { KubeObject, ReflectorEvent } from '../../../../operators/types.ts';
import {
  type CronJobControllerConfig,
  cronJobController,
} from '../../../../src/controllers/cronjob/cron-job-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';
import { JOBS } from '../../../../streams/resources.ts';

export const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** An Event the controller wrote, at a virtual time. */
export interface RecordedEvent {
  reason: string;
  message: string;
  type: string;
  at: number;
}

/** A running controller on a virtual clock over an in-memory API. */
export interface VirtualCronJobs {
  clock: VirtualClock;
  /** Jobs on the server now, by name. */
  jobs: Map<string, Job>;
  cronJobs: Map<string, CronJob>;
  /** Every Job ever created, in order, with its creation instant. */
  created: { name: string; at: number; job: Job }[];
  deleted: { name: string; at: number }[];
  /** Every occurrence of an Event: a create, or a count patch of a repeated one (the recorder dedups). */
  events: RecordedEvent[];
  /** Adds a CronJob created now (or at `createdAt`). */
  addCronJob(cj: CronJob, createdAt?: number): void;
  /** Replaces a CronJob's spec, as `kubectl edit` would. */
  updateCronJob(name: string, spec: Partial<CronJob['spec']>): void;
  /** Deletes a Job behind the controller's back, as `kubectl delete job` would. */
  removeJob(name: string): void;
  /** Creates a Job as a user would (through the same in-memory API). */
  userCreateJob(job: Job): Promise<void>;
  /** Marks a Job Complete or Failed now (startTime = its creation). */
  finishJob(name: string, type?: 'Complete' | 'Failed'): void;
  /** Runs every timer due up to `until` (epoch ms), one instant at a time, letting syncs settle between. */
  runUntil(until: number, onInstant?: () => void): Promise<void>;
  settle(): Promise<void>;
  stop(): void;
}

const NS = 'default';

/**
 * Starts the controller with the clock at `start` (epoch ms) and the CronJob and Job informers fed from
 * the in-memory API. Jobs created get a uid and creationTimestamp = the virtual now.
 */
export function virtualCronJobs(
  start: number,
  config: Partial<CronJobControllerConfig> = {},
): VirtualCronJobs {
  const clock = new VirtualClock();
  clock.advance(start);
  const cronJobs$ = new Subject<ReflectorEvent<CronJob>>();
  const jobs$ = new Subject<ReflectorEvent<Job>>();
  const informers = {
    cronjobs: sharedInformer<CronJob>({ source: cronJobs$, scheduler: clock.scheduler }),
    jobs: sharedInformer<Job>({ source: jobs$, scheduler: clock.scheduler }),
  };
  const factory = {
    forResource: (r: ResourceDescriptor) => informers[r.plural as keyof typeof informers],
  } as unknown as InformerFactory;
  const cronJobs = new Map<string, CronJob>();
  const jobs = new Map<string, Job>();
  const created: VirtualCronJobs['created'] = [];
  const deleted: VirtualCronJobs['deleted'] = [];
  const events: RecordedEvent[] = [];
  const written = new Map<string, RecordedEvent>();
  let rv = 1;
  let uid = 1;
  const notFound = (name: string) =>
    throwError(() => new ApiError(404, { reason: 'NotFound', message: `"${name}" not found` }));
  const storeOf = (r: ResourceDescriptor) =>
    (r.plural === 'jobs' ? jobs : cronJobs) as Map<string, KubeObject>;
  const emit = (r: ResourceDescriptor, type: 'Added' | 'Updated' | 'Deleted', object: KubeObject) => {
    if (r.plural === 'jobs') jobs$.next({ type, object: object as Job });
    else cronJobs$.next({ type, object: object as CronJob });
  };
  const client = {
    get: (r: ResourceDescriptor, name: string) =>
      defer(() => {
        const o = storeOf(r).get(name);
        return o ? of(structuredClone(o)) : notFound(name);
      }),
    create: (r: ResourceDescriptor, object: KubeObject) =>
      defer(() => {
        if (r.plural === 'events') {
          const e = object as unknown as RecordedEvent;
          written.set(object.metadata?.name ?? '', e);
          events.push({ reason: e.reason, message: e.message, type: e.type, at: clock.now() });
          return of(object);
        }
        const name = object.metadata?.name ?? '';
        if (jobs.has(name)) {
          return throwError(
            () =>
              new ApiError(409, { reason: 'AlreadyExists', message: `jobs.batch "${name}" already exists` }),
          );
        }
        const job = structuredClone(object) as Job;
        job.metadata = {
          ...job.metadata,
          uid: `job-${uid++}`,
          resourceVersion: String(rv++),
          creationTimestamp: stamp(clock.now()),
        };
        jobs.set(name, job);
        created.push({ name, at: clock.now(), job });
        jobs$.next({ type: 'Added', object: structuredClone(job) });
        return of(structuredClone(job));
      }),
    // the recorder counts a repeated Event by patching the one it wrote: each patch is one more occurrence
    patch: (r: ResourceDescriptor, name: string, body: { message?: string }) =>
      defer(() => {
        const e = r.plural === 'events' ? written.get(name) : undefined;
        if (!e) return notFound(name);
        events.push({ reason: e.reason, message: body.message ?? e.message, type: e.type, at: clock.now() });
        return of({ ...e } as unknown as KubeObject);
      }),
    updateStatus: (r: ResourceDescriptor, object: KubeObject) =>
      defer(() => {
        const live = storeOf(r).get(object.metadata?.name ?? '');
        if (!live) return notFound(object.metadata?.name ?? '');
        const next = {
          ...live,
          status: structuredClone(object.status),
          metadata: { ...live.metadata, resourceVersion: String(rv++) },
        };
        storeOf(r).set(object.metadata?.name ?? '', next);
        emit(r, 'Updated', structuredClone(next));
        return of(structuredClone(next));
      }),
    delete: (r: ResourceDescriptor, name: string) =>
      defer(() => {
        const live = storeOf(r).get(name);
        if (!live) return notFound(name);
        storeOf(r).delete(name);
        if (r.plural === 'jobs') deleted.push({ name, at: clock.now() });
        emit(r, 'Deleted', live);
        return of({ kind: 'Status', status: 'Success' });
      }),
  } as unknown as ApiClient;

  const sub = cronJobController({
    client,
    informerFactory: factory,
    workers: 2,
    scheduler: clock.scheduler,
    localTimeZone: 'UTC',
    ...config,
  }).subscribe();
  const holds = Object.values(informers).map((i) => i.start());
  cronJobs$.next({ type: 'Replace', items: [], resourceVersion: '1' });
  jobs$.next({ type: 'Replace', items: [], resourceVersion: '1' });

  const settle = async () => {
    for (let i = 0; i < 8; i++) await new Promise((r) => setImmediate(r));
  };
  const update = (name: string, edit: (o: CronJob) => CronJob) => {
    const live = cronJobs.get(name);
    if (!live) throw new Error(`no CronJob ${name}`);
    const next = edit(structuredClone(live));
    next.metadata.resourceVersion = String(rv++);
    cronJobs.set(name, next);
    cronJobs$.next({ type: 'Updated', object: structuredClone(next) });
  };
  return {
    clock,
    jobs,
    cronJobs,
    created,
    deleted,
    events,
    addCronJob(cj, createdAt = clock.now()) {
      const object: CronJob = {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        ...structuredClone(cj),
        metadata: {
          namespace: NS,
          ...cj.metadata,
          uid: `cj-${uid++}`,
          resourceVersion: String(rv++),
          creationTimestamp: stamp(createdAt),
        },
      };
      cronJobs.set(object.metadata.name ?? '', object);
      cronJobs$.next({ type: 'Added', object: structuredClone(object) });
    },
    updateCronJob(name, spec) {
      update(name, (o) => ({ ...o, spec: { ...o.spec, ...spec } }));
    },
    removeJob(name) {
      const live = jobs.get(name);
      if (!live) throw new Error(`no Job ${name}`);
      jobs.delete(name);
      jobs$.next({ type: 'Deleted', object: live });
    },
    async userCreateJob(job) {
      await firstValueFrom(client.create(JOBS, job, { namespace: NS }));
    },
    finishJob(name, type = 'Complete') {
      const live = jobs.get(name);
      if (!live) throw new Error(`no Job ${name}`);
      const next: Job = {
        ...live,
        metadata: { ...live.metadata, resourceVersion: String(rv++) },
        status: {
          ...live.status,
          startTime: live.metadata.creationTimestamp ?? stamp(clock.now()),
          ...(type === 'Complete' ? { completionTime: stamp(clock.now()) } : {}),
          conditions: [{ type, status: 'True' }],
        },
      };
      jobs.set(name, next);
      jobs$.next({ type: 'Updated', object: structuredClone(next) });
    },
    async runUntil(until, onInstant) {
      await settle();
      for (let guard = 0; guard < 100_000; guard++) {
        const due = (clock.scheduler.actions as unknown as { delay: number }[])
          .map((a) => a.delay)
          .reduce((m, d) => Math.min(m, d), Number.POSITIVE_INFINITY);
        if (due > until) break;
        clock.advance(Math.max(0, due - clock.now()));
        await settle();
        onInstant?.();
      }
      clock.advance(Math.max(0, until - clock.now()));
      await settle();
    },
    settle,
    stop() {
      sub.unsubscribe();
      for (const h of holds) h.unsubscribe();
    },
  };
}

/** A CronJob running `busybox echo hi` on a schedule. */
export function cronJob(name: string, spec: Partial<CronJob['spec']> & { schedule: string }): CronJob {
  return {
    metadata: { name, namespace: NS },
    spec: {
      concurrencyPolicy: 'Allow',
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: {
        metadata: { labels: { app: name } },
        spec: {
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'c', image: 'busybox', command: ['echo', 'hi'] }],
            },
          },
        },
      },
      ...spec,
    },
  };
}
