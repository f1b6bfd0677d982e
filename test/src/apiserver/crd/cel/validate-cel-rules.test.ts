// validateCelRules on values: upstream's validation tables for scalars, lists, maps, objects and metadata, in our words.
import { describe, expect, it } from 'vitest';
import { B, I, INT_OR_STRING, listOf, mapOf, N, objectOf, objs, outcome, S, schemas } from './cel-harness.ts';

const BYTES = { type: 'string', format: 'byte' };
const DURATION = { type: 'string', format: 'duration' };
const DATE = { type: 'string', format: 'date' };
const DATE_TIME = { type: 'string', format: 'date-time' };

const LIST_MAP = listOf(objectOf({ k: S, v: S, v2: S }), {
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['k'],
});

/** Each case: a name, a schema, a value, rules that must hold, and rules whose error must contain a text. */
const CASES: [string, ReturnType<typeof schemas>, unknown, string[], Record<string, string>][] = [
  [
    'integers',
    schemas(I, I, I),
    objs(3, 3, 7),
    [
      'self.val1 == self.val2',
      'self.val1 != self.val3',
      'self.val1 == 3',
      'type(self.val1) == int',
      'self.val3 - self.val1 == 4',
      'self.val3 / 2 == 3',
      'self.val3 % 2 == 1',
    ],
    {
      '9223372036854775807 + self.val1 == 0': 'integer overflow',
      '1 / 0 == 1 / 0': 'division by zero',
    },
  ],
  [
    'numbers (an integral JSON number in a number field is a double)',
    schemas(N, N, N),
    objs(1.5, 1.5, 1),
    [
      'self.val1 == self.val2',
      'type(self.val1) == double',
      'type(self.val3) == double',
      'self.val3 == 1.0',
      'self.val1 > self.val3',
    ],
    {},
  ],
  [
    'numeric comparisons across int and double',
    schemas(I, I, I, N, N),
    objs(5, 10, 15, 10.5, 10),
    [
      'double(self.val1) < self.val4',
      'double(self.val2) == self.val5',
      'double(self.val3) > self.val4',
      'self.val1 < int(self.val4)',
      'self.val2 == int(self.val5)',
      'double(5) < 10.0',
      '10 == int(10.0)',
    ],
    { 'self.val1 == 1.0': "found no matching overload for '_==_' applied to '(int, double)'" },
  ],
  [
    'unicode strings and the strings extension',
    schemas(S, S),
    objs('Rook takes 👑', 'Rook takes 👑'),
    [
      'self.val1 == self.val2',
      "self.val1.startsWith('Rook')",
      "!self.val1.startsWith('knight')",
      "self.val1.contains('takes')",
      "self.val1.endsWith('👑')",
      "self.val1.matches('^[^0-9]*$')",
      "!self.val1.matches('^[0-9]*$')",
      'type(self.val1) == string',
      'size(self.val1) == 12',
      "self.val1.charAt(3) == 'k'",
      "self.val1.indexOf('o') == 1",
      "self.val1.indexOf('o', 2) == 2",
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'",
      "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'",
      "self.val1.split(' ') == ['Rook', 'takes', '👑']",
      "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
      "self.val1.substring(5) == 'takes 👑'",
      "self.val1.substring(0, 4) == 'Rook'",
      "self.val1.substring(4, 10).trim() == 'takes'",
      "self.val1.upperAscii() == 'ROOK TAKES 👑'",
      "self.val1.lowerAscii() == 'rook takes 👑'",
    ],
    {},
  ],
  [
    'escaped strings',
    schemas(S),
    objs('l1\nl2'),
    ["self.val1 == 'l1\\nl2'", "self.val1 == '''l1\nl2'''"],
    {},
  ],
  [
    'bytes (format byte)',
    schemas(BYTES, BYTES),
    objs('QUI=', 'QUI='),
    [
      'self.val1 == self.val2',
      "self.val1 == b'AB'",
      "self.val1 == bytes('AB')",
      "self.val1 == b'\\x41\\x42'",
      'type(self.val1) == bytes',
      'size(self.val1) == 2',
    ],
    {},
  ],
  [
    'durations (format duration)',
    schemas(DURATION, DURATION, DURATION),
    objs('1h2m3s4ms', '1h2m3s4ms', '-1.5h'),
    [
      'self.val1 == self.val2',
      "self.val1 == duration('1h2m') + duration('3s4ms')",
      'self.val1.getHours() == 1',
      'self.val1.getMinutes() == 62',
      'self.val1.getSeconds() == 3723',
      'self.val1.getMilliseconds() == 3723004',
      'type(self.val1) == google.protobuf.Duration',
      "self.val3 == duration('-90m')",
      '[self.val1].indexOf(self.val2) == 0',
    ],
    {},
  ],
  [
    'timestamps (formats date and date-time)',
    schemas(DATE, DATE, DATE_TIME, DATE_TIME),
    objs(
      '1997-07-16',
      '1997-07-16',
      '2011-08-18T19:03:37.010000000+01:00',
      '2011-08-18T19:03:37.010000000+01:00',
    ),
    [
      'self.val1 == self.val2',
      "self.val1 == timestamp('1997-07-16T00:00:00.000Z')",
      'self.val1.getDate() == 16',
      'self.val1.getMonth() == 06',
      'self.val1.getFullYear() == 1997',
      'type(self.val1) == google.protobuf.Timestamp',
      'self.val3 == self.val4',
      "self.val3 == timestamp('2011-08-18T19:03:37.010+01:00')",
      "self.val3 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
      "self.val3.getHours('UTC') == 18",
      "self.val3 - self.val1 > duration('1h')",
      '[self.val3].lastIndexOf(self.val4) == 0',
    ],
    {
      "self.val1 == '1997-07-16'":
        "found no matching overload for '_==_' applied to '(google.protobuf.Timestamp, string)'",
    },
  ],
  [
    'booleans',
    schemas(B, B, B),
    objs(true, true, false),
    ['self.val1 == self.val2', 'self.val1 != self.val3', 'type(self.val1) == bool', '!self.val3'],
    {},
  ],
  [
    'enums are strings',
    objectOf({ enumStr: { type: 'string', enum: ['Pending', 'Available'] } }),
    { enumStr: 'Pending' },
    ["self.enumStr == 'Pending'", "self.enumStr in ['Pending', 'Available']"],
    {},
  ],
  [
    'conversions',
    schemas(I, N, N, B, S),
    objs(10, 10.0, 10.49, true, '10'),
    [
      'int(self.val2) == self.val1',
      'int(self.val3) == self.val1',
      'int(self.val5) == self.val1',
      'double(self.val1) == self.val2',
      'double(self.val5) == self.val2',
      'string(self.val1) == self.val5',
      "string(self.val3) == '10.49'",
      "string(self.val4) == 'true'",
    ],
    {},
  ],
  [
    'lists',
    schemas(listOf(I), listOf(I)),
    objs([1, 2, 3], [1, 2, 3]),
    [
      'self.val1 == self.val2',
      'self.val1 == [1, 2, 3]',
      '1 in self.val1',
      'self.val2[0] in self.val1',
      '!(0 in self.val1)',
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]',
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]',
    ],
    {},
  ],
  [
    'maps (equal whatever the key order)',
    schemas(mapOf(S), mapOf(S)),
    objs({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    [
      'self.val1 == self.val2',
      "'k1' in self.val1",
      "!('k3' in self.val1)",
      "self.val1 == {'k1': 'a', 'k2': 'b'}",
    ],
    {},
  ],
  [
    'objects',
    objectOf({ objs: listOf(objectOf({ f1: S, f2: S })) }),
    {
      objs: [
        { f1: 'a', f2: 'b' },
        { f1: 'a', f2: 'b' },
      ],
    },
    ['self.objs[0] == self.objs[1]'],
    { "self.objs[0] == {'f1': 'a', 'f2': 'b'}": "found no matching overload for '_==_'" },
  ],
  [
    'object access (null fields are absent)',
    objectOf({
      a: objectOf({ b: I, c: I, d: { type: 'integer', nullable: true } }),
      a1: objectOf({ b1: objectOf({ c1: I }), d2: objectOf({ e2: I }) }),
    }),
    { a: { b: 1, d: null }, a1: { b1: { c1: 4 } } },
    [
      'has(self.a.b)',
      '!has(self.a.c)',
      '!has(self.a.d)',
      'has(self.a1.b1.c1)',
      '!(has(self.a1.d2) && has(self.a1.d2.e2))',
      '!has(self.a1.d2)',
    ],
    { 'has(self.a.z)': "undefined field 'z'", 'has(self.a1.d2.e2)': 'no such key: d2' },
  ],
  [
    'map access',
    objectOf({ val: mapOf(I) }),
    { val: { b: 1, d: 2 } },
    [
      "!('a' in self.val)",
      "'b' in self.val",
      "'d' in self.val",
      '!has(self.val.a)',
      'has(self.val.b)',
      'self.val.all(k, self.val[k] > 0)',
      'self.val.exists(k, self.val[k] > 1)',
      'self.val.exists_one(k, self.val[k] == 2)',
      '!self.val.exists(k, self.val[k] > 2)',
      '!self.val.exists_one(k, self.val[k] > 0)',
      'size(self.val) == 2',
      'self.val.map(k, self.val[k]).exists(v, v == 1)',
      'size(self.val.filter(k, self.val[k] > 1)) == 1',
    ],
    { "self.val['c'] == 1": 'no such key: c' },
  ],
  [
    'map-list access and the macros',
    objectOf({ listMap: LIST_MAP }),
    {
      listMap: [
        { k: 'a1', v: 'b1' },
        { k: 'a2', v: 'b2' },
        { k: 'a3', v: 'b3', v2: 'z' },
      ],
    },
    [
      "self.listMap.all(m, m.k.startsWith('a'))",
      "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')",
      "self.listMap.exists(m, m.k.endsWith('1'))",
      "self.listMap.exists_one(m, m.k == 'a3')",
      "!self.listMap.all(m, m.k.endsWith('1'))",
      "!self.listMap.exists(m, m.v == 'x')",
      "!self.listMap.exists_one(m, m.k.startsWith('a'))",
      "size(self.listMap.filter(m, m.k == 'a1')) == 1",
      "self.listMap.map(m, m.v).exists(v, v == 'b1')",
      "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')",
      "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1",
      // exists and all absorb an error when another element decides the result
      "self.listMap.exists(m, m.v2 == 'z')",
      "!self.listMap.all(m, m.v2 != 'z')",
    ],
    {
      "self.listMap.all(m, m.v2 == 'z')": 'no such key: v2',
      "self.listMap.exists_one(m, m.v2 == 'z')": 'no such key: v2',
      "self.listMap.filter(m, m.v2 == 'z').size() == 1": 'no such key: v2',
      'self.listMap.map(m, m.v2).size() == 1': 'no such key: v2',
    },
  ],
  [
    'list access',
    objectOf({ array: listOf(I) }),
    { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    [
      '2 in self.array',
      'self.array.all(e, e > 0)',
      'self.array.exists(e, e > 2)',
      'self.array.exists_one(e, e > 4)',
      '!self.array.exists_one(e, e == 2)',
      'size(self.array.filter(e, e%2 == 0)) == 3',
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)',
      'size(self.array) == 8',
    ],
    { 'self.array[100] == 0': 'index out of bounds: 100' },
  ],
  [
    'type and object metadata of the resource root',
    objectOf({ spec: objectOf({ field1: S }) }),
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
      spec: { field1: 'a' },
    },
    [
      "self.kind == 'Pod'",
      "self.apiVersion == 'v1'",
      "self.metadata.name == 'foo'",
      "self.metadata.generateName == 'pickItForMe'",
      "self.spec.field1 == 'a'",
    ],
    { 'has(self.metadata.namespace)': "undefined field 'namespace'" },
  ],
  [
    'embedded resources show apiVersion, kind, metadata.name and generateName only',
    objectOf({
      embedded: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
    }),
    {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
        spec: { field1: 'a' },
      },
    },
    [
      "self.embedded.kind == 'Pod'",
      "self.embedded.apiVersion == 'v1'",
      "self.embedded.metadata.name == 'foo'",
      "self.embedded.metadata.generateName == 'pickItForMe'",
      'has(self.embedded)',
    ],
    {
      'has(self.embedded.metadata.namespace)': "undefined field 'namespace'",
      'has(self.embedded.spec)': "undefined field 'spec'",
    },
  ],
  [
    'a string in an int-or-string',
    objectOf({ something: INT_OR_STRING }),
    { something: '25%' },
    [
      "self.something == '25%'",
      'self.something != 1',
      "self.something == 1 || self.something == '25%'",
      "type(self.something) == string && self.something == '25%'",
      "type(self.something) == int ? self.something == 1 : self.something == '25%'",
      "self.something != ['anything']",
    ],
    {},
  ],
  [
    'an int in an int-or-string',
    objectOf({ something: INT_OR_STRING }),
    { something: 1 },
    [
      'self.something == 1',
      "self.something != 'some string'",
      'type(self.something) == int && self.something == 1',
    ],
    {},
  ],
  [
    'a percentage compared through an int-or-string',
    objectOf({ min: INT_OR_STRING, current: I, available: I }),
    { min: '50%', current: 5, available: 10 },
    [
      "type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')",
      "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
    ],
    {},
  ],
  [
    'property names escaped for CEL',
    objectOf({ 'foo-bar': S, 'a.b': S, if: S, x__y: S, 'c/d': S }),
    { 'foo-bar': 'q', 'a.b': 'r', if: 's', x__y: 't', 'c/d': 'u' },
    [
      "self.foo__dash__bar == 'q'",
      "self.a__dot__b == 'r'",
      "self.__if__ == 's'",
      "self.x__underscores__y == 't'",
      "self.c__slash__d == 'u'",
    ],
    { "self.foo == 'q'": "undefined field 'foo'" },
  ],
];

describe('validateCelRules on values (upstream TestValidationExpressions)', () => {
  const valid = CASES.flatMap(([name, schema, obj, rules]) =>
    rules.map((r) => [name, r, schema, obj] as const),
  );
  it.each(valid)('%s: %s holds', (_name, rule, schema, obj) => {
    expect(outcome(schema, obj, rule)).toEqual([]);
  });

  const errors = CASES.flatMap(([name, schema, obj, , errs]) =>
    Object.entries(errs).map(([r, text]) => [name, r, text, schema, obj] as const),
  );
  it.each(errors)('%s: %s fails with "%s"', (_name, rule, text, schema, obj) => {
    const out = outcome(schema, obj, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});
