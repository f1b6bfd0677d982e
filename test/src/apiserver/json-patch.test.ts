// Tests of the JSON patch (RFC 6902): every operation, pointer escaping and the failure cases.
import { describe, expect, it } from 'vitest';
import { JsonPatchError, jsonPatch } from '../../../src/apiserver/json-patch.ts';

describe('jsonPatch', () => {
  it.each([
    ['add a key', { a: 1 }, [{ op: 'add', path: '/b', value: 2 }], { a: 1, b: 2 }],
    ['add inserts into an array', { a: [1, 3] }, [{ op: 'add', path: '/a/1', value: 2 }], { a: [1, 2, 3] }],
    ['add appends with -', { a: [1] }, [{ op: 'add', path: '/a/-', value: 2 }], { a: [1, 2] }],
    ['add replaces an existing key', { a: 1 }, [{ op: 'add', path: '/a', value: 5 }], { a: 5 }],
    ['remove a key', { a: 1, b: 2 }, [{ op: 'remove', path: '/a' }], { b: 2 }],
    ['remove an element', { a: [1, 2, 3] }, [{ op: 'remove', path: '/a/1' }], { a: [1, 3] }],
    ['replace a value', { a: { b: 1 } }, [{ op: 'replace', path: '/a/b', value: 2 }], { a: { b: 2 } }],
    [
      'move a value',
      { a: { b: 1 }, c: {} },
      [{ op: 'move', from: '/a/b', path: '/c/d' }],
      { a: {}, c: { d: 1 } },
    ],
    [
      'move within an array',
      { a: [1, 2, 3] },
      [{ op: 'move', from: '/a/0', path: '/a/2' }],
      { a: [2, 3, 1] },
    ],
    [
      'copy a value',
      { a: { b: [1] } },
      [{ op: 'copy', from: '/a/b', path: '/c' }],
      { a: { b: [1] }, c: [1] },
    ],
    [
      'test that passes',
      { a: [1, { b: 'x' }] },
      [{ op: 'test', path: '/a', value: [1, { b: 'x' }] }],
      { a: [1, { b: 'x' }] },
    ],
    [
      '~1 and ~0 escape / and ~',
      { 'a/b': 1, 'c~d': 2 },
      [
        { op: 'replace', path: '/a~1b', value: 3 },
        { op: 'remove', path: '/c~0d' },
      ],
      { 'a/b': 3 },
    ],
    ['the root can be replaced', { a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }], { b: 2 }],
    [
      'operations apply in order',
      { a: [] },
      [
        { op: 'add', path: '/a/-', value: 1 },
        { op: 'add', path: '/a/0', value: 0 },
      ],
      { a: [0, 1] },
    ],
  ])('%s', (_name, doc, patch, expected) => {
    const before = JSON.stringify(doc);
    expect(jsonPatch(doc, patch)).toEqual(expected);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it.each([
    ['a failed test', { a: 1 }, [{ op: 'test', path: '/a', value: 2 }], 0],
    ['removing a missing key', { a: 1 }, [{ op: 'remove', path: '/b' }], 0],
    [
      'replacing a missing key',
      { a: 1 },
      [
        { op: 'add', path: '/b', value: 1 },
        { op: 'replace', path: '/c', value: 1 },
      ],
      1,
    ],
    ['an index out of bounds', { a: [1] }, [{ op: 'add', path: '/a/5', value: 1 }], 0],
    ['a leading zero index', { a: [1, 2] }, [{ op: 'remove', path: '/a/01' }], 0],
    ['a missing parent', { a: 1 }, [{ op: 'add', path: '/x/y', value: 1 }], 0],
    ['an unknown op', { a: 1 }, [{ op: 'frob', path: '/a' }], 0],
    ['add without a value', { a: 1 }, [{ op: 'add', path: '/b' }], 0],
    ['moving into its own child', { a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], 0],
    ['a pointer without a leading slash', { a: 1 }, [{ op: 'remove', path: 'a' }], 0],
  ])('refuses %s, naming the operation', (_name, doc, patch, index) => {
    const attempt = () => jsonPatch(doc, patch);
    expect(attempt).toThrow(JsonPatchError);
    try {
      attempt();
    } catch (error) {
      expect((error as JsonPatchError).operation).toBe(index);
    }
  });

  it('refuses a patch that is not an array', () => {
    expect(() => jsonPatch({}, { op: 'add' })).toThrow(JsonPatchError);
  });
});
