// celEqual: CEL's equality on runtime values (numbers across int and double, deep lists and maps, timestamps, durations, bytes).
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { describe, expect, it } from 'vitest';
import { celEqual } from '../../../../../src/apiserver/crd/cel/cel-equal.ts';

describe('celEqual', () => {
  it.each<[string, unknown, unknown, boolean]>([
    ['int and int', 3n, 3n, true],
    ['int and double of the same value', 3n, 3, true],
    ['int and double of another value', 3n, 3.5, false],
    ['strings', 'a', 'a', true],
    ['a string and a number', '1', 1n, false],
    ['null and null', null, null, true],
    ['null and a map', null, {}, false],
    ['lists in order', [1n, 'a'], [1n, 'a'], true],
    ['lists out of order', [1n, 2n], [2n, 1n], false],
    ['maps in any key order', { a: 1n, b: [2n] }, { b: [2n], a: 1n }, true],
    ['maps with another value', { a: 1n }, { a: 2n }, false],
    ['maps with another key', { a: 1n }, { b: 1n }, false],
    ['a Map and an object', new Map([['a', 1n]]), { a: 1n }, true],
    ['timestamps', new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00.000Z'), true],
    ['timestamps apart', new Date(0), new Date(1), false],
    ['durations', new Duration(5n, 1), new Duration(5n, 1), true],
    ['durations apart', new Duration(5n, 1), new Duration(5n, 2), false],
    ['bytes', new Uint8Array([1, 2]), new Uint8Array([1, 2]), true],
    ['bytes apart', new Uint8Array([1, 2]), new Uint8Array([1, 3]), false],
    ['a list and a map', [], {}, false],
  ])('%s', (_name, a, b, want) => {
    expect(celEqual(a, b)).toBe(want);
    expect(celEqual(b, a)).toBe(want);
  });
});
