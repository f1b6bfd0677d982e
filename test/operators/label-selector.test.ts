// Tests for label selectors: cases from apimachinery's labels/selector_test.go and meta/v1 helpers.
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../operators/errors.ts';
import {
  everythingLabelSelector,
  labelRequirement,
  labelSelectorFromObject,
  labelSelectorFromRequirements,
  labelSelectorFromSet,
  lexLabelSelector,
  nothingLabelSelector,
  parseLabelSelector,
} from '../../operators/label-selector.ts';

describe('parseLabelSelector', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])(
    'accepts %j and prints it back without spaces',
    (text) => {
      expect(parseLabelSelector(text).toString()).toBe(text.replaceAll(' ', ''));
    },
  );

  it.each(['x=a||y=b', 'x==a==b', '!x=a', 'x<a', 'x,,y', ',x,y', 'x nott in (y)', 'a in (xyz),'])(
    'rejects %j with an InvalidInputError naming the selector',
    (text) => {
      expect(() => parseLabelSelector(text)).toThrow(InvalidInputError);
      try {
        parseLabelSelector(text);
      } catch (e) {
        expect((e as InvalidInputError).input).toBe(`label selector ${JSON.stringify(text)}`);
        expect((e as InvalidInputError).field).toMatch(/^position \d+$/);
      }
    },
  );

  it.each(['a in (xyz)b notin ()', 'a in (xyz abc)', 'a notin(', 'a (', '('])(
    'rejects malformed %j',
    (text) => {
      expect(() => parseLabelSelector(text)).toThrow(InvalidInputError);
    },
  );

  it('names the position of the offending term', () => {
    expect(() => parseLabelSelector('app=web,tier in (a b)')).toThrow(/\(position 19\): found 'b'/);
  });

  it('parses deterministically regardless of term order', () => {
    expect(parseLabelSelector('x=a,a=x').toString()).toBe(parseLabelSelector('a=x,x=a').toString());
  });

  it.each<[[string, string, string, string[]]]>([
    [['\rx', 'x', 'exists', []]],
    [['this-is-a-dns.domain.com/key-with-dash', 'this-is-a-dns.domain.com/key-with-dash', 'exists', []]],
    [
      [
        'this-is-another-dns.domain.com/key-with-dash in (so,what)',
        'this-is-another-dns.domain.com/key-with-dash',
        'in',
        ['so', 'what'],
      ],
    ],
    [
      [
        '0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)',
        '0.1.2.domain/99',
        'notin',
        ['10.10.100.1', 'tick.tack.clock'],
      ],
    ],
    [['foo  in\t (abc)', 'foo', 'in', ['abc']]],
    [['x notin\n (abc)', 'x', 'notin', ['abc']]],
    [['x  notin\t\t\t(abc,def)', 'x', 'notin', ['abc', 'def']]],
    [['x in (abc,def)', 'x', 'in', ['abc', 'def']]],
    [['x in (abc,)', 'x', 'in', ['', 'abc']]],
    [['x in (abc,abc)', 'x', 'in', ['abc']]],
    [['x in ()', 'x', 'in', ['']]],
    [['x in (a,,)', 'x', 'in', ['', 'a']]],
    [['x in (a,,,)', 'x', 'in', ['', 'a']]],
    [['x in (a,,,,,,)', 'x', 'in', ['', 'a']]],
    [['x in (a,,a,,a,,a,,)', 'x', 'in', ['', 'a']]],
    [['x notin ( )', 'x', 'notin', ['']]],
    [['x notin (, a)', 'x', 'notin', ['', 'a']]],
    [['a ', 'a', 'exists', []]],
    [['a in (x,y,notin, z,in)', 'a', 'in', ['in', 'notin', 'x', 'y', 'z']]],
    [['x=a', 'x', '=', ['a']]],
    [['x>1', 'x', 'gt', ['1']]],
    [['x<7', 'x', 'lt', ['7']]],
  ])('parses %j into one requirement', ([text, key, operator, values]) => {
    expect(parseLabelSelector(text).requirements).toEqual([{ key, operator, values }]);
  });

  it('sorts requirements by key', () => {
    const s = parseLabelSelector('x notin (abc,,def),bar,z in (),w');
    expect(s.requirements.map((r) => [r.key, r.operator, r.values])).toEqual([
      ['bar', 'exists', []],
      ['w', 'exists', []],
      ['x', 'notin', ['', 'abc', 'def']],
      ['z', 'in', ['']],
    ]);
  });

  it.each<[string, Record<string, string>, boolean]>([
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true],
    ['x>1', { x: '2' }, true],
    ['x<1', { x: '0' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x', { y: 'z' }, false],
    ['!x', { x: 'z' }, false],
    ['x>1', { x: '0' }, false],
    ['x<1', { x: '2' }, false],
    ['foo=bar', { foo: 'bar', baz: 'blah' }, true],
    ['baz=blah', { foo: 'bar', baz: 'blah' }, true],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }, true],
    ['foo=blah', { foo: 'bar', baz: 'blah' }, false],
    ['baz=bar', { foo: 'bar', baz: 'blah' }, false],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }, false],
    ['x in (foo),y notin (alpha)', { x: 'foo', y: 'baz' }, true],
    ['x in (foo),y in (alpha)', { x: 'foo', y: 'baz' }, false],
    ['x notin (),y', { y: '' }, true],
    ['!x,y', { y: '' }, true],
    ['x notin (),!y', { y: '' }, false],
    ['x in ()', { y: 'baz' }, false],
    ['z>1', { z: '2' }, true],
    ['z>1', { z: 'v2' }, false],
  ])('%j matches %j: %s', (text, labels, expected) => {
    expect(parseLabelSelector(text).matches(labels)).toBe(expected);
  });

  it('treats missing labels as an empty set', () => {
    expect(parseLabelSelector('!x').matches(undefined)).toBe(true);
    expect(parseLabelSelector('x').matches(undefined)).toBe(false);
  });
});

