// Kubernetes' CEL quantity functions: parse, compare and do exact arithmetic on resource quantities.
import { describe, expect, it } from 'vitest';
import { I, listOf, objectOf, outcome } from './cel-harness.ts';

const SCHEMA = objectOf({ xs: listOf(I) });
const VALUE = { xs: [3, 1, 2] };

describe('the quantity library', () => {
  it.each([
    "isQuantity('1.5Gi')",
    "!isQuantity('1.5 Gi')",
    "quantity('1Gi') == quantity('1024Mi')",
    "quantity('1.5Gi').isGreaterThan(quantity('1Gi'))",
    "quantity('100m').isLessThan(quantity('1'))",
    "quantity('2k').asInteger() == 2000",
    "quantity('1.5').asApproximateFloat() == 1.5",
    "!quantity('1.5').isInteger()",
    "quantity('2').isInteger()",
    "quantity('-3').sign() == -1",
    "quantity('0').sign() == 0",
    "quantity('1').add(quantity('500m')) == quantity('1500m')",
    "quantity('1').add(2) == quantity('3')",
    "quantity('1').sub(quantity('1')).sign() == 0",
    "quantity('1').sub(3) == quantity('-2')",
    "quantity('1e3').compareTo(quantity('1k')) == 0",
    "quantity('1Ki').compareTo(quantity('1k')) == 1",
  ])('%s holds', (rule) => {
    expect(outcome(SCHEMA, VALUE, rule)).toEqual([]);
  });

  it.each([
    ["quantity('1.5').asInteger() == 1", 'cannot convert value to integer'],
    ["quantity('nope').sign() == 0", 'quantities must match the regular expression'],
  ])('%s fails with "%s"', (rule, text) => {
    const out = outcome(SCHEMA, VALUE, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});
