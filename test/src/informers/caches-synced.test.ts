// cachesSynced: one value once every source has synced (marbles in virtual time), functions polled every 100 ms.
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { cachesSynced } from '../../../src/informers/caches-synced.ts';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const t = true;
const f = false;

describe('cachesSynced', () => {
  it('emits once, and completes, when its informers are all synced at the same moment', () => {
    scheduler().run(({ cold, expectObservable }) => {
      // pods is synced at 3 but not at 5 (a relist), when jobs syncs; both are at 7
      const pods = { hasSynced$: cold('f--t-f-t-f', { t, f }) };
      const jobs = { hasSynced$: cold('f----t----', { t, f }) };
      expectObservable(cachesSynced(pods, jobs)).toBe('-------(x|)', { x: undefined });
    });
  });

  it('never emits while one of them has not synced', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const pods = { hasSynced$: cold('t-------', { t, f }) };
      const jobs = { hasSynced$: cold('f-------', { t, f }) };
      expectObservable(cachesSynced(pods, jobs)).toBe('--------');
    });
  });

  it('polls a function every 100 ms on the given scheduler', () => {
    const sched = scheduler();
    sched.run(({ expectObservable }) => {
      let synced = false;
      sched.schedule(() => {
        synced = true;
      }, 250);
      expectObservable(cachesSynced({ scheduler: sched }, () => synced)).toBe('300ms (x|)', { x: undefined });
    });
  });

  it('emits at once with nothing to wait for', () => {
    scheduler().run(({ expectObservable }) => {
      expectObservable(cachesSynced()).toBe('(x|)', { x: undefined });
    });
  });
});
