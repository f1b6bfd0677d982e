// CrashLoopBackOff: the kubelet's restart backoff (flowcontrol.Backoff at 10 s → 5 min) and its message.
import { describe, expect, it } from 'vitest';
import {
  CrashLoopBackOff,
  crashLoopKey,
  crashLoopMessage,
  formatGoDuration,
} from '../../../operators/kubelet/crash-loop-backoff.ts';

describe('CrashLoopBackOff', () => {
  it('doubles from 10 s up to 5 min', () => {
    const b = new CrashLoopBackOff();
    const seen: number[] = [];
    let now = 0;
    for (let i = 0; i < 8; i++) {
      b.next('k', now);
      seen.push(b.get('k'));
      now += b.get('k');
    }
    expect(seen).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  });

  it('is in backoff until the delay since the container finished has passed', () => {
    const b = new CrashLoopBackOff();
    b.next('k', 1_000);
    expect(b.isInBackOffSince('k', 1_000, 5_000)).toBe(true);
    expect(b.isInBackOffSince('k', 1_000, 11_000)).toBe(false);
    expect(b.isInBackOffSince('other', 1_000, 2_000)).toBe(false);
  });

  it('starts over after a container ran for more than 10 minutes', () => {
    const b = new CrashLoopBackOff();
    b.next('k', 0);
    b.next('k', 10_000);
    expect(b.get('k')).toBe(20_000);
    const finished = 10_000 + 600_001;
    expect(b.isInBackOffSince('k', finished, finished + 1)).toBe(false);
    b.next('k', finished + 1);
    expect(b.get('k')).toBe(10_000);
  });

  it('forgets a pod and collects old entries', () => {
    const b = new CrashLoopBackOff();
    b.next(crashLoopKey({ name: 'p', namespace: 'n', uid: 'u' }, 'c', 'h'), 0);
    b.next('q_n_v_c_h', 0);
    b.forgetPrefix('p_n_u_');
    expect(b.size).toBe(1);
    b.gc(600_001);
    expect(b.size).toBe(0);
  });

  it.each([
    [10_000, '10s'],
    [300_000, '5m0s'],
    [160_000, '2m40s'],
  ])('formats %i ms as %s', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
  });

  it('writes the kubelet message', () => {
    expect(crashLoopMessage(10_000, 'app', { name: 'web', namespace: 'default', uid: 'u1' })).toBe(
      'back-off 10s restarting failed container=app pod=web_default(u1)',
    );
  });
});
