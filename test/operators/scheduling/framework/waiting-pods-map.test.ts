// Waiting pods at Permit: allow, reject and per-plugin timeouts in virtual time (upstream's waiting_pods_map.go behaviour).
import { describe, expect, it } from 'vitest';
import {
  formatGoDuration,
  MAX_PERMIT_TIMEOUT_MS,
  WaitingPod,
  WaitingPodsMap,
} from '../../../../operators/scheduling/framework/waiting-pods-map.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { makePod } from './fixtures.ts';

describe('formatGoDuration', () => {
  it.each<[number, string]>([
    [0, '0s'],
    [500, '500ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [10_000, '10s'],
    [90_000, '1m30s'],
    [MAX_PERMIT_TIMEOUT_MS, '15m0s'],
    [3_600_000, '1h0m0s'],
  ])('%d ms is %s', (ms, want) => {
    expect(formatGoDuration(ms)).toBe(want);
  });
});

describe('WaitingPod', () => {
  const pod = makePod('p');

  it('each plugin has its own timer; the first to fire rejects', async () => {
    const clock = new VirtualClock();
    const wp = new WaitingPod(
      pod,
      new Map([
        ['slow', 10_000],
        ['fast', 2_000],
      ]),
      clock.scheduler,
    );
    clock.advance(1_999);
    expect(wp.settled).toBe(false);
    clock.advance(1);
    expect(await wp.done).toEqual({
      code: 'Unschedulable',
      reasons: ['rejected due to timeout after waiting 2s at plugin fast'],
      plugin: 'fast',
    });
    expect(clock.pending).toBe(0);
  });

  it('an allowed plugin’s timer no longer fires', async () => {
    const clock = new VirtualClock();
    const wp = new WaitingPod(
      pod,
      new Map([
        ['a', 1_000],
        ['b', 5_000],
      ]),
      clock.scheduler,
    );
    wp.allow('a');
    expect(wp.pendingPlugins()).toEqual(['b']);
    clock.advance(4_999);
    expect(wp.settled).toBe(false);
    wp.allow('b');
    expect(await wp.done).toMatchObject({ code: 'Success' });
    expect(clock.pending).toBe(0);
  });

  it('a negative timeout fires at once; a huge one is capped at 15 minutes', async () => {
    const clock = new VirtualClock();
    const now = new WaitingPod(pod, new Map([['a', -5]]), clock.scheduler);
    clock.advance(0);
    expect(now.settled).toBe(true);
    const capped = new WaitingPod(pod, new Map([['a', 10 * MAX_PERMIT_TIMEOUT_MS]]), clock.scheduler);
    clock.advance(MAX_PERMIT_TIMEOUT_MS);
    expect(await capped.done).toMatchObject({
      reasons: ['rejected due to timeout after waiting 15m0s at plugin a'],
    });
  });

  it('the map finds, lists and removes waiting pods', () => {
    const clock = new VirtualClock();
    const m = new WaitingPodsMap();
    const wp = new WaitingPod(pod, new Map([['a', 1]]), clock.scheduler);
    m.add('uid-p', wp);
    expect(m.get('uid-p')).toBe(wp);
    const seen: string[] = [];
    m.forEach((w) => {
      seen.push(w.pod.metadata.name!);
    });
    expect(seen).toEqual(['p']);
    m.remove('uid-p');
    expect(m.size).toBe(0);
  });
});
