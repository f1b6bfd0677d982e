// Tests for field selectors: cases from apimachinery's fields/selector_test.go, plus object paths.
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../operators/errors.ts';
import {
  escapeFieldValue,
  fieldSelectorFromSet,
  fieldValue,
  parseFieldSelector,
  splitFieldTerm,
  splitFieldTerms,
  unescapeFieldValue,
} from '../../operators/field-selector.ts';

describe('splitFieldTerms', () => {
  it.each<[string, string[]]>([
    ['a', ['a']],
    ['a=avalue', ['a=avalue']],
    ['a=avalue,b=bvalue', ['a=avalue', 'b=bvalue']],
    ['a=avalue,b==bvalue,c!=cvalue', ['a=avalue', 'b==bvalue', 'c!=cvalue']],
    ['', []],
    ['a=a,', ['a=a', '']],
    [',a=a', ['', 'a=a']],
    ['k=\\,,k2=v2', ['k=\\,', 'k2=v2']],
    ['k=\\\\,k2=v2', ['k=\\\\', 'k2=v2']],
    ['k=\\\\\\,,k2=v2', ['k=\\\\\\,', 'k2=v2']],
    ['k=\\a\\b\\', ['k=\\a\\b\\']],
    ['k=\\', ['k=\\']],
    ['함=수,목=록', ['함=수', '목=록']],
  ])('splits %j', (text, terms) => {
    expect(splitFieldTerms(text)).toEqual(terms);
  });
});

describe('splitFieldTerm', () => {
  it.each<[string, { lhs: string; op: string; rhs: string } | undefined]>([
    ['a=value', { lhs: 'a', op: '=', rhs: 'value' }],
    ['b==value', { lhs: 'b', op: '==', rhs: 'value' }],
    ['c!=value', { lhs: 'c', op: '!=', rhs: 'value' }],
    ['', undefined],
    ['a', undefined],
    ['k=\\,', { lhs: 'k', op: '=', rhs: '\\,' }],
    ['k=\\=', { lhs: 'k', op: '=', rhs: '\\=' }],
    ['k=\\\\\\a\\b\\=\\,\\', { lhs: 'k', op: '=', rhs: '\\\\\\a\\b\\=\\,\\' }],
    ['함=수', { lhs: '함', op: '=', rhs: '수' }],
  ])('splits %j', (term, expected) => {
    expect(splitFieldTerm(term)).toEqual(expected);
  });
});

describe('escaping', () => {
  it.each([
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ])('escapes %j as %j and back', (raw, escaped) => {
    expect(escapeFieldValue(raw)).toBe(escaped);
    expect(unescapeFieldValue(escaped)).toBe(raw);
  });

  it.each(['\\', '\\\\\\', '\\a'])('rejects the invalid escape sequence in %j', (value) => {
    expect(() => unescapeFieldValue(value)).toThrow(/invalid escape sequence/);
  });
});

describe('parseFieldSelector', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a||y\\=b', 'x=a\\=\\=b'])(
    'accepts %j and prints it back',
    (text) => {
      expect(parseFieldSelector(text).toString()).toBe(text);
    },
  );

  it.each(['x=a||y=b', 'x==a==b', 'x=a,b', 'x in (a)', 'x in (a,b,c)', 'x'])('rejects %j', (text) => {
    expect(() => parseFieldSelector(text)).toThrow(InvalidInputError);
  });

  it('names the selector and the term', () => {
    try {
      parseFieldSelector('metadata.name=a,spec');
      expect.unreachable('should have thrown');
    } catch (e) {
      expect((e as InvalidInputError).input).toBe('field selector "metadata.name=a,spec"');
      expect((e as InvalidInputError).field).toBe('term "spec"');
    }
  });

  it('parses deterministically regardless of term order', () => {
    expect(parseFieldSelector('x=a,a=x').toString()).toBe(parseFieldSelector('a=x,x=a').toString());
  });

  it('prints == as =', () => {
    expect(parseFieldSelector('a==b').toString()).toBe('a=b');
  });

  it.each<[string, Record<string, string>, boolean]>([
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['foo=bar', { foo: 'bar', baz: 'blah', complex: '=value\\,\\' }, true],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah', complex: '=value\\,\\' }, true],
    [
      'foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\',
      { foo: 'bar', baz: 'blah', complex: '=value\\,\\' },
      true,
    ],
    ['foo=blah', { foo: 'bar', baz: 'blah' }, false],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }, false],
  ])('%j matches the flat fields %j: %s', (text, fields, expected) => {
    expect(parseFieldSelector(text).matches(fields)).toBe(expected);
  });

  const pod = {
    metadata: { name: 'web-1', namespace: 'prod' },
    spec: { nodeName: 'node-a', priority: 7, hostNetwork: false },
    status: { phase: 'Running' },
  };
  it.each<[string, boolean]>([
    ['metadata.name=web-1', true],
    ['metadata.namespace=prod,metadata.name=web-1', true],
    ['metadata.namespace!=prod', false],
    ['spec.nodeName=node-a', true],
    ['spec.nodeName!=', true],
    ['spec.schedulerName=', true],
    ['status.phase!=Succeeded,status.phase!=Failed', true],
    ['status.phase=Pending', false],
    ['spec.priority=7', true],
    ['spec.hostNetwork=false', true],
    ['spec=x', false],
  ])('%j on a pod: %s', (text, expected) => {
    expect(parseFieldSelector(text).matches(pod)).toBe(expected);
  });

  it('reports the exact value an = term requires', () => {
    const s = parseFieldSelector('spec.nodeName=n1,status.phase!=Failed');
    expect(s.requiresExactMatch('spec.nodeName')).toBe('n1');
    expect(s.requiresExactMatch('status.phase')).toBeUndefined();
    expect(s.requiresExactMatch('metadata.name')).toBeUndefined();
  });
});

describe('fieldSelectorFromSet and fieldValue', () => {
  it.each<[Record<string, string>, boolean]>([
    [{}, true],
    [{ foo: 'bar' }, true],
    [{ foo: 'bar', baz: 'blah' }, true],
    [{ foo: '=blah' }, false],
    [{ foo: '=bar', foobar: 'bar', baz: 'blah' }, false],
  ])('set %j against {foo:bar,baz:blah}: %s', (set, expected) => {
    expect(fieldSelectorFromSet(set).matches({ foo: 'bar', baz: 'blah' })).toBe(expected);
  });

  it('empty set selectors are empty', () => {
    expect(fieldSelectorFromSet({}).isEmpty()).toBe(true);
    expect(parseFieldSelector('').isEmpty()).toBe(true);
    expect(parseFieldSelector('a=b').isEmpty()).toBe(false);
  });

  it('reads missing, null and non-scalar fields as empty', () => {
    expect(fieldValue(undefined, 'a.b')).toBe('');
    expect(fieldValue({ a: null }, 'a.b')).toBe('');
    expect(fieldValue({ a: { b: { c: 1 } } }, 'a.b')).toBe('');
    expect(fieldValue({ a: { b: true } }, 'a.b')).toBe('true');
  });
});
