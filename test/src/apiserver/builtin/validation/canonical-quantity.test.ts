// Quantities printed in resource.Quantity's canonical form, with cases from apimachinery's quantity tests.
import { describe, expect, it } from 'vitest';
import { canonicalQuantity } from '../../../../../src/apiserver/builtin/validation/canonical-quantity.ts';

describe('canonicalQuantity', () => {
  it.each([
    ['0', '0'],
    ['1', '1'],
    ['0.2', '200m'],
    ['1.5', '1500m'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['2000000', '2M'],
    ['1G', '1G'],
    ['1Gi', '1Gi'],
    ['2048Mi', '2Gi'],
    ['1536Ki', '1536Ki'],
    ['1.5Gi', '1536Mi'],
    ['-1', '-1'],
    ['100m', '100m'],
    ['1e3', '1k'],
    [2, '2'],
  ] as const)('%s → %s', (input, expected) => {
    expect(canonicalQuantity(input)).toBe(expected);
  });
});
