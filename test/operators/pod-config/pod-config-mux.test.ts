// podConfigMux: the cases of mux_test.go plus marble tests of named sources merged through one serial podConfig.
import { map, NEVER, Observable, of, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { podConfigMux } from '../../../operators/pod-config/pod-config-mux.ts';
import type { Pod, PodUpdate } from '../../../operators/pod-config/types.ts';
import { testScheduler } from '../../../src/testing/marbles.ts';
import { validPod } from './pod-builders.ts';

const summary = (u: PodUpdate) => `${u.op} ${u.source} [${u.pods.map((p) => p.metadata?.name).join(',')}]`;
const p = validPod('p', 'ns');
const q = validPod('q', 'ns');

describe('podConfigMux', () => {
  it('merges the sets of two sources (the doc diagram)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const file = cold<Pod[]>('-a------|', { a: [p] });
      const http = cold<Pod[]>('---b----|', { b: [q] });
      expectObservable(podConfigMux({ file, http }).pipe(map(summary))).toBe('-A-B----|', {
        A: 'ADD file [p]',
        B: 'ADD http [q]',
      });
    });
  });

  it('hands each source its own state: the same pod in two sources is reported for each', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const one = cold<Pod[]>('-a-c', { a: [p], c: [] });
      const two = cold<Pod[]>('--b-', { b: [p] });
      expectObservable(podConfigMux({ one, two }).pipe(map(summary))).toBe('-abc', {
        a: 'ADD one [p]',
        b: 'ADD two [p]',
        c: 'REMOVE one [p]',
      });
    });
  });

  it('stays quiet on periodic re-reads of an unchanged set and reports only what changed', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const changed = { ...p, spec: { ...p.spec, hostNetwork: true } };
      const file = cold<Pod[]>('a 19ms a 19ms a 19ms b 19ms b', { a: [p], b: [changed, q] });
      expectObservable(podConfigMux({ file }).pipe(map(summary))).toBe('a 59ms (bc)', {
        a: 'ADD file [p]',
        b: 'ADD file [q]',
        c: 'UPDATE file [p]',
      });
    });
  });

  it('passes a source error through', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const one = cold<Pod[]>('-a-#', { a: [p] });
      expectObservable(podConfigMux({ one }).pipe(map(summary))).toBe('-a-#', { a: 'ADD one [p]' });
    });
  });

  it('completes without updates when every source is empty, and with no sources at all', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(podConfigMux({ one: cold<Pod[]>('--|'), two: cold<Pod[]>('---|') })).toBe('---|');
      expectObservable(podConfigMux({})).toBe('|');
    });
  });

  it('unsubscribes every source early', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const one = cold<Pod[]>('-a----', { a: [p] });
      const two = cold<Pod[]>('----b-', { b: [q] });
      expectObservable(podConfigMux({ one, two }).pipe(map(summary)), '^--!').toBe('-a-', {
        a: 'ADD one [p]',
      });
      expectSubscriptions(one.subscriptions).toBe('^--!');
      expectSubscriptions(two.subscriptions).toBe('^--!');
    });
  });

  it('works with synchronous sources followed by take', () => {
    const seen: string[] = [];
    podConfigMux({ one: of([p], []), two: of([q]) })
      .pipe(map(summary), take(2))
      .subscribe((v) => seen.push(v));
    expect(seen).toEqual(['ADD one [p]', 'REMOVE one [p]']);
  });

  it('refuses an empty source name, naming the input', () => {
    expect(() => podConfigMux({ '': NEVER })).toThrow(/sources/);
  });

  it('feeds each update to the merge under its own source name (TestMergeInvoked, TestSimultaneousMerge)', () => {
    const seen: string[] = [];
    podConfigMux({
      one: new Observable<Pod[]>((s) => s.next([p])),
      two: new Observable<Pod[]>((s) => s.next([q])),
    }).subscribe((u) => seen.push(summary(u)));
    expect(seen.sort()).toEqual(['ADD one [p]', 'ADD two [q]']);
  });
});
