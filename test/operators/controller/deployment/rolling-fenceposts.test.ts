// Tests: maxSurge/maxUnavailable resolution (upstream's TestResolveFenceposts, TestMaxUnavailable) in our words.
import { describe, expect, it } from 'vitest';
import {
  maxSurge,
  maxUnavailable,
  minAvailable,
  resolveFenceposts,
} from '../../../../operators/controller/deployment/rolling-fenceposts.ts';
import { newDeployment } from './fixtures.ts';

describe('resolveFenceposts', () => {
  it.each([
    ['0% and 0% of 0 → unavailable forced to 1', '0%', '0%', 0, { surge: 0, unavailable: 1 }],
    ['39% of 10: surge rounds up, unavailable down', '39%', '39%', 10, { surge: 4, unavailable: 3 }],
    ['no surge, 39% unavailable', undefined, '39%', 10, { surge: 0, unavailable: 3 }],
    ['39% surge, no unavailable', '39%', undefined, 10, { surge: 4, unavailable: 0 }],
    ['neither → unavailable 1', undefined, undefined, 10, { surge: 0, unavailable: 1 }],
    ['ints as they are', 2, 3, 10, { surge: 2, unavailable: 3 }],
    ['25% of 3: unavailable rounds down to 0', '25%', '25%', 3, { surge: 1, unavailable: 0 }],
    ['25% of 1: unavailable rounds to 0, surge to 1', '25%', '25%', 1, { surge: 1, unavailable: 0 }],
  ])('%s', (_name, surge, unavailable, desired, want) => {
    expect(resolveFenceposts(surge, unavailable, desired)).toEqual(want);
  });

  it.each([
    ['oops', '1%', 'spec.strategy.rollingUpdate.maxSurge'],
    ['55%', 'urg', 'spec.strategy.rollingUpdate.maxUnavailable'],
  ])('refuses %j / %j naming the field', (surge, unavailable, field) => {
    expect(() => resolveFenceposts(surge, unavailable, 10)).toThrow(field);
  });
});

describe('maxUnavailable, maxSurge, minAvailable', () => {
  it.each([
    ['1 of 10', newDeployment(10, { maxUnavailable: 1 }), 1],
    ['25% of 10 rounds down', newDeployment(10, { maxUnavailable: '25%' }), 2],
    ['more than replicas is capped', newDeployment(5, { maxUnavailable: 10 }), 5],
    ['0 replicas → 0', newDeployment(0, { maxUnavailable: 1 }), 0],
    ['surge and unavailable both 0 → 1', newDeployment(10), 1],
    ['Recreate → 0', newDeployment(10, { strategy: 'Recreate' }), 0],
  ])('maxUnavailable: %s', (_name, d, want) => {
    expect(maxUnavailable(d)).toBe(want);
  });

  it('maxSurge is 0 for Recreate and rounds up for RollingUpdate', () => {
    expect(maxSurge(newDeployment(10, { strategy: 'Recreate' }))).toBe(0);
    expect(maxSurge(newDeployment(10, { maxSurge: '25%' }))).toBe(3);
  });

  it('minAvailable is replicas − maxUnavailable, 0 for Recreate', () => {
    expect(minAvailable(newDeployment(10, { maxUnavailable: 2 }))).toBe(8);
    expect(minAvailable(newDeployment(10, { strategy: 'Recreate' }))).toBe(0);
  });

  it('reads an absent rollingUpdate as 25% and 25%', () => {
    const d = newDeployment(8);
    d.spec.strategy = { type: 'RollingUpdate' };
    expect([maxSurge(d), maxUnavailable(d)]).toEqual([2, 2]);
  });
});
