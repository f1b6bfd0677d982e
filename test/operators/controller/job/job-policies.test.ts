// The job controller's pure helpers: index interval strings, pod-recreation back-off, podFailurePolicy and successPolicy matching.
import { describe, expect, it } from 'vitest';
import { formatIndexes, parseIndexes } from '../../../../operators/controller/job/completion-indexes.ts';
import { backoffRemaining, nextBackoffRecord } from '../../../../operators/controller/job/job-backoff.ts';
import { matchPodFailurePolicy } from '../../../../operators/controller/job/pod-failure-policy.ts';
import { matchSuccessPolicy } from '../../../../operators/controller/job/success-policy.ts';
import { jobPod, NOW, newJob, syncOnce } from './job-fixtures.ts';

describe('completion index intervals', () => {
  it.each([
    [[], ''],
    [[0], '0'],
    [[0, 1], '0,1'],
    [[0, 1, 2, 4, 6], '0-2,4,6'],
    [[2, 4, 5, 7, 8, 9], '2,4,5,7-9'],
    [[5, 3, 4, 3], '3-5'],
  ])('formats %j as %j', (indexes, text) => {
    expect(formatIndexes(indexes)).toBe(text);
    expect([...parseIndexes(text, 100)].sort((a, b) => a - b)).toEqual(
      [...new Set(indexes)].sort((a, b) => a - b),
    );
  });

  it.each([
    ['0-3,7', 5, [0, 1, 2, 3]],
    ['1,9', 5, [1]],
    ['3-9', 5, [3, 4]],
    ['x,2', 5, [2]],
    ['', 5, []],
  ])(
    'parses %j with completions %d, dropping what is out of range or malformed',
    (text, completions, want) => {
      expect([...parseIndexes(text, completions)]).toEqual(want);
    },
  );
});

describe('pod-recreation back-off', () => {
  it.each([
    [0, undefined, 0, 0],
    [1, 0, 0, 10_000],
    [1, 0, 4_000, 6_000],
    [2, 0, 0, 20_000],
    [3, 0, 5_000, 35_000],
    [7, 0, 0, 600_000],
    [20, 0, 0, 600_000],
    [1, 0, 30_000, 0],
  ])('%d failures, last at %s, %d ms later: %d ms to wait', (failures, last, elapsed, want) => {
    const record = {
      failuresAfterLastSuccess: failures,
      ...(last !== undefined ? { lastFailureTime: last } : {}),
    };
    expect(backoffRemaining(record, (last ?? 0) + elapsed)).toBe(want);
  });

  it('counts failures after the newest success only', () => {
    const job = newJob(1, 1);
    const ok = jobPod(job, 'Succeeded', undefined, { finishedAt: NOW - 5000 });
    const before = jobPod(job, 'Failed', undefined, { finishedAt: NOW - 8000 });
    const after = jobPod(job, 'Failed', undefined, { finishedAt: NOW - 1000 });
    expect(nextBackoffRecord({ failuresAfterLastSuccess: 4 }, [ok], [before, after])).toEqual({
      failuresAfterLastSuccess: 1,
      lastFailureTime: NOW - 1000,
    });
    expect(nextBackoffRecord({ failuresAfterLastSuccess: 2, lastFailureTime: 1 }, [], [after])).toEqual({
      failuresAfterLastSuccess: 3,
      lastFailureTime: NOW - 1000,
    });
    expect(nextBackoffRecord({ failuresAfterLastSuccess: 2 }, [ok], [before])).toEqual({
      failuresAfterLastSuccess: 0,
    });
  });
});

