// podConfig: marble tests of the merge operator in virtual time (five questions), serial processing and resync.
import { map, Observable, Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { podConfig } from '../../../operators/pod-config/pod-config.ts';
import type { PodUpdate, SourceUpdate } from '../../../operators/pod-config/types.ts';
import { testScheduler } from '../../../src/testing/marbles.ts';
import { validPod } from './pod-builders.ts';

const summary = (u: PodUpdate) => `${u.op} ${u.source} [${u.pods.map((p) => p.metadata?.name).join(',')}]`;
const p = validPod('p', 'ns');
const q = validPod('q', 'ns');

describe('podConfig', () => {
  it('emits ADD then REMOVE for a pod that comes and goes (the doc diagram)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold<SourceUpdate>('-a-b-|', {
        a: { source: 'f', pods: [p] },
        b: { source: 'f', pods: [] },
      });
      expectObservable(source.pipe(podConfig(), map(summary))).toBe('-A-R-|', {
        A: 'ADD f [p]',
        R: 'REMOVE f [p]',
      });
    });
  });

  it('emits every notification of one update in the same frame, in the kubelet order', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const changed = { ...q, spec: { ...q.spec, hostNetwork: true } };
      const source = cold<SourceUpdate>('-a-b-', {
        a: { source: 'f', pods: [p, q] },
        b: { source: 'f', pods: [changed, validPod('r', 'ns')] },
      });
      expectObservable(source.pipe(podConfig(), map(summary))).toBe('-a-(rdu)', {
        a: 'ADD f [p,q]',
        r: 'REMOVE f [p]',
        d: 'ADD f [r]',
        u: 'UPDATE f [q]',
      });
    });
  });

  it('passes a source error through', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold<SourceUpdate>('-a-#', { a: { source: 'f', pods: [p] } }, new Error('boom'));
      expectObservable(source.pipe(podConfig(), map(summary))).toBe(
        '-a-#',
        { a: 'ADD f [p]' },
        new Error('boom'),
      );
    });
  });

  it('emits nothing for an empty source', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<SourceUpdate>('---|').pipe(podConfig())).toBe('---|');
    });
  });

  it('unsubscribes the source early', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<SourceUpdate>('-a---b-|', {
        a: { source: 'f', pods: [p] },
        b: { source: 'f', pods: [] },
      });
      expectObservable(source.pipe(podConfig(), map(summary)), '^--!').toBe('-a-', { a: 'ADD f [p]' });
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('works with a synchronous source followed by take', () => {
    const seen: string[] = [];
    new Observable<SourceUpdate>((s) => {
      s.next({ source: 'f', pods: [p] });
      s.next({ source: 'g', pods: [] });
      s.next({ source: 'f', pods: [] });
      s.complete();
    })
      .pipe(podConfig(), map(summary), take(2))
      .subscribe((v) => seen.push(v));
    expect(seen).toEqual(['ADD f [p]', 'ADD g []']);
  });

  it('emits a SET of all sources under * on every resync tick', () => {
    testScheduler().run(({ cold, hot, expectObservable }) => {
      const source = cold<SourceUpdate>('-a-b---', {
        a: { source: 'f', pods: [p] },
        b: { source: 'g', pods: [q] },
      });
      const resync$ = hot('----r---r');
      expectObservable(source.pipe(podConfig({ resync$ }), map(summary))).toBe('-a-bs---s', {
        a: 'ADD f [p]',
        b: 'ADD g [q]',
        s: 'SET * [p,q]',
      });
    });
  });

  it('stamps config.seen with the scheduler time', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold<SourceUpdate>('---a', { a: { source: 'f', pods: [p] } });
      expectObservable(
        source.pipe(
          podConfig(),
          map((u) => u.pods[0]?.metadata?.annotations?.['kubernetes.io/config.seen']),
        ),
      ).toBe('---a', { a: new Date(3).toISOString() });
    });
  });

  it('applies an update pushed by a subscriber only after the current one is fully emitted', () => {
    const input = new Subject<SourceUpdate>();
    const seen: string[] = [];
    input.pipe(podConfig()).subscribe((u) => {
      seen.push(summary(u));
      if (u.op === 'REMOVE') input.next({ source: 'f', pods: [] });
    });
    input.next({ source: 'f', pods: [p] });
    input.next({ source: 'f', pods: [q] });
    expect(seen).toEqual(['ADD f [p]', 'REMOVE f [p]', 'ADD f [q]', 'REMOVE f [q]']);
  });

  it('errors with the field named when an update has no source name', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold<SourceUpdate>('-a', { a: { source: '', pods: [] } });
      expectObservable(source.pipe(podConfig())).toBe(
        '-#',
        undefined,
        expect.objectContaining({ code: 'KUBE_RX_INVALID_INPUT', field: 'source' }),
      );
    });
  });
});
