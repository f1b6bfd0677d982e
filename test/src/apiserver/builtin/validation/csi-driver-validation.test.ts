// CSIDrivers, with cases from upstream's TestCSIDriverValidation and TestCSIDriverValidationUpdate tables.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateCSIDriver } from '../../../../../src/apiserver/builtin/validation/csi-driver-validation.ts';
import { causeLines } from './cause-lines.ts';

const driver = (spec: object) => ({ metadata: { name: 'ebs.csi.aws.com' }, spec }) as KubeObject;

describe('validateCSIDriver', () => {
  it.each([
    ['defaults', {}, []],
    [
      'every field',
      {
        attachRequired: false,
        podInfoOnMount: true,
        fsGroupPolicy: 'File',
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
        tokenRequests: [{ audience: 'gcp' }, { audience: '', expirationSeconds: 3600 }],
      },
      [],
    ],
    [
      'an unknown fsGroupPolicy',
      { fsGroupPolicy: 'Always' },
      [
        'spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      ],
    ],
    [
      'an unknown lifecycle mode',
      { volumeLifecycleModes: ['Inline'] },
      ['spec.volumeLifecycleModes: Unsupported value: "Inline": supported values: "Persistent", "Ephemeral"'],
    ],
    [
      'one audience twice',
      { tokenRequests: [{ audience: 'a' }, { audience: 'a', expirationSeconds: 1 }] },
      ['spec.tokenRequests[1].audience: Duplicate value: "a"'],
    ],
    [
      'a token lifetime under 10 minutes',
      { tokenRequests: [{ audience: 'a', expirationSeconds: 599 }] },
      [
        'spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateCSIDriver(driver(spec)))).toEqual(expected);
  });

  it.each([
    ['podInfoOnMount, which may change', { podInfoOnMount: true }, []],
    ['defaults written out', { attachRequired: true, volumeLifecycleModes: ['Persistent'] }, []],
    [
      'attachRequired',
      { attachRequired: false },
      ['spec.attachedRequired: Invalid value: false: field is immutable'],
    ],
    [
      'the lifecycle modes',
      { volumeLifecycleModes: ['Ephemeral'] },
      [
        'spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Ephemeral"}: field is immutable',
      ],
    ],
  ])('update: %s', (_name, spec, expected) => {
    expect(causeLines(validateCSIDriver(driver(spec), driver({})))).toEqual(expected);
  });
});
