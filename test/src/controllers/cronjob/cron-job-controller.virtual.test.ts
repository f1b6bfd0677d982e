// cronJobController in virtual time: Jobs at the right instants in a time zone, Forbid, Replace, startingDeadlineSeconds, suspend, history limits, schedule edits.
import { afterEach, describe, expect, it } from 'vitest';
import { cronJob, type VirtualCronJobs, virtualCronJobs } from './virtual-cron-job.ts';

const M = 60_000;
const H = 60 * M;
const t = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

let harness: VirtualCronJobs | undefined;
const start = (at: number) => {
  harness = virtualCronJobs(at);
  return harness;
};
afterEach(() => {
  harness?.stop();
  harness = undefined;
});

describe('cronJobController (virtual time)', () => {
  it('"*/5 * * * *" in Asia/Kathmandu: a Job every five minutes, 100 ms after the start time, named by the minute', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('tick', { schedule: '*/5 * * * *', timeZone: 'Asia/Kathmandu' }));
    await h.runUntil(T0 + 30 * M, () => {
      for (const [name, job] of h.jobs) if (!job.status?.conditions) h.finishJob(name);
    });
    expect(h.created.map((c) => iso(c.at))).toEqual(
      [5, 10, 15, 20, 25, 30].map((m) => iso(t('2024-01-15T00:00:00Z') + m * M + 100)),
    );
    expect(h.created.map((c) => c.name)).toEqual(
      [5, 10, 15, 20, 25, 30].map((m) => `tick-${(t('2024-01-15T00:00:00Z') + m * M) / M}`),
    );
    // the scheduled time in the CronJob's zone (UTC+5:45)
    expect(h.created[0]?.job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(
      '2024-01-15T05:50:00+05:45',
    );
    // three successful Jobs kept, the oldest deleted as each new one finished
    expect([...h.jobs.keys()].sort()).toEqual(
      h.created
        .slice(3)
        .map((c) => c.name)
        .sort(),
    );
    expect(h.cronJobs.get('tick')?.status).toMatchObject({
      lastScheduleTime: '2024-01-15T00:30:00Z',
      active: [],
    });
    expect(h.events.filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(6);
    expect(h.events.filter((e) => e.reason === 'SawCompletedJob').length).toBeGreaterThanOrEqual(5);
  });

  it('"30 9 * * *" in America/New_York follows the zone across the DST change (14:30Z, then 13:30Z)', async () => {
    const T0 = t('2024-03-09T00:00:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('daily', { schedule: '30 9 * * *', timeZone: 'America/New_York' }));
    await h.runUntil(T0 + 72 * H, () => {
      for (const [name, job] of h.jobs) if (!job.status?.conditions) h.finishJob(name);
    });
    expect(h.created.map((c) => iso(c.at - 100))).toEqual([
      '2024-03-09T14:30:00.000Z',
      '2024-03-10T13:30:00.000Z',
      '2024-03-11T13:30:00.000Z',
    ]);
    expect(
      h.created.map((c) => c.job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']),
    ).toEqual(['2024-03-09T09:30:00-05:00', '2024-03-10T09:30:00-04:00', '2024-03-11T09:30:00-04:00']);
  });

  it('Forbid: no second Job while one is active (JobAlreadyActive); once it finishes the latest skipped start runs', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('solo', { schedule: '*/5 * * * *', concurrencyPolicy: 'Forbid' }));
    let mostActive = 0;
    await h.runUntil(T0 + 20 * M, () => {
      mostActive = Math.max(mostActive, [...h.jobs.values()].filter((j) => !j.status?.conditions).length);
    });
    expect(h.created).toHaveLength(1);
    expect(mostActive).toBe(1);
    expect(h.events.filter((e) => e.reason === 'JobAlreadyActive').map((e) => iso(e.at))).toEqual(
      [10, 15, 20].map((m) => iso(t('2024-01-15T00:00:00Z') + m * M + 100)),
    );
    // finished at 00:21: the 00:20 start (never marked as scheduled) runs at once, as upstream without a deadline
    h.finishJob(h.created[0]?.name ?? '');
    await h.runUntil(T0 + 25 * M);
    expect(h.created.map((c) => [c.name, iso(c.at)])).toEqual([
      [`solo-${t('2024-01-15T00:05:00Z') / M}`, '2024-01-15T00:05:00.100Z'],
      [`solo-${t('2024-01-15T00:20:00Z') / M}`, '2024-01-15T00:21:00.000Z'],
    ]);
  });

  it('Replace: each start deletes the running Job and creates the next', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('fresh', { schedule: '*/5 * * * *', concurrencyPolicy: 'Replace' }));
    await h.runUntil(T0 + 15 * M);
    expect(h.created.map((c) => c.name)).toHaveLength(3);
    expect(h.deleted.map((d) => d.name)).toEqual(h.created.slice(0, 2).map((c) => c.name));
    expect([...h.jobs.keys()]).toEqual([h.created[2]?.name]);
    expect(h.cronJobs.get('fresh')?.status?.active?.map((r) => r.name)).toEqual([h.created[2]?.name]);
    expect(h.events.filter((e) => e.reason === 'SuccessfulDelete')).toHaveLength(2);
  });

  it('startingDeadlineSeconds: a start missed by more than the deadline is skipped; without one it runs late', async () => {
    const T0 = t('2024-01-15T00:02:30Z');
    const late = start(T0);
    // created before 00:00, first seen at 00:02:30 (the controller was down)
    late.addCronJob(cronJob('late', { schedule: '*/5 * * * *' }), t('2024-01-14T23:58:00Z'));
    late.addCronJob(
      cronJob('strict', { schedule: '*/5 * * * *', startingDeadlineSeconds: 60 }),
      t('2024-01-14T23:58:00Z'),
    );
    await late.runUntil(T0 + M);
    expect(late.created.map((c) => [c.name.split('-')[0], iso(c.at)])).toEqual([['late', iso(T0)]]);
    expect(
      late.created[0]?.job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'],
    ).toBe('2024-01-15T00:00:00Z');
    await late.runUntil(t('2024-01-15T00:05:01Z'));
    expect(late.created.filter((c) => c.name.startsWith('strict')).map((c) => iso(c.at))).toEqual([
      '2024-01-15T00:05:00.100Z',
    ]);
  });

  it('suspend holds every start; resuming runs the latest missed one', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('nap', { schedule: '*/5 * * * *', suspend: true }));
    await h.runUntil(T0 + 20 * M);
    expect(h.created).toHaveLength(0);
    h.updateCronJob('nap', { suspend: false });
    await h.settle();
    expect(h.created.map((c) => c.name)).toEqual([`nap-${t('2024-01-15T00:20:00Z') / M}`]);
  });

  it('a new schedule is followed from the next start time of the new schedule', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('edit', { schedule: '0 * * * *' }));
    await h.runUntil(T0 + M);
    h.updateCronJob('edit', { schedule: '*/5 * * * *' });
    await h.runUntil(T0 + 10 * M);
    expect(h.created.map((c) => iso(c.at))).toEqual(
      [5, 10].map((m) => iso(t('2024-01-15T00:00:00Z') + m * M + 100)),
    );
  });

  it('an unparseable new schedule: UnParseableCronJobSchedule, no Job', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('typo', { schedule: '0 * * * *' }));
    await h.runUntil(T0 + M);
    h.updateCronJob('typo', { schedule: '*/5 * * *' });
    await h.runUntil(T0 + 70 * M);
    expect(h.created).toHaveLength(0);
    expect(h.events.map((e) => e.reason)).toContain('UnParseableCronJobSchedule');
    expect(h.events.map((e) => e.reason)).toContain('UnparseableSchedule');
  });

  it('failed Jobs beyond failedJobsHistoryLimit are deleted, oldest first', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('flaky', { schedule: '*/5 * * * *' }));
    await h.runUntil(T0 + 20 * M, () => {
      for (const [name, job] of h.jobs) if (!job.status?.conditions) h.finishJob(name, 'Failed');
    });
    expect(h.created).toHaveLength(4);
    expect([...h.jobs.keys()]).toEqual([h.created[3]?.name]);
    expect(h.cronJobs.get('flaky')?.status?.lastSuccessfulTime ?? undefined).toBeUndefined();
  });

  it('an active Job deleted behind its back: MissingJob, and under Forbid the next start runs again', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('gone', { schedule: '*/5 * * * *', concurrencyPolicy: 'Forbid' }));
    await h.runUntil(T0 + 5 * M);
    const first = h.created[0]?.name ?? '';
    h.removeJob(first);
    await h.settle();
    expect(h.events.filter((e) => e.reason === 'MissingJob').map((e) => e.message)).toEqual([
      `Active job went missing: ${first}`,
    ]);
    expect(h.cronJobs.get('gone')?.status?.active).toEqual([]);
    await h.runUntil(T0 + 10 * M);
    expect(h.created.map((c) => iso(c.at))).toEqual(
      [5, 10].map((m) => iso(t('2024-01-15T00:00:00Z') + m * M + 100)),
    );
  });

  it('an unfinished Job naming it as controller that it did not create: UnexpectedJob, not adopted', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = start(T0);
    h.addCronJob(cronJob('owner', { schedule: '0 * * * *' }));
    await h.settle();
    const uid = h.cronJobs.get('owner')?.metadata.uid ?? '';
    await h.userCreateJob({
      metadata: {
        name: 'stray',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'owner', uid, controller: true }],
      },
      spec: { template: { spec: { containers: [] } } },
    });
    await h.settle();
    expect(h.events.filter((e) => e.reason === 'UnexpectedJob').map((e) => e.message)).toEqual([
      'Saw a job that the controller did not create or forgot: stray',
    ]);
    expect(h.cronJobs.get('owner')?.status?.active ?? []).toEqual([]);
  });

  it('stops cleanly: no timer left after unsubscribing', async () => {
    const T0 = t('2024-01-15T00:01:00Z');
    const h = virtualCronJobs(T0);
    h.addCronJob(cronJob('bye', { schedule: '*/5 * * * *' }));
    await h.runUntil(T0 + 6 * M);
    expect(h.clock.pending).toBeGreaterThan(0);
    h.stop();
    expect(h.clock.pending).toBe(0);
  });
});
