// Tables ported (in our own words) from kube-scheduler's backoff_queue_test.go: durations, completed pops, window ordering.
import { describe, expect, it } from 'vitest';
import { BackoffQueue } from '../../../../operators/scheduling/queue/backoff-queue.ts';
import { prioritySortLess } from '../../../../operators/scheduling/queue/priority-queue.ts';
import { QueuedPodInfo } from '../../../../operators/scheduling/queue/queued-pod-info.ts';
import { pod } from './fixtures.ts';

function info(
  name: string,
  o: {
    timestamp?: number;
    unschedulable?: number;
    errors?: number;
    plugins?: string[];
    priority?: number;
  } = {},
) {
  const p = new QueuedPodInfo(pod(name, { priority: o.priority }), o.timestamp ?? 0, o.plugins ?? []);
  p.unschedulableCount = o.unschedulable ?? 0;
  p.consecutiveErrorsCount = o.errors ?? 0;
  return p;
}

describe('BackoffQueue backoffDuration', () => {
  it.each([
    { name: 'no failures: no backoff', initial: 1, max: 32, unschedulable: 0, errors: 0, want: 0 },
    {
      name: 'first rejection: the initial backoff',
      initial: 1000,
      max: 10_000,
      unschedulable: 1,
      errors: 0,
      want: 1000,
    },
    { name: 'doubles per rejection', initial: 1000, max: 10_000, unschedulable: 4, errors: 0, want: 8000 },
    { name: 'capped at the maximum', initial: 1000, max: 10_000, unschedulable: 5, errors: 0, want: 10_000 },
    { name: 'capped after many attempts', initial: 1, max: 32, unschedulable: 16, errors: 0, want: 32 },
    {
      name: 'no overflow at 2^31',
      initial: 1,
      max: 2 ** 31 - 1,
      unschedulable: 32,
      errors: 0,
      want: 2 ** 31 - 1,
    },
    {
      name: 'no overflow at 2^53',
      initial: 1,
      max: Number.MAX_SAFE_INTEGER,
      unschedulable: 64,
      errors: 0,
      want: Number.MAX_SAFE_INTEGER,
    },
    {
      name: 'errors count instead of rejections when above 0',
      initial: 1000,
      max: 10_000,
      unschedulable: 4,
      errors: 1,
      want: 1000,
    },
    { name: 'errors alone double too', initial: 1000, max: 10_000, unschedulable: 0, errors: 3, want: 4000 },
    { name: 'max 0 turns backoff off', initial: 1000, max: 0, unschedulable: 3, errors: 0, want: 0 },
  ])('$name', ({ initial, max, unschedulable, errors, want }) => {
    const bq = new BackoffQueue({
      now: () => 0,
      podInitialBackoffMs: initial,
      podMaxBackoffMs: max,
      less: prioritySortLess,
    });
    expect(bq.backoffDuration(info('p', { unschedulable, errors }))).toBe(want);
  });
});

describe('BackoffQueue popAllBackoffCompleted', () => {
  // Now is 10 s; pods 0 and 2 failed 2 s ago (done), pods 1 and 3 fail 1 s from now (still waiting).
  const now = 10_000;
  const make = () => ({
    pod0: info('pod0', { timestamp: now - 2000, unschedulable: 1, plugins: ['plugin'] }),
    pod1: info('pod1', { timestamp: now + 1000, unschedulable: 1, plugins: ['plugin'] }),
    pod2: info('pod2', { timestamp: now - 2000, errors: 1 }),
    pod3: info('pod3', { timestamp: now + 1000, errors: 1 }),
  });
  it.each([
    { name: 'both heaps empty: nothing moves', inBackoff: [], want: [] },
    { name: 'only podBackoffQ: the done pod moves', inBackoff: ['pod0', 'pod1'], want: ['pod0'] },
    { name: 'only podErrorBackoffQ: the done pod moves', inBackoff: ['pod2', 'pod3'], want: ['pod2'] },
    {
      name: 'both heaps: the done pods move, regular first',
      inBackoff: ['pod0', 'pod1', 'pod2', 'pod3'],
      want: ['pod0', 'pod2'],
    },
    { name: 'both heaps, all done', inBackoff: ['pod0', 'pod2'], want: ['pod0', 'pod2'] },
    { name: 'both heaps, none done', inBackoff: ['pod1', 'pod3'], want: [] },
  ] as const)('$name', ({ inBackoff, want }) => {
    for (const popFromBackoffQ of [true, false]) {
      const pods = make();
      const bq = new BackoffQueue({ now: () => now, less: prioritySortLess, popFromBackoffQ });
      for (const name of inBackoff) bq.add(pods[name]);
      expect(bq.popAllBackoffCompleted().map((p) => p.pod.metadata.name)).toEqual(want);
      expect(bq.length).toBe(inBackoff.length - want.length);
    }
  });
});

