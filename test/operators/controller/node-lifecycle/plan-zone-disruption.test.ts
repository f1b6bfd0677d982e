// planZoneDisruption and zoneEvictionQPS: upstream's disruption cases (TestMonitorNodeHealthEvictPodsWithDisruption, the Reduced/Healthy QPS functions) in our own words.
import { describe, expect, it } from 'vitest';
import type { NodeCondition } from '../../../../operators/api/core-v1.ts';
import {
  DEFAULT_ZONE_EVICTION_RATES,
  type KnownZoneState,
  planZoneDisruption,
  zoneEvictionQPS,
} from '../../../../operators/controller/node-lifecycle/plan-zone-disruption.ts';

const z1 = 'region1:\u0000:zone1';
const z2 = 'region1:\u0000:zone2';
const ready = (s: 'T' | 'F' | 'U' | '-'): NodeCondition | undefined =>
  s === '-' ? undefined : { type: 'Ready', status: s === 'T' ? 'True' : s === 'F' ? 'False' : 'Unknown' };
const zones = (spec: { [zone: string]: string | undefined }) =>
  new Map(Object.entries(spec).map(([zone, s]) => [zone, [...(s ?? '')].map((c) => ready(c as 'T'))]));
const states = (spec: Record<string, KnownZoneState>) => new Map(Object.entries(spec));
const rates = DEFAULT_ZONE_EVICTION_RATES;

describe('zoneEvictionQPS', () => {
  it.each([
    { state: 'Normal' as const, size: 3, want: 0.1 },
    { state: 'FullDisruption' as const, size: 3, want: 0.1 },
    { state: 'PartialDisruption' as const, size: 50, want: 0 },
    { state: 'PartialDisruption' as const, size: 51, want: 0.01 },
  ])('$state with $size nodes: $want per second', ({ state, size, want }) => {
    expect(zoneEvictionQPS(state, size, rates)).toBe(want);
  });
});

describe('planZoneDisruption', () => {
  it.each([
    {
      case: 'the only zone is down: master disruption mode, no evictions',
      previous: {},
      now: { [z1]: 'UU' },
      want: { states: { [z1]: 'FullDisruption' }, limiters: { [z1]: 0 }, mode: 'enter' },
    },
    {
      case: 'both zones down: no evictions anywhere',
      previous: {},
      now: { [z1]: 'U', [z2]: 'U' },
      want: {
        states: { [z1]: 'FullDisruption', [z2]: 'FullDisruption' },
        limiters: { [z1]: 0, [z2]: 0 },
        mode: 'enter',
      },
    },
    {
      case: 'one zone down, the other healthy: the down zone evicts at the normal rate',
      previous: {},
      now: { [z1]: 'U', [z2]: 'T' },
      want: {
        states: { [z1]: 'FullDisruption', [z2]: 'Normal' },
        limiters: { [z1]: 0.1, [z2]: 0.1 },
      },
    },
    {
      case: 'a zone whose only Ready node is excluded from disruption checks counts as down',
      previous: {},
      now: { [z1]: 'U' },
      want: { states: { [z1]: 'FullDisruption' }, limiters: { [z1]: 0 }, mode: 'enter' },
    },
    {
      case: 'both zones were down and one comes back: disruption mode ends, every zone gets its rate',
      previous: { [z1]: 'FullDisruption', [z2]: 'FullDisruption' },
      now: { [z1]: 'U', [z2]: 'T' },
      want: {
        states: { [z1]: 'FullDisruption', [z2]: 'Normal' },
        limiters: { [z1]: 0.1, [z2]: 0.1 },
        mode: 'exit',
      },
    },
    {
      case: 'a small zone partially disrupted (3 of 5 down): evictions stop there',
      previous: { [z1]: 'Normal', [z2]: 'Normal' },
      now: { [z1]: 'UUUTT', [z2]: 'T' },
      want: { states: { [z1]: 'PartialDisruption', [z2]: 'Normal' }, limiters: { [z1]: 0 } },
    },
    {
      case: 'partially disrupted with 2 down of 3: still Normal (more than 2 are needed)',
      previous: { [z1]: 'Normal' },
      now: { [z1]: 'UUT' },
      want: { states: { [z1]: 'Normal' }, limiters: {} },
    },
    {
      case: 'every zone still down: nothing changes',
      previous: { [z1]: 'FullDisruption', [z2]: 'FullDisruption' },
      now: { [z1]: 'U', [z2]: 'F-' },
      want: { states: { [z1]: 'FullDisruption', [z2]: 'FullDisruption' }, limiters: {} },
    },
    {
      case: 'nothing changed: no limiter is touched',
      previous: { [z1]: 'Normal', [z2]: 'FullDisruption' },
      now: { [z1]: 'TTU', [z2]: 'U' },
      want: { states: { [z1]: 'Normal', [z2]: 'FullDisruption' }, limiters: {} },
    },
    {
      case: 'a zone with no node left is forgotten',
      previous: { [z1]: 'Normal', [z2]: 'Normal' },
      now: { [z1]: 'T' },
      want: { states: { [z1]: 'Normal' }, limiters: {} },
    },
    {
      case: 'a new zone starts Initial, so its first pass sets its rate',
      previous: { [z1]: 'Normal', [z2]: 'Initial' },
      now: { [z1]: 'T', [z2]: 'TT' },
      want: { states: { [z1]: 'Normal', [z2]: 'Normal' }, limiters: { [z2]: 0.1 } },
    },
    {
      case: 'a zone recovering from partial disruption goes back to the normal rate',
      previous: { [z1]: 'PartialDisruption' },
      now: { [z1]: 'TTTTU' },
      want: { states: { [z1]: 'Normal' }, limiters: { [z1]: 0.1 } },
    },
    {
      case: 'no nodes at all: nothing to do',
      previous: {},
      now: {},
      want: { states: {}, limiters: {} },
    },
  ])('$case', ({ previous, now, want }) => {
    const plan = planZoneDisruption(states(previous as Record<string, KnownZoneState>), zones(now), rates);
    expect({
      states: Object.fromEntries(plan.states),
      limiters: Object.fromEntries(plan.limiters),
      ...(plan.mode ? { mode: plan.mode } : {}),
    }).toEqual(want);
  });

  it('a large zone (more nodes than --large-cluster-size-threshold) partially disrupted evicts at the secondary rate', () => {
    const plan = planZoneDisruption(
      states({ [z1]: 'Normal', [z2]: 'Normal' }),
      zones({ [z1]: 'UUUTT', [z2]: 'T' }),
      {
        ...rates,
        largeClusterThreshold: 3,
      },
    );
    expect(Object.fromEntries(plan.limiters)).toEqual({ [z1]: 0.01 });
  });

  it('--unhealthy-zone-threshold decides when a zone is partially disrupted', () => {
    const at = (unhealthyZoneThreshold: number) =>
      planZoneDisruption(states({ [z1]: 'Normal' }), zones({ [z1]: 'UUUTTTT' }), {
        ...rates,
        unhealthyZoneThreshold,
      }).states.get(z1);
    expect(at(0.55)).toBe('Normal'); // 3 of 7 ≈ 0.43
    expect(at(0.4)).toBe('PartialDisruption');
  });
});
