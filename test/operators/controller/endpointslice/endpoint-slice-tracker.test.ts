// EndpointSliceTracker and TriggerTimeTracker: cases from upstream's endpointslice_tracker_test.go and trigger_time_tracker_test.go, in our words.
import { describe, expect, it } from 'vitest';
import { EndpointSliceTracker } from '../../../../operators/controller/endpointslice/endpoint-slice-tracker.ts';
import type { EndpointSlice } from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import {
  formatRFC3339Nano,
  TriggerTimeTracker,
} from '../../../../operators/controller/endpointslice/trigger-time-tracker.ts';
import { pod, service } from './endpoint-slice-fixtures.ts';

const slice = (uid: string, rv: string): EndpointSlice => ({
  metadata: { name: uid, namespace: 'default', uid, resourceVersion: rv },
  addressType: 'IPv4',
});
const KEY = 'default/web';

describe('EndpointSliceTracker', () => {
  it.each([
    ['nothing tracked', [] as [string, string][], [slice('a', '1')], false],
    ['the cache has what was written', [['a', '2']], [slice('a', '2')], false],
    ['the cache has something newer', [['a', '2']], [slice('a', '3')], false],
    ['the cache is older than the write', [['a', '3']], [slice('a', '2')], true],
    ['a written slice is missing from the cache', [['a', '2']], [], true],
    ['resourceVersions compare as numbers', [['a', '9']], [slice('a', '10')], false],
  ] as [string, [string, string][], EndpointSlice[], boolean][])(
    'stale: %s → %s',
    (_n, written, cached, want) => {
      const t = new EndpointSliceTracker();
      for (const [uid, rv] of written) t.update(KEY, slice(uid, rv));
      expect(t.staleSlices(KEY, cached)).toBe(want);
    },
  );

  it('a slice expected deleted is stale while the cache still has it, and its deletion needs no sync', () => {
    const t = new EndpointSliceTracker();
    t.update(KEY, slice('a', '2'));
    t.expectDeletion(KEY, slice('a', '2'));
    expect(t.staleSlices(KEY, [slice('a', '2')])).toBe(true);
    expect(t.staleSlices(KEY, [])).toBe(false);
    expect(t.shouldSync(KEY, slice('a', '2'))).toBe(false);
    expect(t.handleDeletion(KEY, slice('a', '2'))).toBe(false);
    // someone else's deletion is news
    t.update(KEY, slice('b', '4'));
    expect(t.handleDeletion(KEY, slice('b', '4'))).toBe(true);
  });

  it('an event at or before the written version is this controller’s own; a later one is news', () => {
    const t = new EndpointSliceTracker();
    expect(t.shouldSync(KEY, slice('a', '1'))).toBe(true);
    t.update(KEY, slice('a', '5'));
    expect(t.shouldSync(KEY, slice('a', '5'))).toBe(false);
    expect(t.shouldSync(KEY, slice('a', '4'))).toBe(false);
    expect(t.shouldSync(KEY, slice('a', '6'))).toBe(true);
    t.deleteService(KEY);
    expect(t.staleSlices(KEY, [])).toBe(false);
  });
});

describe('TriggerTimeTracker', () => {
  const readyAt = (i: number, t: string) => {
    const p = pod(i);
    p.status!.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: t }];
    return p;
  };
  const svc = () => {
    const s = service();
    s.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    return s;
  };

  it('first sync: the Service creation time; no change: none; changes: the earliest changed pod time', () => {
    const t = new TriggerTimeTracker();
    const pods = [readyAt(1, '2024-01-01T00:00:10Z'), readyAt(2, '2024-01-01T00:00:20Z')];
    expect(t.compute(KEY, svc(), pods)).toBe('2024-01-01T00:00:00Z');
    expect(t.compute(KEY, svc(), pods)).toBeUndefined();
    const changed = [readyAt(1, '2024-01-01T00:00:40Z'), readyAt(2, '2024-01-01T00:00:30Z')];
    expect(t.compute(KEY, svc(), changed)).toBe('2024-01-01T00:00:30Z');
    // a new pod counts as a change
    expect(t.compute(KEY, svc(), [...changed, readyAt(3, '2024-01-01T00:00:35Z')])).toBe(
      '2024-01-01T00:00:35Z',
    );
  });

  it('a recreated Service (newer creation time) is a change; a deleted one starts over', () => {
    const t = new TriggerTimeTracker();
    t.compute(KEY, svc(), []);
    const again = svc();
    again.metadata.creationTimestamp = '2024-01-02T00:00:00Z';
    expect(t.compute(KEY, again, [])).toBe('2024-01-02T00:00:00Z');
    t.deleteService(KEY);
    expect(t.compute(KEY, svc(), [])).toBe('2024-01-01T00:00:00Z');
  });

  it.each([
    [Date.parse('2024-01-01T00:00:00Z'), '2024-01-01T00:00:00Z'],
    [Date.parse('2024-01-01T00:00:00.500Z'), '2024-01-01T00:00:00.5Z'],
    [Date.parse('2024-01-01T00:00:00.123Z'), '2024-01-01T00:00:00.123Z'],
  ])('formats %i as %s (Go RFC3339Nano)', (ms, want) => {
    expect(formatRFC3339Nano(ms)).toBe(want);
  });
});
