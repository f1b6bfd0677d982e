// keyUsagesFor: spec.usages as key usage bits and extended key usage OIDs, unknown names refused (upstream's keyUsagesFromStrings cases).
import { describe, expect, it } from 'vitest';
import { keyUsagesFor } from '../../../../operators/controller/certificates/key-usages.ts';

describe('keyUsagesFor', () => {
  it.each<[string, string[], ReturnType<typeof keyUsagesFor>]>([
    [
      'a client certificate',
      ['digital signature', 'key encipherment', 'client auth'],
      { keyUsage: ['digitalSignature', 'keyEncipherment'], extKeyUsage: ['1.3.6.1.5.5.7.3.2'] },
    ],
    [
      'signing is digital signature, once',
      ['signing', 'digital signature'],
      { keyUsage: ['digitalSignature'], extKeyUsage: [] },
    ],
    [
      's/mime is email protection, once',
      ['s/mime', 'email protection'],
      { keyUsage: [], extKeyUsage: ['1.3.6.1.5.5.7.3.4'] },
    ],
    [
      'server auth and any',
      ['server auth', 'any'],
      { keyUsage: [], extKeyUsage: ['1.3.6.1.5.5.7.3.1', '2.5.29.37.0'] },
    ],
    ['nothing', [], { keyUsage: [], extKeyUsage: [] }],
    ['an unknown name', ['client auth', 'fly'], { error: 'unrecognized usage values: ["fly"]' }],
    ['two unknown names', ['Client Auth', 'x'], { error: 'unrecognized usage values: ["Client Auth" "x"]' }],
  ])('%s', (_name, usages, want) => {
    expect(keyUsagesFor(usages)).toEqual(want);
  });
});
