// Convergence trial tests: a clean trial converges at once and cleans up; mismatches and summaries are described exactly.
import { describe, expect, it } from 'vitest';
import { FAULT_PLANS, isFirstRequest } from '../../../src/testing/fault-plan.ts';
import {
  type ConvergenceTrialResult,
  describeMismatch,
  runConvergenceTrial,
  summarizeTrials,
} from '../../../src/testing/fault-trial.ts';
import { kubeRxTrialInformer } from '../../../src/testing/fault-trial-informer.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { until } from '../../helpers/until.ts';

const cluster = useEmbeddedCluster({ bookmarkIntervalMs: 250 });

describe('describeMismatch', () => {
  const m = (entries: [string, string][]) => new Map(entries);
  it.each([
    ['equal maps', m([['a', '1']]), m([['a', '1']]), ''],
    ['a missing key', m([['a', '1']]), m([]), 'missing a'],
    ['an extra key', m([]), m([['b', '2']]), 'extra b'],
    ['a stale key', m([['a', '3']]), m([['a', '1']]), 'stale a 1≠3'],
    [
      'all three',
      m([
        ['a', '3'],
        ['c', '1'],
      ]),
      m([
        ['a', '1'],
        ['b', '2'],
      ]),
      'missing c; extra b; stale a 1≠3',
    ],
  ])('%s', (_name, expected, actual, text) => {
    expect(describeMismatch(expected, actual)).toBe(text);
  });
});

describe('summarizeTrials', () => {
  const result = (convergeMs: number | undefined, violations: string[] = [], watches = 2, lists = 1) =>
    ({
      convergeMs,
      converged: convergeMs !== undefined,
      violations,
      watchRequests: watches,
      listRequests: lists,
    }) as unknown as ConvergenceTrialResult;
  it('counts trials within 5 s and 10 s and takes nearest-rank quantiles, never-converged as Infinity', () => {
    const s = summarizeTrials([
      result(100),
      result(6000),
      result(undefined, ['duplicate add: x']),
      result(4000),
      result(12_000, [], 7, 3),
    ]);
    expect(s).toEqual({
      trials: 5,
      within5s: 2,
      within10s: 3,
      medianMs: 6000,
      p90Ms: Number.POSITIVE_INFINITY,
      violations: 1,
      watchRequestsPerTrial: 3,
      listRequestsPerTrial: 1.4,
    });
  });
});

describe('runConvergenceTrial', () => {
  it('without faults converges, counts its writes and leaves no handle behind', async () => {
    await new Promise((r) => setTimeout(r, 50));
    const before = process.getActiveResourcesInfo().length;
    const result = await runConvergenceTrial({
      upstream: cluster.server,
      writer: cluster.api,
      seed: 3,
      plan: {},
      informer: kubeRxTrialInformer({ inactivityTimeoutMs: 1000 }),
      writeMs: 300,
      deadlineMs: 3000,
    });
    expect(result).toMatchObject({
      seed: 3,
      converged: true,
      violations: [],
      mismatch: '',
      requests: 1,
      watchRequests: 1,
      listRequests: 0,
    });
    expect(result.writes).toBeGreaterThan(3);
    expect(Object.values(result.faults).every((n) => n === 0)).toBe(true);
    await until(() => process.getActiveResourcesInfo().length <= before, 'the trial’s handles to close');
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(before);
  });

  it('creates the initial objects first; a hang in the initial streaming list is left for a list, and converges', async () => {
    const result = await runConvergenceTrial({
      upstream: cluster.server,
      writer: cluster.api,
      seed: 11,
      plan: { ...FAULT_PLANS.hangsInList, stallForever: 0.05 },
      informer: kubeRxTrialInformer(),
      initialObjects: 60,
      keys: 60,
      writeMs: 500,
      deadlineMs: 15_000,
    });
    expect(result).toMatchObject({ converged: true, violations: [] });
    expect(result.objects).toBeGreaterThan(40);
    expect(result.faults.stallForever).toBe(1);
    expect(result.listRequests).toBeGreaterThanOrEqual(1); // the hung watch-list fell back to a list
  });

  it('a first request whose response head never comes (heavy seed 11) is hedged: converged well inside the 25 s ceiling', async () => {
    const result = await runConvergenceTrial({
      upstream: cluster.server,
      writer: cluster.api,
      seed: 11,
      plan: { hang: 1, applies: isFirstRequest },
      informer: kubeRxTrialInformer(),
      writeMs: 500,
      deadlineMs: 8000,
    });
    expect(result).toMatchObject({ converged: true, violations: [] });
    expect(result.faults.hang).toBe(1);
    expect(result.watchRequests).toBeGreaterThanOrEqual(2); // the hung watch-list and its hedge
  });

  it('rejects bad timings naming the field', async () => {
    await expect(
      runConvergenceTrial({
        upstream: cluster.server,
        writer: cluster.api,
        seed: 1,
        plan: {},
        informer: kubeRxTrialInformer(),
        writeMs: -1,
      }),
    ).rejects.toThrow(/convergenceTrial\.writeMs/);
    await expect(
      runConvergenceTrial({
        upstream: cluster.server,
        writer: cluster.api,
        seed: 1,
        plan: {},
        informer: kubeRxTrialInformer(),
        initialObjects: 1.5,
      }),
    ).rejects.toThrow(/convergenceTrial\.initialObjects/);
  });
});
