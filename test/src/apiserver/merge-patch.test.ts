// Tests of the JSON merge patch (RFC 7386), with the RFC's appendix cases as a table.
import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../../src/apiserver/merge-patch.ts';

describe('mergePatch', () => {
  it.each([
    ['replaces a scalar', { a: 'b' }, { a: 'c' }, { a: 'c' }],
    ['adds a key', { a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    ['null removes a key', { a: 'b' }, { a: null }, {}],
    ['null removes only that key', { a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    ['an array replaces a scalar', { a: ['b'] }, { a: 'c' }, { a: 'c' }],
    ['a scalar replaces an array', { a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [
      'nested objects merge, nested null removes',
      { a: { b: 'c' } },
      { a: { b: 'd', c: null } },
      { a: { b: 'd' } },
    ],
    ['arrays are replaced whole', { a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    ['a non-object patch replaces the document', ['a', 'b'], ['c', 'd'], ['c', 'd']],
    ['an object patch over an array', ['a'], { a: 'b' }, { a: 'b' }],
    ['null inside a new object is dropped', {}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ['an empty patch changes nothing', { a: 'b' }, {}, { a: 'b' }],
  ])('%s', (_name, target, patch, expected) => {
    const before = JSON.stringify(target);
    expect(mergePatch(target, patch)).toEqual(expected);
    expect(JSON.stringify(target)).toBe(before);
  });
});