describe('BackoffQueue ordering', () => {
  const now = 100_000;
  const make = () => [
    info('pod0', { timestamp: now, unschedulable: 1, plugins: ['p'], priority: 1 }),
    info('pod1', { timestamp: now - 1000, unschedulable: 1, plugins: ['p'], priority: 1 }),
    info('pod2', { timestamp: now - 2000 + 1, unschedulable: 1, plugins: ['p'], priority: 2 }),
    info('pod3', { timestamp: now - 2000, unschedulable: 1, plugins: ['p'], priority: 1 }),
    info('pod4', { timestamp: now - 2000, unschedulable: 1, plugins: ['p'], priority: 2 }),
    info('pod5', { timestamp: now - 3000, unschedulable: 1, plugins: ['p'], priority: 1 }),
  ];

  it('orders pods of the same whole-second window by priority when popping from backoffQ', () => {
    const bq = new BackoffQueue({ now: () => now, less: prioritySortLess, popFromBackoffQ: true });
    for (const p of make()) bq.add(p);
    expect(bq.popAllBackoffCompleted().map((p) => p.pod.metadata.name)).toEqual([
      'pod5',
      'pod4',
      'pod2',
      'pod3',
    ]);
  });

  it('orders by exact expiry only when popping from backoffQ is off', () => {
    const bq = new BackoffQueue({ now: () => now, less: prioritySortLess, popFromBackoffQ: false });
    for (const p of make()) bq.add(p);
    const got = bq.popAllBackoffCompleted().map((p) => p.pod.metadata.name);
    // pod3 and pod4 expire at the same instant: either may come first.
    expect(got[0]).toBe('pod5');
    expect(new Set(got.slice(1, 3))).toEqual(new Set(['pod3', 'pod4']));
    expect(got[3]).toBe('pod2');
    expect(got).toHaveLength(4);
  });

  it('a pod whose expiry is in the current window is still backing off; no count means never', () => {
    let t = 5_400;
    const bq = new BackoffQueue({ now: () => t, less: prioritySortLess });
    const p = info('p', { timestamp: 4_000, unschedulable: 1, plugins: ['x'] });
    expect(bq.backoffTime(p)).toBe(5_000);
    expect(bq.isPodBackingoff(p)).toBe(true);
    t = 6_000;
    expect(bq.isPodBackingoff(p)).toBe(false);
    expect(bq.isPodBackingoff(info('fresh', { timestamp: t }))).toBe(false);
  });

  it('moves a pod between the heaps by its rejectors, keeping it in one', () => {
    const bq = new BackoffQueue({ now: () => 0, less: prioritySortLess });
    const p = info('p', { errors: 1 });
    bq.add(p);
    expect(bq.lenBackoff()).toBe(0);
    p.unschedulablePlugins.add('x');
    bq.add(p);
    expect([bq.lenBackoff(), bq.length]).toEqual([1, 1]);
    expect(bq.update('ns/p', pod('p', { priority: 3 }))?.pod.spec.priority).toBe(3);
    expect(bq.delete('ns/p')).toBe(p);
    expect(bq.length).toBe(0);
  });
});
