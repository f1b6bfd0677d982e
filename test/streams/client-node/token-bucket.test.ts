// Tests the write rate limiter: bursts, the refill rate, returned reservations and validation.
import { merge, switchMap } from 'rxjs';
import { map } from 'rxjs/operators';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { tokenBucket } from '../../../streams/client-node/token-bucket.ts';

const ts = () => new TestScheduler((a, b) => expect(a).toEqual(b));

describe('tokenBucket', () => {
  it('qps 1, burst 2: two at once, then one per second (the doc diagram)', () => {
    const s = ts();
    s.run(({ expectObservable }) => {
      const bucket = tokenBucket({ qps: 1, burst: 2, scheduler: s });
      const take = (v: string) => bucket.take().pipe(map(() => v));
      expectObservable(merge(take('a'), take('b'), take('c'))).toBe('(ab) 996ms (c|)');
    });
  });

  it('client-go defaults qps 5 burst 10: the 11th write waits 200 ms, the 12th 400 ms', () => {
    const s = ts();
    s.run(({ expectObservable }) => {
      const bucket = tokenBucket({ qps: 5, burst: 10, scheduler: s });
      const times: number[] = [];
      const all = Array.from({ length: 12 }, () => bucket.take().pipe(map(() => times.push(s.now()))));
      expectObservable(merge(...all).pipe(map(() => 'x'))).toBe('(xxxxxxxxxx) 188ms x 199ms (x|)');
    });
  });

  it('refills while idle, up to the burst', () => {
    const s = ts();
    s.run(({ cold, expectObservable }) => {
      const bucket = tokenBucket({ qps: 10, burst: 2, scheduler: s });
      const later = cold('5000ms x').pipe(
        switchMap(() => merge(bucket.take(), bucket.take(), bucket.take())),
      );
      merge(bucket.take(), bucket.take()).subscribe();
      expectObservable(later.pipe(map(() => 'y'))).toBe('5000ms (yy) 96ms y');
    });
  });

  it('an abandoned wait returns its reservation', () => {
    const s = ts();
    const granted: number[] = [];
    s.run(() => {
      const bucket = tokenBucket({ qps: 1, burst: 1, scheduler: s });
      bucket.take().subscribe(() => granted.push(s.now()));
      const waiting = bucket.take().subscribe(() => granted.push(-1));
      s.schedule(() => waiting.unsubscribe(), 100);
      s.schedule(() => bucket.take().subscribe(() => granted.push(Math.round(s.now()))), 200);
    });
    // without the returned reservation the third permit would come at 2 s
    expect(granted).toEqual([0, 1_000]);
  });

  it('Infinity disables limiting; bad settings are rejected naming the field', () => {
    const s = ts();
    s.run(({ expectObservable }) => {
      const bucket = tokenBucket({ qps: Number.POSITIVE_INFINITY, burst: 1, scheduler: s });
      expectObservable(merge(bucket.take(), bucket.take()).pipe(map(() => 'x'))).toBe('(xx|)');
    });
    expect(() => tokenBucket({ qps: 0, burst: 1 })).toThrow(InvalidConfigError);
    expect(() => tokenBucket({ qps: 1, burst: 0 })).toThrow(/burst/);
  });
});
