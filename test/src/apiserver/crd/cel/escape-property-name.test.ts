// escapePropertyName: schema property names as CEL field names, escaped as Kubernetes escapes them.
import { describe, expect, it } from 'vitest';
import { escapePropertyName } from '../../../../../src/apiserver/crd/cel/escape-property-name.ts';

describe('escapePropertyName', () => {
  it.each([
    ['name', 'name'],
    ['foo-bar', 'foo__dash__bar'],
    ['a.b', 'a__dot__b'],
    ['x/y', 'x__slash__y'],
    ['a__b', 'a__underscores__b'],
    ['_leading', '_leading'],
    ['namespace', '__namespace__'],
    ['if', '__if__'],
    ['true', '__true__'],
    ['-dash', '__dash__dash'],
  ])('%s is %s', (name, want) => {
    expect(escapePropertyName(name)).toBe(want);
  });

  it.each(['1abc', 'a b', 'a:b', 'ünïcode', ''])('%j cannot be reached from CEL', (name) => {
    expect(escapePropertyName(name)).toBeUndefined();
  });
});
