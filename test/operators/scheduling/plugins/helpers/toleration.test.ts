// Toleration matching tests, after core/v1 helper's ToleratesTaint and FindMatchingUntoleratedTaint tests.
import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../../../../../operators/api/core-v1.ts';
import {
  findMatchingUntoleratedTaint,
  toleratesTaint,
  tolerationsTolerateTaint,
} from '../../../../../operators/scheduling/plugins/helpers/toleration.ts';

describe('toleratesTaint', () => {
  const taint: Taint = { key: 'foo', value: 'bar', effect: 'NoSchedule' };
  it.each<[string, Toleration, boolean]>([
    ['an empty toleration with Exists tolerates everything', { operator: 'Exists' }, true],
    ['the same key, value and effect', { key: 'foo', value: 'bar', effect: 'NoSchedule' }, true],
    ['Equal spelled out', { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }, true],
    ['another value', { key: 'foo', operator: 'Equal', value: 'baz', effect: 'NoSchedule' }, false],
    ['another effect', { key: 'foo', value: 'bar', effect: 'NoExecute' }, false],
    ['no effect matches every effect', { key: 'foo', value: 'bar' }, true],
    ['Exists ignores the value', { key: 'foo', operator: 'Exists', value: 'whatever' }, true],
    ['another key', { key: 'other', operator: 'Exists' }, false],
    ['an unknown operator never matches', { key: 'foo', operator: 'Gt', value: 'bar' }, false],
    ['an empty key with Equal matches only an equal value', { operator: 'Equal', value: 'bar' }, true],
  ])('%s', (_name, t, want) => {
    expect(toleratesTaint(t, taint)).toBe(want);
  });

  it('a taint without a value is tolerated by an Equal toleration without a value', () => {
    expect(toleratesTaint({ key: 'gpu' }, { key: 'gpu', effect: 'NoSchedule' })).toBe(true);
  });

  it('tolerationsTolerateTaint: any toleration', () => {
    expect(tolerationsTolerateTaint(undefined, taint)).toBe(false);
    expect(
      tolerationsTolerateTaint(
        [
          { key: 'x', operator: 'Exists' },
          { key: 'foo', operator: 'Exists' },
        ],
        taint,
      ),
    ).toBe(true);
  });

  it('findMatchingUntoleratedTaint ignores PreferNoSchedule and returns the first untolerated one', () => {
    const taints: Taint[] = [
      { key: 'soft', effect: 'PreferNoSchedule' },
      { key: 'a', effect: 'NoSchedule' },
      { key: 'b', effect: 'NoExecute' },
    ];
    expect(findMatchingUntoleratedTaint(taints, [])).toEqual(taints[1]);
    expect(findMatchingUntoleratedTaint(taints, [{ key: 'a', operator: 'Exists' }])).toEqual(taints[2]);
    expect(findMatchingUntoleratedTaint(taints, [{ operator: 'Exists' }])).toBeUndefined();
    expect(findMatchingUntoleratedTaint(undefined, [])).toBeUndefined();
  });
});