describe('lexLabelSelector', () => {
  it.each<[string, string[]]>([
    ['', ['end']],
    [',', [',', 'end']],
    ['notin', ['notin', 'end']],
    ['in', ['in', 'end']],
    ['==', ['==', 'end']],
    ['!', ['!', 'end']],
    ['!=', ['!=', 'end']],
    ['~', ['id', 'end']],
    ['||', ['id', 'end']],
    ['key in ( value1, value2 )', ['id', 'in', '(', 'id', ',', 'id', ')', 'end']],
    ['!key', ['!', 'id', 'end']],
    ['x in (),y', ['id', 'in', '(', ')', ',', 'id', 'end']],
    ['== != (), = notin', ['==', '!=', '(', ')', ',', '=', 'notin', 'end']],
    ['key>2', ['id', '>', 'id', 'end']],
    ['key<1', ['id', '<', 'id', 'end']],
  ])('lexes %j', (text, tokens) => {
    expect(lexLabelSelector(text).map((t) => t.tok)).toEqual(tokens);
  });
});

describe('labelRequirement', () => {
  it.each<[string, Parameters<typeof labelRequirement>[1], string[], string | undefined]>([
    ['x1', 'in', [], 'values'],
    ['x2', 'notin', [], 'values'],
    ['x3', 'in', ['foo'], undefined],
    ['x4', 'notin', ['foo'], undefined],
    ['x5', '=', ['bar', 'foo'], 'values'],
    ['x6', 'exists', [], undefined],
    ['x7', '!', [], undefined],
    ['x8', 'exists', ['foo'], 'values'],
    ['x9', 'in', ['bar'], undefined],
    ['x11', 'gt', ['1'], undefined],
    ['x12', 'lt', ['6'], undefined],
    ['x13', 'gt', [], 'values'],
    ['x14', 'gt', ['bar'], 'values[0]'],
    ['x15', 'lt', ['bar'], 'values[0]'],
    ['a'.repeat(254), 'exists', [], 'key'],
    ['x16', '=', ['a'.repeat(254)], 'values[0][x16]'],
    ['x17', '=', ['a b'], 'values[0][x17]'],
    ['x18', 'unsupportedOp' as 'in', [], 'operator'],
    ['example.com/', 'exists', [], 'key'],
    ['/name', 'exists', [], 'key'],
    ['a/b/c', 'exists', [], 'key'],
    ['Example.com/name', 'exists', [], 'key'],
  ])('key %j op %s values %j → error field %s', (key, op, values, field) => {
    if (field === undefined) {
      expect(labelRequirement(key, op, values)).toEqual({ key, operator: op, values });
    } else {
      expect(() => labelRequirement(key, op, values)).toThrow(InvalidInputError);
      try {
        labelRequirement(key, op, values);
      } catch (e) {
        expect((e as InvalidInputError).field).toBe(field);
      }
    }
  });

  it.each<[Parameters<typeof labelRequirement>[], string]>([
    [
      [
        ['x', 'in', ['abc', 'def']],
        ['y', 'notin', ['jkl']],
        ['z', 'exists', []],
      ],
      'x in (abc,def),y notin (jkl),z',
    ],
    [
      [
        ['x', 'notin', ['abc', 'def']],
        ['y', '!=', ['jkl']],
        ['z', '!', []],
      ],
      'x notin (abc,def),y!=jkl,!z',
    ],
    [
      [
        ['x', 'notin', ['abc']],
        ['y', 'in', ['jkl', 'mno']],
        ['z', 'notin', ['']],
      ],
      'x notin (abc),y in (jkl,mno),z notin ()',
    ],
    [
      [
        ['x', '=', ['abc']],
        ['y', '==', ['jkl']],
        ['z', '!=', ['a']],
        ['z', 'exists', []],
      ],
      'x=abc,y==jkl,z!=a,z',
    ],
    [
      [
        ['x', 'gt', ['2']],
        ['y', 'lt', ['8']],
        ['z', 'exists', []],
      ],
      'x>2,y<8,z',
    ],
    [[['x', 'in', ['def', 'abc']]], 'x in (abc,def)'],
  ])('prints requirements %j as %j', (reqs, text) => {
    expect(labelSelectorFromRequirements(reqs.map((r) => labelRequirement(...r))).toString()).toBe(text);
  });
});

