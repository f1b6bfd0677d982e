// computeZoneState and zoneKey: upstream's zone disruption cases (single zone all down, 3 of 5 and 3 of 4 failing, last healthy node failing) in our own words.
import { describe, expect, it } from 'vitest';
import type { NodeCondition } from '../../../../operators/api/core-v1.ts';
import { computeZoneState, zoneKey } from '../../../../operators/controller/node-lifecycle/zone-state.ts';

const c = (status: NodeCondition['status']): NodeCondition => ({ type: 'Ready', status });
const many = (...s: ('T' | 'F' | 'U' | '-')[]) =>
  s.map((x) => (x === '-' ? undefined : c(x === 'T' ? 'True' : x === 'F' ? 'False' : 'Unknown')));

describe('computeZoneState', () => {
  it.each([
    { case: 'every node Ready', conditions: many('T', 'T', 'T'), want: { unhealthy: 0, state: 'Normal' } },
    {
      case: 'the single node Unknown',
      conditions: many('U'),
      want: { unhealthy: 1, state: 'FullDisruption' },
    },
    {
      case: 'no node Ready (one never posted)',
      conditions: many('U', 'F', '-'),
      want: { unhealthy: 3, state: 'FullDisruption' },
    },
    {
      case: '3 of 5 failing',
      conditions: many('T', 'T', 'U', 'U', 'F'),
      want: { unhealthy: 3, state: 'PartialDisruption' },
    },
    {
      case: '3 of 4 failing',
      conditions: many('T', 'U', 'U', 'U'),
      want: { unhealthy: 3, state: 'PartialDisruption' },
    },
    {
      case: '2 of 3 failing: not more than 2',
      conditions: many('T', 'U', 'U'),
      want: { unhealthy: 2, state: 'Normal' },
    },
    {
      case: '3 of 7 failing: under the threshold',
      conditions: many('T', 'T', 'T', 'T', 'U', 'U', 'U'),
      want: { unhealthy: 3, state: 'Normal' },
    },
    {
      case: 'the last healthy node failing',
      conditions: many('U', 'U', 'U', 'U'),
      want: { unhealthy: 4, state: 'FullDisruption' },
    },
    { case: 'an empty zone', conditions: [], want: { unhealthy: 0, state: 'Normal' } },
  ])('$case', ({ conditions, want }) => {
    expect(computeZoneState(conditions)).toEqual(want);
  });

  it('honours --unhealthy-zone-threshold', () => {
    expect(computeZoneState(many('T', 'T', 'T', 'T', 'U', 'U', 'U'), 0.4).state).toBe('PartialDisruption');
  });
});

describe('zoneKey', () => {
  it.each<{ labels: Record<string, string>; want: string }>([
    { labels: {}, want: '' },
    {
      labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' },
      want: 'r:\u0000:z',
    },
    {
      labels: {
        'failure-domain.beta.kubernetes.io/region': 'r',
        'failure-domain.beta.kubernetes.io/zone': 'z',
      },
      want: 'r:\u0000:z',
    },
    { labels: { 'topology.kubernetes.io/zone': 'z' }, want: ':\u0000:z' },
  ])('$labels → $want', ({ labels, want }) => {
    expect(zoneKey({ metadata: { name: 'n', labels } })).toBe(want);
  });
});
