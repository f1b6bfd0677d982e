// Tests of VirtualClock: timers run in time order when advanced, including ones scheduled meanwhile.
import { interval, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';

describe('VirtualClock', () => {
  it('runs due timers in order and stops at the target time', () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    timer(300, clock.scheduler).subscribe(() => seen.push(`b@${clock.now()}`));
    timer(100, clock.scheduler).subscribe(() => seen.push(`a@${clock.now()}`));
    clock.advance(200);
    expect(seen).toEqual(['a@100']);
    expect(clock.now()).toBe(200);
    expect(clock.pending).toBe(1);
    clock.advance(100);
    expect(seen).toEqual(['a@100', 'b@300']);
    expect(clock.pending).toBe(0);
  });

  it('runs timers scheduled by timers within the same advance', () => {
    const clock = new VirtualClock();
    const ticks: number[] = [];
    interval(1000, clock.scheduler)
      .pipe(take(3))
      .subscribe(() => ticks.push(clock.now()));
    clock.advance(10_000);
    expect(ticks).toEqual([1000, 2000, 3000]);
  });

  it('treats a negative advance as zero', () => {
    const clock = new VirtualClock();
    clock.advance(-5);
    expect(clock.now()).toBe(0);
  });
});
