// Property: for any schedule and any sequence of Job completions, Forbid (and Replace) never has two Jobs running, and finished Jobs never exceed the history limits.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { cronJob, type VirtualCronJobs, virtualCronJobs } from './virtual-cron-job.ts';

const M = 60_000;
const T0 = Date.parse('2024-01-15T00:00:30Z');

const schedules = fc.oneof(
  fc.integer({ min: 1, max: 15 }).map((k) => `*/${k} * * * *`),
  fc
    .uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 6 })
    .map((ms) => `${ms.join(',')} * * * *`),
  fc.integer({ min: 1, max: 20 }).map((k) => `@every ${k}m`),
  fc.constantFrom('@hourly', '0-30/7 * * * *', '* * * * *'),
);
/** What happens to each running Job at each instant: keeps running, succeeds or fails. */
const fates = fc.array(fc.constantFrom('run', 'run', 'Complete', 'Failed'), { minLength: 1, maxLength: 200 });

const state = (j: Job) => j.status?.conditions?.find((c) => c.status === 'True')?.type ?? 'running';

let harness: VirtualCronJobs | undefined;
afterEach(() => harness?.stop());

describe('cronJobController properties', () => {
  it('Forbid and Replace keep at most one Job running; finished Jobs stay within the history limits (any policy, schedule, completions)', async () => {
    await fc.assert(
      fc.asyncProperty(
        schedules,
        fates,
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('Forbid', 'Allow', 'Replace'),
        async (schedule, fate, successful, failed, policy) => {
          harness?.stop();
          const h = virtualCronJobs(T0);
          harness = h;
          h.addCronJob(
            cronJob('p', {
              schedule,
              concurrencyPolicy: policy,
              successfulJobsHistoryLimit: successful,
              failedJobsHistoryLimit: failed,
            }),
          );
          let i = 0;
          let mostRunning = 0;
          const violations: string[] = [];
          await h.runUntil(T0 + 90 * M, () => {
            const jobs = [...h.jobs.values()];
            const running = jobs.filter((j) => state(j) === 'running');
            mostRunning = Math.max(mostRunning, running.length);
            const done = jobs.filter((j) => state(j) === 'Complete').length;
            const lost = jobs.filter((j) => state(j) === 'Failed').length;
            if (done > successful) violations.push(`${done} successful > ${successful} at ${h.clock.now()}`);
            if (lost > failed) violations.push(`${lost} failed > ${failed} at ${h.clock.now()}`);
            for (const j of running) {
              const f = fate[i++ % fate.length];
              if (f === 'Complete' || f === 'Failed') h.finishJob(j.metadata.name ?? '', f);
            }
          });
          expect(violations).toEqual([]);
          if (policy !== 'Allow') expect(mostRunning).toBeLessThanOrEqual(1);
          // non-vacuous: every schedule here fires within 90 minutes
          expect(h.created.length).toBeGreaterThan(0);
          h.stop();
          harness = undefined;
        },
      ),
      { numRuns: 40 },
    );
  });
});
