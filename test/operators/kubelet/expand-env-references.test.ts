// expandEnvReferences: cases ported from the kubelet's forked expansion tests (TestMapReference, TestMapping).
import { describe, expect, it } from 'vitest';
import { expandEnvReferences } from '../../../operators/kubelet/expand-env-references.ts';

const vars: Record<string, string> = {
  VAR_A: 'A',
  VAR_B: 'B',
  VAR_C: 'C',
  VAR_REF: '$(VAR_A)',
  VAR_EMPTY: '',
};
const lookup = (name: string) => vars[name];

describe('expandEnvReferences', () => {
  it.each([
    ['whole string', '$(VAR_A)', 'A'],
    ['repeat', '$(VAR_A)-$(VAR_A)', 'A-A'],
    ['beginning', '$(VAR_A)-1', 'A-1'],
    ['middle', '___$(VAR_B)___', '___B___'],
    ['end', '___$(VAR_C)', '___C'],
    ['compound', '$(VAR_A)_$(VAR_B)_$(VAR_C)', 'A_B_C'],
    ['escape and expansion', '$$(VAR_B)_$(VAR_A)', '$(VAR_B)_A'],
    ['a value that is a reference is not expanded again', '$(VAR_REF)', '$(VAR_A)'],
    ['empty value', 'x$(VAR_EMPTY)y', 'xy'],
    ['unknown name stays', '$(VAR_DNE)', '$(VAR_DNE)'],
    ['empty name stays', '$()', '$()'],
    ['unterminated reference stays', '$(VAR_A', '$(VAR_A'],
    ['dollar before another character stays', '$VAR_A', '$VAR_A'],
    ['trailing dollar', 'abc$', 'abc$'],
    ['double escape', '$$$$', '$$'],
    ['escape then unknown', '$$$(VAR_DNE)', '$$(VAR_DNE)'],
    ['no references', 'plain text', 'plain text'],
  ])('%s', (_name, input, expected) => {
    expect(expandEnvReferences(input, lookup)).toBe(expected);
  });
});
