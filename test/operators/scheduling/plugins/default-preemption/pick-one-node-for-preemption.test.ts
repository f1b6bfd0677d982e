// pickOneNodeForPreemption's tie-breakers, eligibility and the args: cases from upstream's preemption tests, in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../../../operators/errors.ts';
import { newStatus } from '../../../../../operators/scheduling/framework/status.ts';
import {
  defaultDefaultPreemptionArgs,
  validateDefaultPreemptionArgs,
} from '../../../../../operators/scheduling/plugins/default-preemption/default-preemption-args.ts';
import {
  NOT_ELIGIBLE_NEVER,
  NOT_ELIGIBLE_TERMINATING,
  podEligibleToPreemptOthers,
} from '../../../../../operators/scheduling/plugins/default-preemption/eligibility.ts';
import {
  type Candidate,
  pickOneNodeForPreemption,
} from '../../../../../operators/scheduling/plugins/default-preemption/pick-one-node-for-preemption.ts';
import { makeNode, makePod, TestSnapshot } from './cluster.ts';

const at = (year: number) => `${year}-01-01T00:00:00Z`;
const v = (priority: number, year = 2020) =>
  makePod(`p${priority}-${year}`, { priority, startTime: at(year) });
const cand = (name: string, victims: Pod[], numPdbViolations = 0): Candidate => ({
  name,
  victims,
  numPdbViolations,
});

describe('pickOneNodeForPreemption', () => {
  it.each<{ name: string; candidates: Candidate[]; want: string | string[] }>([
    { name: 'a single candidate', candidates: [cand('m1', [v(1)])], want: 'm1' },
    {
      name: 'fewest PDB violations wins first',
      candidates: [cand('m1', [v(1)], 2), cand('m2', [v(5), v(5)], 1), cand('m3', [v(9)], 3)],
      want: 'm2',
    },
    {
      name: 'then the lowest highest-victim priority',
      candidates: [cand('m1', [v(5), v(1)]), cand('m2', [v(3), v(3), v(3)]), cand('m3', [v(4)])],
      want: 'm2',
    },
    {
      name: 'same highest priority: the smallest sum of priorities',
      candidates: [cand('m1', [v(5), v(3)]), cand('m2', [v(5), v(1)]), cand('m3', [v(5), v(2)])],
      want: 'm2',
    },
    {
      name: 'same highest priority and sum: the fewest victims',
      candidates: [cand('m1', [v(5), v(0), v(0)]), cand('m2', [v(5)]), cand('m3', [v(5), v(0)])],
      want: 'm2',
    },
    {
      name: 'the sum is of priority + 2^31, so negative priorities still add up: fewer victims wins',
      candidates: [cand('m1', [v(5), v(-5)]), cand('m2', [v(5)])],
      want: 'm2',
    },
    {
      name: 'non-overlapping criteria: lowest highest priority decides before sum and count',
      candidates: [cand('m1', [v(10)]), cand('m2', [v(9), v(9), v(9)]), cand('m3', [v(10), v(0)])],
      want: 'm2',
    },
    {
      name: 'same priorities and counts: the node whose victims started latest',
      candidates: [cand('m1', [v(5, 2019)]), cand('m2', [v(5, 2022)]), cand('m3', [v(5, 2020)])],
      want: 'm2',
    },
    {
      name: 'start time counts only the highest-priority victims',
      candidates: [cand('m1', [v(5, 2021), v(1, 2010)]), cand('m2', [v(5, 2020), v(1, 2023)])],
      want: 'm1',
    },
    {
      name: 'a complete tie: the first candidate',
      candidates: [cand('m1', [v(5)]), cand('m2', [v(5)])],
      want: 'm1',
    },
  ])('$name', ({ candidates, want }) => {
    expect(pickOneNodeForPreemption(candidates, 0)?.name).toBe(want);
  });

  it('no candidates: undefined', () => {
    expect(pickOneNodeForPreemption([], 0)).toBeUndefined();
  });

  it('a victim without a start time counts as started now', () => {
    const notStarted = makePod('fresh', { priority: 5 });
    const now = Date.parse(at(2030));
    expect(pickOneNodeForPreemption([cand('m1', [v(5, 2025)]), cand('m2', [notStarted])], now)?.name).toBe(
      'm2',
    );
  });
});

describe('podEligibleToPreemptOthers', () => {
  const terminatingByPreemption = (name: string, priority: number) =>
    makePod(name, {
      node: 'node1',
      priority,
      deleting: true,
      conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }],
    });
  it.each<{
    name: string;
    pod: Pod;
    pods: Pod[];
    nominatedStatus?: ReturnType<typeof newStatus>;
    want: true | string;
  }>([
    { name: 'a pod with the default policy', pod: makePod('p', { priority: 10 }), pods: [], want: true },
    {
      name: 'preemptionPolicy Never',
      pod: makePod('p', { priority: 10, preemptionPolicy: 'Never' }),
      pods: [],
      want: NOT_ELIGIBLE_NEVER,
    },
    {
      name: 'a lower-priority pod still terminating by preemption on the nominated node',
      pod: makePod('p', { priority: 10, nominated: 'node1' }),
      pods: [terminatingByPreemption('victim', 1)],
      want: NOT_ELIGIBLE_TERMINATING,
    },
    {
      name: 'the terminating pod has a higher priority: eligible',
      pod: makePod('p', { priority: 10, nominated: 'node1' }),
      pods: [terminatingByPreemption('victim', 20)],
      want: true,
    },
    {
      name: 'the terminating pod was not preempted by the scheduler: eligible',
      pod: makePod('p', { priority: 10, nominated: 'node1' }),
      pods: [makePod('victim', { node: 'node1', priority: 1, deleting: true })],
      want: true,
    },
    {
      name: 'the nominated node is now UnschedulableAndUnresolvable: eligible again',
      pod: makePod('p', { priority: 10, nominated: 'node1' }),
      pods: [terminatingByPreemption('victim', 1)],
      nominatedStatus: newStatus('UnschedulableAndUnresolvable', 'gone'),
      want: true,
    },
  ])('$name', ({ pod, pods, nominatedStatus, want }) => {
    const out = podEligibleToPreemptOthers(pod, new TestSnapshot([makeNode('node1')], pods), nominatedStatus);
    expect(out.eligible ? true : out.message).toBe(want);
  });
});

describe('DefaultPreemptionArgs', () => {
  it.each<{ pct?: number; abs?: number; field?: string }>([
    { pct: 10, abs: 100 },
    { pct: 0, abs: 1 },
    { pct: 100, abs: 0 },
    { pct: -1, abs: 100, field: 'args.minCandidateNodesPercentage' },
    { pct: 101, abs: 100, field: 'args.minCandidateNodesPercentage' },
    { pct: 10, abs: -1, field: 'args.minCandidateNodesAbsolute' },
    { pct: 0, abs: 0, field: 'args.minCandidateNodesPercentage' },
  ])('percentage $pct, absolute $abs', ({ pct, abs, field }) => {
    const run = () =>
      validateDefaultPreemptionArgs({ minCandidateNodesPercentage: pct, minCandidateNodesAbsolute: abs });
    if (!field) {
      expect(run).not.toThrow();
      return;
    }
    expect(run).toThrow(InvalidConfigError);
    expect(run).toThrow(`${field}: Invalid value`);
  });

  it('defaults to 10% and at least 100', () => {
    expect(defaultDefaultPreemptionArgs()).toEqual({
      minCandidateNodesPercentage: 10,
      minCandidateNodesAbsolute: 100,
    });
  });
});
