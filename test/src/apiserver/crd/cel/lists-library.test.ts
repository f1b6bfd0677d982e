// Kubernetes' CEL list functions: isSorted, sum, min, max, indexOf, lastIndexOf (after upstream's library tests).
import { describe, expect, it } from 'vitest';
import { I, listOf, objectOf, outcome } from './cel-harness.ts';

const SCHEMA = objectOf({ xs: listOf(I) });
const VALUE = { xs: [3, 1, 2] };

describe('the list library', () => {
  it.each([
    '[1, 2, 3].isSorted()',
    '!([1, 3, 2].isSorted())',
    "['a', 'b', 'b'].isSorted()",
    '[].isSorted()',
    '[1, 2, 3].sum() == 6',
    '[1.5, 2.5].sum() == 4.0',
    '[].sum() == 0',
    '[3, 1, 2].min() == 1',
    '[3, 1, 2].max() == 3',
    "['b', 'a'].min() == 'a'",
    '[1.5, 0.5].max() == 1.5',
    '[1, 2, 1].indexOf(1) == 0',
    '[1, 2, 1].lastIndexOf(1) == 2',
    '[1, 2].indexOf(9) == -1',
    "['a', 'b'].lastIndexOf('b') == 1",
    'self.xs.sum() == 6 && self.xs.min() == 1',
  ])('%s holds', (rule) => {
    expect(outcome(SCHEMA, VALUE, rule)).toEqual([]);
  });

  it.each([
    ['[].min() == 0', 'min called on empty list evaluating rule'],
    ['[].max() == 0', 'max called on empty list evaluating rule'],
  ])('%s fails with "%s"', (rule, text) => {
    const out = outcome(SCHEMA, VALUE, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});

const D = { type: 'string', format: 'duration' };
const DATE = { type: 'string', format: 'date' };
const DBL = { type: 'number' };
const STDLIB = objectOf({
  ints: listOf(I),
  unsortedInts: listOf(I),
  emptyInts: listOf(I),
  doubles: listOf(DBL),
  unsortedDoubles: listOf(DBL),
  emptyDoubles: listOf(DBL),
  durations: listOf(D),
  unsortedDurations: listOf(D),
  emptyDurations: listOf(D),
  strings: listOf({ type: 'string' }),
  unsortedStrings: listOf({ type: 'string' }),
  emptyStrings: listOf({ type: 'string' }),
  dates: listOf(DATE),
  unsortedDates: listOf(DATE),
  emptyDates: listOf(DATE),
  objs: listOf(objectOf({ f1: { type: 'string' }, f2: { type: 'string' } })),
});
const STDLIB_VALUE = {
  ints: [1, 2, 2, 3],
  unsortedInts: [2, 1],
  emptyInts: [],
  doubles: [1, 2, 2, 3],
  unsortedDoubles: [2, 1],
  emptyDoubles: [],
  durations: ['1s', '1m', '1m', '1h'],
  unsortedDurations: ['1m', '1s'],
  emptyDurations: [],
  strings: ['a', 'b', 'b', 'c'],
  unsortedStrings: ['b', 'a'],
  emptyStrings: [],
  dates: ['2000-01-01', '2000-02-01', '2000-02-01', '2010-01-01'],
  unsortedDates: ['2000-02-01', '2000-01-01'],
  emptyDates: [],
  objs: [
    { f1: 'a', f2: 'a' },
    { f1: 'a', f2: 'b' },
    { f1: 'a', f2: 'b' },
    { f1: 'a', f2: 'c' },
  ],
};

describe('the list library on typed fields (upstream "stdlib list functions")', () => {
  it.each([
    'self.ints.sum() == 8',
    'self.ints.min() == 1',
    'self.ints.max() == 3',
    'self.emptyInts.sum() == 0',
    'self.ints.isSorted()',
    'self.emptyInts.isSorted()',
    'self.unsortedInts.isSorted() == false',
    'self.ints.indexOf(2) == 1',
    'self.ints.lastIndexOf(2) == 2',
    'self.ints.indexOf(10) == -1',
    'self.doubles.sum() == 8.0',
    'self.doubles.min() == 1.0',
    'self.doubles.max() == 3.0',
    'self.emptyDoubles.sum() == 0.0',
    'self.doubles.isSorted()',
    'self.unsortedDoubles.isSorted() == false',
    'self.doubles.indexOf(2.0) == 1',
    'self.doubles.lastIndexOf(2.0) == 2',
    "self.durations.sum() == duration('1h2m1s')",
    "self.durations.min() == duration('1s')",
    "self.durations.max() == duration('1h')",
    'self.durations.isSorted()',
    'self.unsortedDurations.isSorted() == false',
    "self.durations.indexOf(duration('1m')) == 1",
    "self.durations.lastIndexOf(duration('1m')) == 2",
    "self.durations.indexOf(duration('2m')) == -1",
    "self.strings.min() == 'a'",
    "self.strings.max() == 'c'",
    'self.strings.isSorted()',
    'self.emptyStrings.isSorted()',
    'self.unsortedStrings.isSorted() == false',
    "self.strings.indexOf('b') == 1",
    "self.strings.lastIndexOf('b') == 2",
    "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
    "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
    'self.dates.isSorted()',
    'self.unsortedDates.isSorted() == false',
    "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
    "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
    '[[1], [2]].indexOf([1]) == 0',
    "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
    'self.objs.indexOf(self.objs[1]) == 1',
    'self.objs.lastIndexOf(self.objs[1]) == 2',
    '([0] + self.emptyInts).min() == 0',
    'dyn([]).sum() == 0',
    'dyn([1, 2]).sum() == 3',
    'dyn([1.0, 2.0]).sum() == 3.0',
  ])('%s holds', (rule) => {
    expect(outcome(STDLIB, STDLIB_VALUE, rule)).toEqual([]);
  });

  it.each([
    ['self.emptyInts.min() == 1', 'min called on empty list'],
    ['self.emptyDoubles.max() == 3.0', 'max called on empty list'],
    ["self.emptyStrings.min() == 'a'", 'min called on empty list'],
    ["['a', 'b'].sum() == 'c'", "found no matching overload for 'list.sum()'"],
    ['[[1], [2]].min() == [1]', "found no matching overload for 'list.min()'"],
    ["[{'a': 1}, {'b': 2}].max() == {'b': 2}", "found no matching overload for 'list.max()'"],
  ])('%s fails with "%s"', (rule, text) => {
    const out = outcome(STDLIB, STDLIB_VALUE, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});
