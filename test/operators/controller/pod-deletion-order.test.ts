// comparePodsForDeletion and podsToDelete: upstream's TestSortingActivePodsWithRanks equality and inequality tables, in our words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import {
  comparePodsForDeletion,
  POD_DELETION_COST,
  podsToDelete,
} from '../../../operators/controller/pod-deletion-order.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const hours = (h: number) => NOW - h * 3600_000;
const MONTH_AGO = Date.parse('2026-10-25T12:00:00Z');

function pod(
  name: string,
  node: string,
  phase: string,
  ready: boolean,
  restarts: number,
  readySince: number | undefined,
  created: number | undefined,
  annotations?: Record<string, string>,
): Pod {
  return {
    metadata: {
      name,
      ...(created === undefined ? {} : { creationTimestamp: iso(created) }),
      ...(annotations ? { annotations } : {}),
    },
    spec: { containers: [], ...(node ? { nodeName: node } : {}) },
    status: {
      phase,
      ...(ready
        ? {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                ...(readySince === undefined ? {} : { lastTransitionTime: iso(readySince) }),
              },
            ],
            containerStatuses: [{ name: 'c', ready: true, restartCount: restarts, image: '', imageID: '' }],
          }
        : {}),
    },
  };
}

const unscheduled = pod('unscheduled', '', 'Pending', false, 0, undefined, undefined);
const scheduledPending = pod('pending', 'node', 'Pending', false, 0, undefined, undefined);
const unknownPhase = pod('unknown-phase', 'node', 'Unknown', false, 0, undefined, undefined);
const runningNotReady = pod('not-ready', 'node', 'Running', false, 0, undefined, undefined);
const readyNoTransition = pod(
  'ready-no-last-transition-time',
  'node',
  'Running',
  true,
  0,
  undefined,
  undefined,
);
const readyNow = pod('ready-now', 'node', 'Running', true, 0, NOW, NOW);
const readyThen = pod('ready-then', 'node', 'Running', true, 0, MONTH_AGO, MONTH_AGO);
const readyHighRestarts = pod('ready-high-restarts', 'node', 'Running', true, 9001, NOW, NOW);
const readyNowCreatedThen = pod('ready-now-created-then', 'node', 'Running', true, 0, NOW, MONTH_AGO);
const lowCost = pod('low-deletion-cost', 'node', 'Running', true, 0, NOW, MONTH_AGO, {
  [POD_DELETION_COST]: '10',
});
const highCost = pod('high-deletion-cost', 'node', 'Running', true, 0, NOW, MONTH_AGO, {
  [POD_DELETION_COST]: '100',
});
const unscheduled5h = pod('unscheduled-5-hours', '', 'Pending', false, 0, hours(5), hours(5));
const unscheduled8h = pod('unscheduled-8-hours', '', 'Pending', false, 0, hours(8), hours(8));
const ready2h = pod('ready-2-hours', '', 'Running', true, 0, hours(2), MONTH_AGO);
const ready5h = pod('ready-5-hours', '', 'Running', true, 0, hours(5), MONTH_AGO);
const ready8h = pod('ready-8-hours', '', 'Running', true, 0, hours(8), MONTH_AGO);

describe('comparePodsForDeletion', () => {
  it.each([
    [unscheduled, unscheduled],
    [scheduledPending, scheduledPending],
    [unknownPhase, unknownPhase],
    [runningNotReady, runningNotReady],
    [readyNowCreatedThen, readyNowCreatedThen],
    [readyNow, readyNow],
    [readyThen, readyThen],
    [readyHighRestarts, readyHighRestarts],
    // same logarithmic bucket of age
    [unscheduled5h, unscheduled8h],
    [ready5h, ready8h],
  ])('%# %s and %s are equivalent', (a, b) => {
    expect(comparePodsForDeletion({ pod: a, rank: 1 }, { pod: b, rank: 1 }, NOW)).toBe(0);
    expect(comparePodsForDeletion({ pod: b, rank: 1 }, { pod: a, rank: 1 }, NOW)).toBe(0);
  });

  it.each([
    [unscheduled, 1, scheduledPending, 2],
    [unscheduled, 2, scheduledPending, 1],
    [scheduledPending, 1, unknownPhase, 2],
    [unknownPhase, 1, runningNotReady, 2],
    [runningNotReady, 1, readyNoTransition, 1],
    [readyNoTransition, 1, readyNow, 1],
    [readyNow, 2, readyNoTransition, 1],
    [readyNow, 1, readyThen, 1],
    [readyNow, 2, readyThen, 1],
    [readyHighRestarts, 1, readyNow, 1],
    [readyNow, 2, readyHighRestarts, 1],
    [readyNow, 1, readyNowCreatedThen, 1],
    [readyNowCreatedThen, 2, readyNow, 1],
    [lowCost, 2, highCost, 1],
    [ready2h, 1, ready5h, 1],
  ])('%# deletes %s (rank %i) before %s (rank %i)', (lesser, lr, greater, gr) => {
    expect(comparePodsForDeletion({ pod: lesser, rank: lr }, { pod: greater, rank: gr }, NOW)).toBeLessThan(
      0,
    );
    expect(
      comparePodsForDeletion({ pod: greater, rank: gr }, { pod: lesser, rank: lr }, NOW),
    ).toBeGreaterThan(0);
  });

  it('without a reference time compares plain times: newer first', () => {
    expect(
      comparePodsForDeletion({ pod: unscheduled5h, rank: 1 }, { pod: unscheduled8h, rank: 1 }),
    ).toBeLessThan(0);
  });
});

describe('podsToDelete', () => {
  it('takes the pods on the most crowded nodes first, ranked by related active pods', () => {
    const on = (name: string, node: string) => pod(name, node, 'Running', true, 0, MONTH_AGO, MONTH_AGO);
    const mine = [on('a', 'n1'), on('b', 'n2'), on('c', 'n3')];
    const siblings = [on('s1', 'n2'), on('s2', 'n2'), on('s3', 'n3')];
    expect(podsToDelete(mine, [...mine, ...siblings], 2, NOW).map((p) => p.metadata.name)).toEqual([
      'b',
      'c',
    ]);
  });

  it('returns every pod without sorting when the diff covers them', () => {
    expect(podsToDelete([readyThen, unscheduled], [], 5, NOW)).toEqual([readyThen, unscheduled]);
  });
});
