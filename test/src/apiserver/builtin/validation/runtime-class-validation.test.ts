// RuntimeClasses, with cases from upstream's TestValidateRuntimeClass, TestValidateOverhead, TestValidateScheduling and TestValidateRuntimeUpdate.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateRuntimeClass } from '../../../../../src/apiserver/builtin/validation/runtime-class-validation.ts';
import { causeLines } from './cause-lines.ts';

const rc = (fields: object) => ({ metadata: { name: 'r' }, handler: 'runc', ...fields }) as KubeObject;

describe('validateRuntimeClass', () => {
  it.each([
    ['a handler', {}, []],
    ['an overhead', { overhead: { podFixed: { cpu: '250m', memory: '64Mi' } } }, []],
    [
      'scheduling',
      {
        scheduling: {
          nodeSelector: { sandboxed: 'true' },
          tolerations: [{ key: 'sandboxed', operator: 'Exists', effect: 'NoSchedule' }],
        },
      },
      [],
    ],
    [
      'an empty handler',
      { handler: '' },
      [
        `handler: Invalid value: "": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'a handler with a dot',
      { handler: 'run.c' },
      [
        `handler: Invalid value: "run.c": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'a negative overhead',
      { overhead: { podFixed: { cpu: '-1' } } },
      ['overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      'a toleration value with Exists',
      { scheduling: { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] } },
      [
        'scheduling.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
      ],
    ],
  ])('%s', (_name, fields, expected) => {
    expect(causeLines(validateRuntimeClass(rc(fields)))).toEqual(expected);
  });

  it('keeps the handler on update, naming its new value', () => {
    expect(validateRuntimeClass(rc({ overhead: {} }), rc({}))).toEqual([]);
    expect(causeLines(validateRuntimeClass(rc({ handler: 'runsc' }), rc({})))).toEqual([
      'handler: Invalid value: "runsc": field is immutable',
    ]);
  });
});
