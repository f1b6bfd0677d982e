// Object keys, with the cases of client-go's store and key function tests (index_test.go, store_test.go) in our words.
import { describe, expect, it } from 'vitest';
import { KeyError } from '../../operators/errors.ts';
import { joinObjectKey, objectKey, splitObjectKey } from '../../operators/object-key.ts';
import { DeletedFinalStateUnknown } from '../../operators/types.ts';

describe('splitObjectKey (SplitMetaNamespaceKey)', () => {
  it.each([
    ['a name alone is cluster-scoped', 'node-1', { namespace: '', name: 'node-1' }],
    ['namespace and name', 'ns/pod', { namespace: 'ns', name: 'pod' }],
    ['an empty name after the slash', 'ns/', { namespace: 'ns', name: '' }],
    ['an empty namespace before the slash', '/pod', { namespace: '', name: 'pod' }],
    ['the empty key', '', { namespace: '', name: '' }],
  ])('%s: %j', (_case, key, expected) => {
    expect(splitObjectKey(key)).toEqual(expected);
  });

  it('refuses a key with two slashes, naming it', () => {
    expect(() => splitObjectKey('a/b/c')).toThrow(KeyError);
    expect(() => splitObjectKey('a/b/c')).toThrow('unexpected key format: "a/b/c"');
  });
});

describe('joinObjectKey (ObjectName.String)', () => {
  it.each([
    ['ns', 'pod', 'ns/pod'],
    ['', 'node-1', 'node-1'],
    ['ns', '', 'ns/'],
    ['', '', ''],
  ])('(%j, %j) → %j', (namespace, name, key) => {
    expect(joinObjectKey(namespace, name)).toBe(key);
  });

  it.each([['ns/pod'], ['node-1'], ['ns/'], ['/pod']])('split then join gives %j back', (key) => {
    const { namespace, name } = splitObjectKey(key);
    expect(joinObjectKey(namespace, name)).toBe(key === '/pod' ? 'pod' : key);
  });
});

describe('objectKey (MetaNamespaceKeyFunc)', () => {
  it('keys namespaced and cluster-scoped objects', () => {
    expect(objectKey({ metadata: { namespace: 'ns', name: 'a' } })).toBe('ns/a');
    expect(objectKey({ metadata: { name: 'n1' } })).toBe('n1');
  });

  it("a tombstone's key is its own", () => {
    expect(objectKey(new DeletedFinalStateUnknown('ns/gone', undefined))).toBe('ns/gone');
  });

  it('is stricter than client-go: an unnamed object has no key (it would share `ns/` with every other)', () => {
    expect(() => objectKey({ metadata: { namespace: 'ns' } })).toThrow(KeyError);
  });
});
