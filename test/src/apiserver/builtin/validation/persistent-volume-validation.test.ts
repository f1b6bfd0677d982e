// PersistentVolumes and claims, with cases from upstream's TestValidatePersistentVolumes, TestValidatePersistentVolumeClaim, their update tables and TestEphemeralVolume.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validatePersistentVolumeClaim } from '../../../../../src/apiserver/builtin/validation/persistent-volume-claim-validation.ts';
import { validatePersistentVolume } from '../../../../../src/apiserver/builtin/validation/persistent-volume-validation.ts';
import { validatePodSpec } from '../../../../../src/apiserver/builtin/validation/pod-spec-validation.ts';
import { causeLines } from './cause-lines.ts';

const pv = (spec: object) =>
  ({
    metadata: { name: 'pv' },
    spec: {
      capacity: { storage: '10G' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/foo' },
      ...spec,
    },
  }) as KubeObject;
const pvc = (spec: object, extra: object = {}) =>
  ({
    metadata: { name: 'c', namespace: 'ns' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10G' } }, ...spec },
    ...extra,
  }) as KubeObject;
const affinity = {
  required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] }] },
};

describe('validatePersistentVolume', () => {
  it.each([
    ['a hostPath volume', {}, []],
    [
      'a local volume with node affinity',
      { hostPath: undefined, local: { path: '/mnt/d' }, nodeAffinity: affinity },
      [],
    ],
    ['a CSI volume', { hostPath: undefined, csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' } }, []],
    ['no access modes', { accessModes: [] }, ['spec.accessModes: Required value']],
    [
      'an unknown access mode',
      { accessModes: ['fakemode'] },
      [
        'spec.accessModes: Unsupported value: "fakemode": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      ],
    ],
    [
      'ReadWriteOncePod with another mode',
      { accessModes: ['ReadWriteOncePod', 'ReadWriteMany'] },
      ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes'],
    ],
    [
      'no capacity',
      { capacity: {} },
      ['spec.capacity: Required value', 'spec.capacity: Unsupported value: {}: supported values: "storage"'],
    ],
    [
      'a capacity other than storage',
      { capacity: { storage: '10G', memory: '1Gi' } },
      ['spec.capacity: Unsupported value: {"storage":"10G","memory":"1Gi"}: supported values: "storage"'],
    ],
    [
      'a zero capacity',
      { capacity: { storage: '0' } },
      ['spec.capacity[storage]: Invalid value: "0": must be greater than zero'],
    ],
    [
      'an unknown reclaim policy',
      { persistentVolumeReclaimPolicy: 'fakeReclaimPolicy' },
      [
        'spec.persistentVolumeReclaimPolicy: Unsupported value: "fakeReclaimPolicy": supported values: "Delete", "Recycle", "Retain"',
      ],
    ],
    ['no volume source', { hostPath: undefined }, ['spec: Required value: must specify a volume type']],
    [
      'two volume sources',
      { nfs: { server: 's', path: '/p' } },
      ['spec.nfs: Forbidden: may not specify more than 1 volume type'],
    ],
    ['a hostPath without a path', { hostPath: {} }, ['spec.hostPath.path: Required value']],
    [
      'a hostPath with backsteps',
      { hostPath: { path: '/foo/..' } },
      [`spec.hostPath.path: Invalid value: "/foo/..": must not contain '..'`],
    ],
    [
      'recycling a hostPath of /',
      { hostPath: { path: '/a/..' }, persistentVolumeReclaimPolicy: 'Recycle' },
      [
        `spec.hostPath.path: Invalid value: "/a/..": must not contain '..'`,
        "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
      ],
    ],
    [
      'a local volume without node affinity',
      { hostPath: undefined, local: { path: '/mnt/d' } },
      ['spec.nodeAffinity: Required value: Local volume requires node affinity'],
    ],
    [
      'node affinity without required terms',
      { nodeAffinity: {} },
      ['spec.nodeAffinity.required: Required value: must specify required node constraints'],
    ],
    [
      'node affinity with no term',
      { nodeAffinity: { required: { nodeSelectorTerms: [] } } },
      [
        'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
      ],
    ],
    [
      'a node selector requirement with a bad operator',
      {
        nodeAffinity: {
          required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'Is' }] }] },
        },
      },
      [
        'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
      ],
    ],
    [
      'an nfs path that is not absolute',
      { hostPath: undefined, nfs: { server: 'host', path: 'rel' } },
      ['spec.nfs.path: Invalid value: "rel": must be an absolute path'],
    ],
    [
      'a csi volume without a handle',
      { hostPath: undefined, csi: { driver: 'd' } },
      ['spec.csi.volumeHandle: Required value'],
    ],
    [
      'an unknown volume mode',
      { volumeMode: 'Disk' },
      ['spec.volumeMode: Unsupported value: "Disk": supported values: "Block", "Filesystem"'],
    ],
    [
      'a storage class that is not a subdomain',
      { storageClassName: 'Fast_Disks' },
      [
        `spec.storageClassName: Invalid value: "Fast_Disks": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validatePersistentVolume(pv(spec)))).toEqual(expected);
  });

  it.each([
    [
      'a new reclaim policy and capacity',
      { persistentVolumeReclaimPolicy: 'Delete', capacity: { storage: '20G' } },
      [],
    ],
    [
      'a new source',
      { hostPath: { path: '/bar' } },
      ['spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation'],
    ],
    [
      'a new volume mode',
      { volumeMode: 'Block' },
      ['volumeMode: Invalid value: "Block": field is immutable'],
    ],
  ])('update: %s', (_name, spec, expected) => {
    expect(causeLines(validatePersistentVolume(pv(spec), pv({})))).toEqual(expected);
  });

  it('lets a CSI volume gain a controllerExpandSecretRef, and nothing else of its source change', () => {
    const csi = { hostPath: undefined, csi: { driver: 'd', volumeHandle: 'h' } };
    const added = {
      hostPath: undefined,
      csi: { driver: 'd', volumeHandle: 'h', controllerExpandSecretRef: { name: 's' } },
    };
    expect(validatePersistentVolume(pv(added), pv(csi))).toEqual([]);
    expect(causeLines(validatePersistentVolume(pv(csi), pv(added)))).toEqual([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
    ]);
  });
});

describe('validatePersistentVolumeClaim', () => {
  it.each([
    ['a claim', {}, []],
    ['a claim cloning another', { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }, []],
    [
      'a claim from a snapshot, by ref too',
      {
        dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' },
        dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' },
      },
      [],
    ],
    [
      'no access modes',
      { accessModes: [] },
      ['spec.accessModes: Required value: at least 1 access mode is required'],
    ],
    ['no storage request', { resources: {} }, ['spec.resources[storage]: Required value']],
    [
      'a selector label value with a space',
      { selector: { matchLabels: { tier: 'a b' } } },
      [
        `spec.selector.matchLabels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      ],
    ],
    [
      'a zero storage request',
      { resources: { requests: { storage: '0' } } },
      ['spec.resources[storage]: Invalid value: "0": must be greater than zero'],
    ],
    [
      'a negative storage request',
      { resources: { requests: { storage: '-1Gi' } } },
      ['spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero'],
    ],
    [
      'an unknown volume mode',
      { volumeMode: 'Disk' },
      ['spec.volumeMode: Unsupported value: "Disk": supported values: "Block", "Filesystem"'],
    ],
    [
      'a data source of another kind in the core group',
      { dataSource: { kind: 'Pod', name: 'p' } },
      [
        `spec.dataSource: Invalid value: "Pod": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
      ],
    ],
    [
      'a data source without a name',
      { dataSource: { kind: 'PersistentVolumeClaim' } },
      ['spec.dataSource.name: Required value'],
    ],
    [
      'a data source that differs from the ref',
      {
        dataSource: { kind: 'PersistentVolumeClaim', name: 'a' },
        dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' },
      },
      ['spec: Invalid value: "spec.dataSource": must match dataSourceRef'],
    ],
    [
      'a data source with a cross-namespace ref',
      {
        dataSource: { kind: 'PersistentVolumeClaim', name: 'a' },
        dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'a', namespace: 'other' },
      },
      [
        'spec: Invalid value: "spec.dataSource": may not be specified when dataSourceRef.namespace is specified',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validatePersistentVolumeClaim(pvc(spec)))).toEqual(expected);
  });

  const bound = { status: { phase: 'Bound', capacity: { storage: '10G' } } };
  it.each([
    ['binding to a volume once', pvc({ volumeName: 'pv-1' }), pvc({}), []],
    ['setting a storage class where there was none', pvc({ storageClassName: 'fast' }), pvc({}), []],
    [
      'growing a bound claim',
      pvc({ resources: { requests: { storage: '20G' } } }, bound),
      pvc({}, bound),
      [],
    ],
    [
      'growing a claim that is not bound',
      pvc({ resources: { requests: { storage: '20G' } } }),
      pvc({}),
      [
        'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ],
    ],
    [
      'shrinking a bound claim below its capacity',
      pvc({ resources: { requests: { storage: '5G' } } }, bound),
      pvc({}, bound),
      ['spec.resources.requests.storage: Forbidden: field can not be less than status.capacity'],
    ],
    [
      'shrinking a bound claim back towards a capacity that failed to grow',
      pvc({ resources: { requests: { storage: '15G' } } }, bound),
      pvc({ resources: { requests: { storage: '20G' } } }, bound),
      [],
    ],
    [
      'changing the access modes',
      pvc({ accessModes: ['ReadOnlyMany'] }),
      pvc({}),
      [
        'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ],
    ],
    [
      'changing the volume mode',
      pvc({ volumeMode: 'Block' }),
      pvc({ volumeMode: 'Filesystem' }),
      [
        'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
        'volumeMode: Invalid value: "Block": field is immutable',
      ],
    ],
    [
      'setting volumeAttributesClassName with its gate off',
      pvc({ volumeAttributesClassName: 'gold' }),
      pvc({}),
      [
        'spec.volumeAttributesClassName: Forbidden: update is forbidden when the VolumeAttributesClass feature gate is disabled',
      ],
    ],
  ])('update: %s', (_name, next, old, expected) => {
    expect(causeLines(validatePersistentVolumeClaim(next, old))).toEqual(expected);
  });
});

describe('an ephemeral volume’s claim template', () => {
  const podSpec = (spec: object) => ({
    containers: [{ name: 'c', image: 'i' }],
    volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec } } }],
  });
  it.each([
    ['a claim spec', { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, []],
    [
      'a template without modes or storage',
      {},
      [
        'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
        'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validatePodSpec(podSpec(spec), 'spec'))).toEqual(expected);
  });
});
