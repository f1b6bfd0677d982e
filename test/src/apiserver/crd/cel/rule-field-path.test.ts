// ruleFieldPath: a rule's fieldPath checked against the schema and normalized (after upstream's ValidFieldPath tests).
import { describe, expect, it } from 'vitest';
import { ruleFieldPath } from '../../../../../src/apiserver/crd/cel/rule-field-path.ts';
import { I, listOf, mapOf, objectOf, S } from './cel-harness.ts';

const SCHEMA = objectOf({
  a: objectOf({ b: S, 'c.d': I }),
  labels: mapOf(objectOf({ x: S })),
  list: listOf(S),
});

describe('ruleFieldPath', () => {
  it.each([
    ['.a', 'a'],
    ['.a.b', 'a.b'],
    [".a['b']", 'a.b'],
    [".a['c.d']", 'a.c.d'],
    [".labels['k1']", 'labels[k1]'],
    ['.labels.k1.x', 'labels[k1].x'],
    [".labels['it\\'s']", "labels[it's]"],
    ['.list', 'list'],
  ])('%s is the path %s', (path, want) => {
    expect(ruleFieldPath(path, SCHEMA)).toEqual({ path: want });
  });

  it.each([
    ['.zz', 'does not refer to a valid field'],
    ['.a.zz', 'does not refer to a valid field'],
    ['.list.x', 'does not refer to a valid field'],
    ['.list[0]', 'expected single quoted string but got 0]'],
    ['a', 'expected [ or . but got: a'],
    ['.', 'unexpected end of JSON path'],
    [".a['b\\q']", 'invalid string literal: invalid escape char \\q'],
  ])('%s is refused: %s', (path, error) => {
    expect(ruleFieldPath(path, SCHEMA)).toEqual({ error });
  });
});
