// Fault plan tests: validation names the field, pickFault lays probabilities end to end, the presets are valid.
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import {
  FAULT_PLANS,
  isFirstRequest,
  pickFault,
  REQUEST_FAULTS,
  STREAM_FAULTS,
  validateFaultPlan,
} from '../../../src/testing/fault-plan.ts';

describe('pickFault', () => {
  const probabilities = { a: 0.1, b: 0.2, c: 0 } as const;
  const order = ['a', 'b', 'c'] as const;
  it.each([
    [0, 'a'],
    [0.0999, 'a'],
    [0.1, 'b'],
    [0.2999, 'b'],
    [0.31, undefined],
    [0.99, undefined],
  ])('draw %d picks %s', (draw, expected) => {
    expect(pickFault(probabilities, order, () => draw)).toBe(expected);
  });

  it('never picks a fault of probability 0', () => {
    expect(pickFault({ a: 0, b: 0 }, ['a', 'b'], () => 0)).toBeUndefined();
  });
});

describe('validateFaultPlan', () => {
  it('fills in the defaults', () => {
    const plan = validateFaultPlan({});
    expect(Object.values(plan.request).every((p) => p === 0)).toBe(true);
    expect(Object.values(plan.stream).every((p) => p === 0)).toBe(true);
    expect(plan).toMatchObject({ retryAfterSeconds: 1, delayMs: [20, 300], stallMs: [50, 500] });
    expect(plan.applies({ index: 1, method: 'GET', path: '/', watch: false })).toBe(true);
    expect(plan.listFaultsPerItem).toBe(false);
  });

  it.each([
    [{ split: 2 }, 'faultPlan.split'],
    [{ delay: Number.NaN }, 'faultPlan.delay'],
    [{ tooManyRequests: 0.7, unavailable: 0.7 }, 'faultPlan'],
    [{ retryAfterSeconds: -1 }, 'faultPlan.retryAfterSeconds'],
    [{ delayMs: [-1, 5] as const }, 'faultPlan.delayMs'],
    [{ applies: 'all' as never }, 'faultPlan.applies'],
    [{ listFaultsPerItem: 'yes' as never }, 'faultPlan.listFaultsPerItem'],
  ])('rejects %j naming %s', (plan, field) => {
    expect(() => validateFaultPlan(plan)).toThrow(InvalidConfigError);
    try {
      validateFaultPlan(plan);
    } catch (error) {
      expect((error as InvalidConfigError).field).toBe(field);
    }
  });

  it.each(Object.entries(FAULT_PLANS))('preset %s is valid', (_name, plan) => {
    expect(() => validateFaultPlan(plan)).not.toThrow();
  });

  it('the harness settings of issue 19: 6 s stalls, never-resuming hangs, hangs in the initial list', () => {
    const stalls = validateFaultPlan(FAULT_PLANS.stalls6s);
    expect(stalls.stream.stall).toBeGreaterThan(0);
    expect(stalls.stallMs).toEqual([6000, 6000]);
    expect(stalls.listFaultsPerItem).toBe(false);
    const hangs = validateFaultPlan(FAULT_PLANS.hangs);
    expect(hangs.stream.stallForever).toBeGreaterThan(0);
    expect(hangs.stream.stall).toBe(0);
    expect(hangs.listFaultsPerItem).toBe(false);
    expect(validateFaultPlan(FAULT_PLANS.hangsInList).listFaultsPerItem).toBe(true);
    const inList = validateFaultPlan(FAULT_PLANS.hangsInList);
    expect(inList.stream.stallForever).toBeGreaterThan(0);
    const request = (index: number) => ({ index, method: 'GET', path: '/api/v1/pods', watch: index > 1 });
    expect([1, 2, 3].map((i) => inList.applies(request(i)))).toEqual([true, false, false]);
    expect(isFirstRequest(request(1))).toBe(true);
  });

  it('the heavy preset mixes every fault', () => {
    const plan = validateFaultPlan(FAULT_PLANS.heavy);
    for (const k of REQUEST_FAULTS) expect(plan.request[k], k).toBeGreaterThan(0);
    for (const k of STREAM_FAULTS) expect(plan.stream[k], k).toBeGreaterThan(0);
  });
});