describe('everything, nothing and sets', () => {
  it('everything matches and is empty; nothing matches nothing', () => {
    expect(everythingLabelSelector().matches({ x: 'y' })).toBe(true);
    expect(everythingLabelSelector().isEmpty()).toBe(true);
    expect(nothingLabelSelector().matches({})).toBe(false);
    expect(nothingLabelSelector().isEmpty()).toBe(false);
    expect(nothingLabelSelector().matchesNothing).toBe(true);
  });

  it.each<[Record<string, string>, boolean]>([
    [{}, true],
    [{ foo: 'bar' }, true],
    [{ baz: 'blah' }, true],
    [{ foo: 'bar', baz: 'blah' }, true],
    [{ foo: 'bar', foobar: 'bar' }, false],
  ])('set %j against {foo:bar,baz:blah}: %s', (set, expected) => {
    expect(labelSelectorFromSet(set).matches({ foo: 'bar', baz: 'blah' })).toBe(expected);
  });

  it.each<[Record<string, string>, string]>([
    [{}, ''],
    [{ app: 'foo' }, 'app=foo'],
    [{ app: 'foo', a: 'b' }, 'a=b,app=foo'],
  ])('set %j prints as %j', (set, text) => {
    expect(labelSelectorFromSet(set).toString()).toBe(text);
  });
});

describe('labelSelectorFromObject', () => {
  it('null matches nothing; {} matches everything', () => {
    expect(labelSelectorFromObject(null).matches({})).toBe(false);
    expect(labelSelectorFromObject(undefined).matchesNothing).toBe(true);
    expect(labelSelectorFromObject({}).matches({ a: 'b' })).toBe(true);
    expect(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).isEmpty()).toBe(true);
  });

  it('combines matchLabels and the four expression operators', () => {
    const s = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'back'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(s.toString()).toBe('app=web,env notin (dev),!legacy,team,tier in (back,front)');
    expect(s.matches({ app: 'web', tier: 'front', team: 'a' })).toBe(true);
    expect(s.matches({ app: 'web', tier: 'front', team: 'a', legacy: '' })).toBe(false);
    expect(s.matches({ app: 'web', tier: 'front', team: 'a', env: 'dev' })).toBe(false);
    expect(s.matches({ app: 'web', tier: 'mid', team: 'a' })).toBe(false);
  });

  it.each<[Parameters<typeof labelSelectorFromObject>[0], string, string]>([
    [
      { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
      'labelSelector.matchExpressions[0]',
      'operator',
    ],
    [
      { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      'labelSelector.matchExpressions[0]',
      'values',
    ],
    [
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      'labelSelector.matchExpressions[0]',
      'values',
    ],
    [{ matchLabels: { 'bad key!': 'x' } }, 'labelSelector.matchLabels', 'key'],
    [{ matchLabels: { k: 'bad value!' } }, 'labelSelector.matchLabels', 'values[0][k]'],
  ])('rejects %j naming %s (%s)', (obj, input, field) => {
    try {
      labelSelectorFromObject(obj);
      expect.unreachable('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidInputError);
      expect((e as InvalidInputError).input).toBe(input);
      expect((e as InvalidInputError).field).toBe(field);
    }
  });
});
