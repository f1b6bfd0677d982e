// PodDisruptionBudgets, PriorityClasses, StorageClasses and Leases, with cases from upstream's TestValidatePodDisruptionBudgetSpec, TestValidatePriorityClass(Update), TestValidateStorageClass(Update) and TestValidateLease tables.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateLease } from '../../../../../src/apiserver/builtin/validation/lease-validation.ts';
import { validatePodDisruptionBudget } from '../../../../../src/apiserver/builtin/validation/pod-disruption-budget-validation.ts';
import { validatePriorityClass } from '../../../../../src/apiserver/builtin/validation/priority-class-validation.ts';
import { validateStorageClass } from '../../../../../src/apiserver/builtin/validation/storage-class-validation.ts';
import { causeLines } from './cause-lines.ts';

const withSpec = (spec: object) => ({ metadata: { name: 'o', namespace: 'ns' }, spec }) as KubeObject;
const PERCENT = `a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`;

describe('validatePodDisruptionBudget', () => {
  it.each([
    ['a count', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } }, []],
    ['a percent', { maxUnavailable: '10%', unhealthyPodEvictionPolicy: 'AlwaysAllow' }, []],
    [
      'both minAvailable and maxUnavailable',
      { minAvailable: 1, maxUnavailable: 1 },
      [
        'spec: Invalid value: {"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set',
      ],
    ],
    [
      'a negative count',
      { minAvailable: -1 },
      ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'a percent above 100',
      { maxUnavailable: '110%' },
      [
        'spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%',
      ],
    ],
    [
      'a string that is no percent',
      { minAvailable: 'half' },
      [`spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: ${PERCENT}`],
    ],
    [
      'an unknown eviction policy',
      { minAvailable: 1, unhealthyPodEvictionPolicy: 'Always' },
      [
        'spec.unhealthyPodEvictionPolicy: Unsupported value: "Always": supported values: "AlwaysAllow", "IfHealthyBudget"',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validatePodDisruptionBudget(withSpec(spec)))).toEqual(expected);
  });
});

describe('validatePriorityClass', () => {
  const pc = (name: string, fields: object) => ({ metadata: { name }, ...fields }) as KubeObject;
  it.each([
    ['a user class', pc('high', { value: 1000 }), []],
    ['the highest user value', pc('top', { value: 1000000000, preemptionPolicy: 'Never' }), []],
    ['a known system class', pc('system-node-critical', { value: 2000001000 }), []],
    [
      'an unknown system class',
      pc('system-mine', { value: 1 }),
      [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
      ],
    ],
    [
      'a system class with another value',
      pc('system-cluster-critical', { value: 5 }),
      [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000",
      ],
    ],
    [
      'a system class as global default',
      pc('system-cluster-critical', { value: 2000000000, globalDefault: true }),
      [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false",
      ],
    ],
    [
      'a user value too high',
      pc('tier', { value: 1000000001 }),
      ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'],
    ],
    [
      'an unknown preemption policy',
      pc('tier', { value: 1, preemptionPolicy: 'Always' }),
      ['preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"'],
    ],
  ])('%s', (_name, object, expected) => {
    expect(causeLines(validatePriorityClass(object))).toEqual(expected);
  });

  it.each([
    ['a description change', { value: 1, description: 'x' }, []],
    ['a new value', { value: 2 }, ['value: Forbidden: may not be changed in an update.']],
    [
      'a new preemption policy',
      { value: 1, preemptionPolicy: 'Never' },
      ['preemptionPolicy: Invalid value: "Never": field is immutable'],
    ],
  ])('update: %s', (_name, fields, expected) => {
    expect(causeLines(validatePriorityClass(pc('tier', fields), pc('tier', { value: 1 })))).toEqual(expected);
  });
});

describe('validateStorageClass', () => {
  const sc = (fields: object) =>
    ({ metadata: { name: 'fast' }, provisioner: 'kubernetes.io/foo-provisioner', ...fields }) as KubeObject;
  it.each([
    [
      'a class',
      { parameters: { foo: 'bar' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' },
      [],
    ],
    [
      'allowed topologies',
      {
        allowedTopologies: [
          { matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a', 'b'] }] },
        ],
      },
      [],
    ],
    ['no provisioner', { provisioner: '' }, ['provisioner: Required value']],
    [
      'a provisioner that is no qualified name',
      { provisioner: 'invalid/yaml/provisioner' },
      [
        `provisioner: Invalid value: "invalid/yaml/provisioner": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ],
    [
      'an empty parameter key',
      { parameters: { '': 'x' } },
      ['parameters: Invalid value: "": field can not be empty.'],
    ],
    [
      'a Recycle reclaim policy',
      { reclaimPolicy: 'Recycle' },
      ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"'],
    ],
    [
      'an unknown binding mode',
      { volumeBindingMode: 'Later' },
      [
        'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
      ],
    ],
    [
      'a topology expression without values, twice',
      {
        allowedTopologies: [
          { matchLabelExpressions: [{ key: 'zone', values: [] }] },
          { matchLabelExpressions: [{ key: 'zone', values: [] }] },
        ],
      },
      [
        'allowedTopologies[0].matchLabelExpressions[0].values: Required value: must specify as least one value',
        'allowedTopologies[1].matchLabelExpressions[0].values: Required value: must specify as least one value',
        'allowedTopologies[1]: Duplicate value: {"matchLabelExpressions":[{"key":"zone","values":[]}]}',
      ],
    ],
  ])('%s', (_name, fields, expected) => {
    expect(causeLines(validateStorageClass(sc(fields)))).toEqual(expected);
  });

  it.each([
    ['labels only', { metadata: { name: 'fast', labels: { a: 'b' } } }, []],
    ['a defaulted policy written out', { reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }, []],
    [
      'new parameters',
      { parameters: { kind: 'new' } },
      ['parameters: Forbidden: updates to parameters are forbidden.'],
    ],
    [
      'a new provisioner',
      { provisioner: 'example.com/x' },
      ['provisioner: Forbidden: updates to provisioner are forbidden.'],
    ],
    [
      'a new reclaim policy',
      { reclaimPolicy: 'Retain' },
      ['reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.'],
    ],
    [
      'a new binding mode',
      { volumeBindingMode: 'WaitForFirstConsumer' },
      ['volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable'],
    ],
  ])('update: %s', (_name, fields, expected) => {
    expect(causeLines(validateStorageClass(sc(fields), sc({})))).toEqual(expected);
  });
});

describe('validateLease', () => {
  it.each([
    ['a held lease', { holderIdentity: 'node-1', leaseDurationSeconds: 40, leaseTransitions: 0 }, []],
    ['a preferred holder with a strategy', { preferredHolder: 'a', strategy: 'OldestEmulationVersion' }, []],
    [
      'a zero duration',
      { leaseDurationSeconds: 0 },
      ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0'],
    ],
    [
      'negative transitions',
      { leaseTransitions: -1 },
      ['spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'a preferred holder without a strategy',
      { preferredHolder: 'a' },
      ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined'],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateLease(withSpec(spec)))).toEqual(expected);
  });
});