describe('podFailurePolicy', () => {
  const job = newJob(1, 1);
  const failed = (exitCode: number, name = 'c') => {
    const p = jobPod(job, 'Failed');
    p.status = {
      phase: 'Failed',
      containerStatuses: [
        { name, ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode } } },
      ],
    };
    return p;
  };
  it.each([
    [
      'FailJob on exit code 42',
      [{ action: 'FailJob' as const, onExitCodes: { operator: 'In' as const, values: [42] } }],
      failed(42),
      'FailJob',
      true,
      true,
    ],
    [
      'Ignore on exit code 42',
      [{ action: 'Ignore' as const, onExitCodes: { operator: 'In' as const, values: [42] } }],
      failed(42),
      'Ignore',
      false,
      false,
    ],
    [
      'NotIn does not match a listed code',
      [{ action: 'FailJob' as const, onExitCodes: { operator: 'NotIn' as const, values: [42] } }],
      failed(42),
      undefined,
      true,
      false,
    ],
    [
      'container name filters',
      [
        {
          action: 'FailJob' as const,
          onExitCodes: { containerName: 'other', operator: 'In' as const, values: [42] },
        },
      ],
      failed(42),
      undefined,
      true,
      false,
    ],
    [
      'Count counts',
      [{ action: 'Count' as const, onExitCodes: { operator: 'In' as const, values: [1, 42] } }],
      failed(42),
      'Count',
      true,
      false,
    ],
  ])('%s', (_name, rules, pod, action, countFailed, failJob) => {
    const m = matchPodFailurePolicy(rules, pod);
    expect(m.action).toBe(action);
    expect(m.countFailed).toBe(countFailed);
    expect(m.failJobMessage !== undefined).toBe(failJob);
  });

  it('matches a pod condition (DisruptionTarget → Ignore) and names the rule in FailJob messages', () => {
    const p = failed(137);
    if (p.status) p.status.conditions = [{ type: 'DisruptionTarget', status: 'True' }];
    expect(
      matchPodFailurePolicy([{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }], p)
        .countFailed,
    ).toBe(false);
    const m = matchPodFailurePolicy(
      [
        { action: 'Count', onExitCodes: { operator: 'In', values: [1] } },
        { action: 'FailJob', onExitCodes: { operator: 'In', values: [137] } },
      ],
      p,
    );
    expect(m.failJobMessage).toBe(
      `Container c for pod default/${p.metadata.name} failed with exit code 137 matching FailJob rule at index 1`,
    );
  });

  it('fails the job with reason PodFailurePolicy in one sync, two steps (FailureTarget, then Failed)', () => {
    const j = newJob(2, 5, 6);
    j.spec.podFailurePolicy = {
      rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }],
    };
    const p = failed(42);
    const r = syncOnce(j, [p, jobPod(j, 'Running')]);
    expect(r.deleted).toBe(1);
    expect(r.status.conditions?.map((c) => [c.type, c.reason])).toEqual([
      ['FailureTarget', 'PodFailurePolicy'],
    ]);
    expect(r.status.failed).toBe(2);
  });

  it('does not count an ignored failure towards backoffLimit', () => {
    const j = newJob(1, 1, 0);
    j.spec.podFailurePolicy = {
      rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [42] } }],
    };
    const r = syncOnce(j, [failed(42)], { now: NOW + 60_000 });
    expect(r.status.failed ?? 0).toBe(0);
    expect(r.status.conditions ?? []).toEqual([]);
    expect(r.plan.createPods).toHaveLength(1);
  });
});

describe('successPolicy', () => {
  it.each([
    [[{ succeededIndexes: '0' }], 3, [0], 'Matched rules at index 0'],
    [[{ succeededIndexes: '0-2' }], 3, [0, 2], undefined],
    [[{ succeededIndexes: '0-2', succeededCount: 2 }], 3, [0, 2], 'Matched rules at index 0'],
    [[{ succeededCount: 5 }, { succeededCount: 2 }], 10, [3, 7], 'Matched rules at index 1'],
    [[{ succeededCount: 1 }], 10, [], undefined],
  ])('rules %j, completions %d, succeeded %j → %s', (rules, completions, succeeded, want) => {
    expect(matchSuccessPolicy(rules, completions, new Set(succeeded))).toBe(want);
  });

  it('meets the policy with SuccessCriteriaMet, deletes the rest without counting them failed, then Complete', () => {
    const j = newJob(3, 3, 6, 'Indexed');
    j.spec.successPolicy = { rules: [{ succeededIndexes: '0' }] };
    const r = syncOnce(j, [jobPod(j, 'Succeeded', 0), jobPod(j, 'Running', 1), jobPod(j, 'Running', 2)]);
    expect(r.deleted).toBe(2);
    expect(r.status.conditions?.map((c) => [c.type, c.reason, c.message])).toEqual([
      ['SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 0'],
    ]);
    expect(r.status.failed ?? 0).toBe(0);
    const next = structuredClone(j);
    next.status = r.status;
    const done = syncOnce(next, []);
    expect(done.write.finished).toMatchObject({ type: 'Complete', reason: 'SuccessPolicy' });
    expect(done.status.completionTime).toBeDefined();
  });
});
