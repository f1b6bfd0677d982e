// Tests of FailedPodsBackoff: 1 s doubling to 15 min per daemon set and node, restarting after a quiet spell, as client-go's flowcontrol.Backoff that upstream's daemon set controller uses.
import { describe, expect, it } from 'vitest';
import { FailedPodsBackoff } from '../../../../operators/controller/daemonset/failed-pods-backoff.ts';

describe('FailedPodsBackoff', () => {
  it.each<[string, number[], number, number]>([
    ['never attempted: not backing off', [], 0, 0],
    ['one attempt: 1 s', [0], 400, 600],
    ['two attempts: 2 s from the second', [0, 1_000], 1_500, 1_500],
    ['three attempts: 4 s', [0, 1_000, 3_000], 3_000, 4_000],
    ['past the delay: free again', [0], 1_000, 0],
    ['capped at 15 min', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 12, 15 * 60_000],
    ['quiet for twice the maximum: starts again at 1 s', [0, 1_000, 31 * 60_000], 31 * 60_000, 1_000],
  ])('%s', (_name, attempts, at, left) => {
    const b = new FailedPodsBackoff();
    for (const t of attempts) b.next('default/ds/n1', t);
    expect(b.inBackoff('default/ds/n1', at)).toBe(left);
  });

  it('keeps keys apart and forgets quiet ones', () => {
    const b = new FailedPodsBackoff();
    b.next('default/ds/n1', 0);
    expect(b.inBackoff('default/ds/n2', 0)).toBe(0);
    b.gc(31 * 60_000);
    b.next('default/ds/n1', 31 * 60_000);
    expect(b.inBackoff('default/ds/n1', 31 * 60_000)).toBe(1_000);
  });
});
