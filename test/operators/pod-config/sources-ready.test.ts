// sourcesReady: marble tests (five questions) of the all-sources-seen signal.
import { Observable, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { sourcesReady } from '../../../operators/pod-config/sources-ready.ts';
import type { PodUpdate } from '../../../operators/pod-config/types.ts';
import { testScheduler } from '../../../src/testing/marbles.ts';

const u = (source: string): PodUpdate => ({ op: 'ADD', source, pods: [] });

describe('sourcesReady', () => {
  it('emits true once every source has been heard from (the doc diagram)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const updates = cold('-f--h--|', { f: u('file'), h: u('http') });
      expectObservable(updates.pipe(sourcesReady(['file', 'http']))).toBe('----(t|)', { t: true });
    });
  });

  it('ignores sources it was not told about', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const updates = cold('-x-f-|', { x: u('other'), f: u('file') });
      expectObservable(updates.pipe(sourcesReady(['file']))).toBe('---(t|)', { t: true });
    });
  });

  it('passes an error through before readiness', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<PodUpdate>('-#').pipe(sourcesReady(['file']))).toBe('-#');
    });
  });

  it('completes without a signal when updates end first, and is ready at once with no sources', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<PodUpdate>('--|').pipe(sourcesReady(['file']))).toBe('--|');
      expectObservable(cold<PodUpdate>('--|').pipe(sourcesReady([]))).toBe('(t|)', { t: true });
    });
  });

  it('unsubscribes early, and unsubscribes the updates once ready', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const updates = cold('-f---h-', { f: u('file'), h: u('http') });
      expectObservable(updates.pipe(sourcesReady(['file', 'http'])), '^--!').toBe('---');
      expectSubscriptions(updates.subscriptions).toBe('^--!');
      const more = cold('-f-h--', { f: u('file'), h: u('http') });
      expectObservable(more.pipe(sourcesReady(['file']))).toBe('-(t|)', { t: true });
      expectSubscriptions(more.subscriptions).toBe('^!');
    });
  });

  it('works with a synchronous source followed by take', () => {
    const seen: boolean[] = [];
    new Observable<PodUpdate>((s) => {
      s.next(u('a'));
      s.next(u('b'));
    })
      .pipe(sourcesReady(['a', 'b']), take(1))
      .subscribe((v) => seen.push(v));
    expect(seen).toEqual([true]);
  });
});
