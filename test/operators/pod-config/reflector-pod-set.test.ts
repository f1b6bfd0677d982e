// reflectorPodSet: apiserver_test.go's cases over reflector events, as marble tests (five questions).
import { map, Observable, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { reflectorPodSet } from '../../../operators/pod-config/reflector-pod-set.ts';
import type { Pod } from '../../../operators/pod-config/types.ts';
import type { ReflectorEvent } from '../../../operators/types.ts';
import { testScheduler } from '../../../src/testing/marbles.ts';

const pod = (name: string, image: string, namespace?: string): Pod => ({
  metadata: { name, ...(namespace ? { namespace } : {}) },
  spec: { containers: [{ image }] },
});
const images = (pods: Pod[]) =>
  pods
    .map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name}=${p.spec?.containers?.[0]?.image}`)
    .sort()
    .join(' ');

const p1v1 = pod('p', 'image/one');
const p1v2 = pod('p', 'image/two');
const p2 = pod('q', 'image/blah');

describe('reflectorPodSet', () => {
  it('emits the full set after a list, an add, a modify and deletes (TestNewSourceApiserver_UpdatesAndMultiplePods)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold<ReflectorEvent<Pod>>('-r-a-u-d-e-b-|', {
        r: { type: 'Replace', items: [p1v1], resourceVersion: '1' },
        a: { type: 'Added', object: p2 },
        u: { type: 'Updated', object: p1v2 },
        d: { type: 'Deleted', object: p1v2 },
        e: { type: 'Deleted', object: p2 },
        b: { type: 'Bookmark', resourceVersion: '9' },
      });
      expectObservable(events.pipe(reflectorPodSet(), map(images))).toBe('-r-a-u-d-e---|', {
        r: '/p=image/one',
        a: '/p=image/one /q=image/blah',
        u: '/p=image/two /q=image/blah',
        d: '/q=image/blah',
        e: '',
      });
    });
  });

  it('keeps pods of one name in two namespaces apart (TestNewSourceApiserver_TwoNamespacesSameName)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const one = pod('p', 'image/one', 'one');
      const two = pod('p', 'image/blah', 'two');
      const events = cold<ReflectorEvent<Pod>>('-r-d', {
        r: { type: 'Replace', items: [one, two], resourceVersion: '1' },
        d: { type: 'Deleted', object: one },
      });
      expectObservable(
        events.pipe(
          reflectorPodSet(),
          map((pods) => pods.length),
        ),
      ).toBe('-r-d', { r: 2, d: 1 });
    });
  });

  it('emits an empty set for an empty first list (TestNewSourceApiserverInitialEmptySendsEmptyPodUpdate)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold<ReflectorEvent<Pod>>('-r', {
        r: { type: 'Replace', items: [], resourceVersion: '1' },
      });
      expectObservable(events.pipe(reflectorPodSet())).toBe('-r', { r: [] });
    });
  });

  it('replaces the whole set on a relist', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold<ReflectorEvent<Pod>>('-r-s', {
        r: { type: 'Replace', items: [p1v1, p2], resourceVersion: '1' },
        s: { type: 'Replace', items: [p1v2], resourceVersion: '5' },
      });
      expectObservable(events.pipe(reflectorPodSet(), map(images))).toBe('-r-s', {
        r: '/p=image/one /q=image/blah',
        s: '/p=image/two',
      });
    });
  });

  it('passes errors through, emits nothing for an empty source, and unsubscribes early', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      expectObservable(cold<ReflectorEvent<Pod>>('--#').pipe(reflectorPodSet())).toBe('--#');
      expectObservable(cold<ReflectorEvent<Pod>>('--|').pipe(reflectorPodSet())).toBe('--|');
      const events = cold<ReflectorEvent<Pod>>('-a---a', { a: { type: 'Added', object: p2 } });
      expectObservable(events.pipe(reflectorPodSet(), map(images)), '^--!').toBe('-a-', {
        a: '/q=image/blah',
      });
      expectSubscriptions(events.subscriptions).toBe('^--!');
    });
  });

  it('works with a synchronous source followed by take, and skips pods without a name', () => {
    const seen: number[] = [];
    new Observable<ReflectorEvent<Pod>>((s) => {
      s.next({ type: 'Replace', items: [p1v1, { metadata: {} }], resourceVersion: '1' });
      s.next({ type: 'Added', object: p2 });
      s.next({ type: 'Added', object: pod('r', 'x') });
    })
      .pipe(
        reflectorPodSet(),
        map((pods) => pods.length),
        take(2),
      )
      .subscribe((n) => seen.push(n));
    expect(seen).toEqual([1, 2]);
  });
});
