// A pod's volumes, with cases from upstream's TestValidateVolumes, TestValidateProjectedVolume and downward API tests.
import { describe, expect, it } from 'vitest';
import { validateVolumes } from '../../../../../src/apiserver/builtin/validation/volume-validation.ts';
import { causeLines } from './cause-lines.ts';

const v0 = 'spec.volumes[0]';
const one = (volume: object) => validateVolumes([{ name: 'v', ...volume }], 'spec.volumes');

describe('validateVolumes', () => {
  it.each([
    ['emptyDir', { emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } }, []],
    ['hostPath', { hostPath: { path: '/var/log', type: 'Directory' } }, []],
    [
      'secret with items',
      { secret: { secretName: 's', defaultMode: 0o644, items: [{ key: 'k', path: 'dir/file' }] } },
      [],
    ],
    ['configMap', { configMap: { name: 'cm' } }, []],
    ['a claim', { persistentVolumeClaim: { claimName: 'data' } }, []],
    [
      'downwardAPI',
      { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      [],
    ],
    [
      'projected token, configMap and downwardAPI',
      {
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
            { configMap: { name: 'ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] },
            },
          ],
        },
      },
      [],
    ],
    ['no source', {}, [`${v0}: Required value: must specify a volume type`]],
    [
      'two sources',
      { emptyDir: {}, hostPath: { path: '/x' } },
      [`${v0}.hostPath: Forbidden: may not specify more than 1 volume type`],
    ],
    [
      'a negative size limit',
      { emptyDir: { sizeLimit: '-1Mi' } },
      [`${v0}.emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity`],
    ],
    ['a hostPath without a path', { hostPath: {} }, [`${v0}.hostPath.path: Required value`]],
    [
      'a hostPath that climbs',
      { hostPath: { path: '/a/../etc' } },
      [`${v0}.hostPath.path: Invalid value: "/a/../etc": must not contain '..'`],
    ],
    [
      'an unknown hostPath type',
      { hostPath: { path: '/a', type: 'Pipe' } },
      [
        `${v0}.hostPath.type: Unsupported value: "Pipe": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"`,
      ],
    ],
    ['a secret without a name', { secret: {} }, [`${v0}.secret.secretName: Required value`]],
    [
      'a secret mode over 0777',
      { secret: { secretName: 's', defaultMode: 0o1000 } },
      [
        `${v0}.secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive`,
      ],
    ],
    [
      'configMap items with an absolute path, a reserved path and no key',
      {
        configMap: {
          name: 'cm',
          items: [{ key: 'a', path: '/etc/x' }, { key: 'b', path: '..data' }, { path: 'c' }],
        },
      },
      [
        `${v0}.configMap.items[0].path: Invalid value: "/etc/x": must be a relative path`,
        `${v0}.configMap.items[1].path: Invalid value: "..data": must not start with '..'`,
        `${v0}.configMap.items[2].key: Required value`,
      ],
    ],
    ['a configMap without a name', { configMap: {} }, [`${v0}.configMap.name: Required value`]],
    [
      'a claim without a name',
      { persistentVolumeClaim: {} },
      [`${v0}.persistentVolumeClaim.claimName: Required value`],
    ],
    [
      'a downward file with no reference',
      { downwardAPI: { items: [{ path: 'x' }] } },
      [`${v0}.downwardAPI: Required value: one of fieldRef and resourceFieldRef is required`],
    ],
    [
      'a downward file of a field volumes cannot show',
      { downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: 'spec.nodeName' } }] } },
      [
        `${v0}.downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`,
      ],
    ],
    [
      'a downward resource file without a container',
      { downwardAPI: { items: [{ path: 'x', resourceFieldRef: { resource: 'limits.cpu' } }] } },
      [`${v0}.downwardAPI.resourceFieldRef.containerName: Required value`],
    ],
    [
      'a projected token living under 10 minutes',
      { projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 60 } }] } },
      [
        `${v0}.projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes`,
      ],
    ],
    [
      'a projected source of two kinds',
      { projected: { sources: [{ secret: { name: 's' }, configMap: { name: 'c' } }] } },
      [`${v0}.projected.sources[0]: Forbidden: may not specify more than 1 volume type per source`],
    ],
    [
      'projected files at one path',
      {
        projected: {
          sources: [
            { secret: { name: 's', items: [{ key: 'a', path: 'x' }] } },
            { configMap: { name: 'c', items: [{ key: 'b', path: 'x' }] } },
          ],
        },
      },
      [`${v0}.projected: Invalid value: "c": conflicting duplicate paths`],
    ],
    [
      'an ephemeral volume without a template',
      { ephemeral: {} },
      [`${v0}.ephemeral.volumeClaimTemplate: Required value`],
    ],
  ])('%s', (_name, volume, expected) => {
    expect(causeLines(one(volume))).toEqual(expected);
  });

  it('names are unique DNS labels', () => {
    expect(
      causeLines(
        validateVolumes(
          [
            { name: 'a', emptyDir: {} },
            { name: 'a', emptyDir: {} },
            { name: 'A_b', emptyDir: {} },
            { emptyDir: {} },
          ],
          'spec.volumes',
        ),
      ),
    ).toEqual([
      'spec.volumes[1].name: Duplicate value: "a"',
      `spec.volumes[2].name: Invalid value: "A_b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.volumes[3].name: Required value',
    ]);
  });
});
