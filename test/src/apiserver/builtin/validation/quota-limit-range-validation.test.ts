// ResourceQuotas and LimitRanges, with cases from upstream's TestValidateResourceQuota and TestValidateLimitRange tables.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateLimitRange } from '../../../../../src/apiserver/builtin/validation/limit-range-validation.ts';
import { validateResourceQuota } from '../../../../../src/apiserver/builtin/validation/resource-quota-validation.ts';
import { causeLines } from './cause-lines.ts';

const withSpec = (spec: object) => ({ metadata: { name: 'o', namespace: 'ns' }, spec }) as KubeObject;

describe('validateResourceQuota', () => {
  it.each([
    [
      'compute and object counts',
      {
        hard: {
          cpu: '100',
          memory: '10000',
          'requests.cpu': '100',
          pods: '5',
          'count/deployments.apps': '10',
        },
      },
      [],
    ],
    ['a scope fitting pods', { hard: { pods: '5' }, scopes: ['BestEffort'] }, []],
    [
      'a priority class selector',
      {
        hard: { pods: '5' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      },
      [],
    ],
    [
      'a negative quantity',
      { hard: { cpu: '-10' } },
      ['spec.hard[cpu]: Invalid value: "-10": must be greater than or equal to 0'],
    ],
    [
      'a fractional count',
      { hard: { pods: '2.5' } },
      ['spec.hard[pods]: Invalid value: "2500m": must be an integer'],
    ],
    [
      'a name that is not standard',
      { hard: { foo: '1' } },
      [
        'spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
        'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
      ],
    ],
    [
      'storage, which quota does not know',
      { hard: { storage: '10Gi' } },
      ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota'],
    ],
    [
      'an unknown scope',
      { hard: { pods: '5' }, scopes: ['Big'] },
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Big"}: unsupported scope'],
    ],
    [
      'BestEffort on cpu',
      { hard: { cpu: '1' }, scopes: ['BestEffort'] },
      [
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource',
      ],
    ],
    [
      'conflicting scopes',
      { hard: { pods: '5' }, scopes: ['Terminating', 'NotTerminating'] },
      [
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating", "NotTerminating"}: conflicting scopes',
      ],
    ],
    [
      'a BestEffort selector with In',
      {
        hard: { pods: '5' },
        scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'In', values: ['x'] }] },
      },
      [
        'spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
      ],
    ],
    [
      'a priority class selector without values',
      {
        hard: { pods: '5' },
        scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'NotIn' }] },
      },
      [
        "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateResourceQuota(withSpec(spec)))).toEqual(expected);
  });
});

describe('validateLimitRange', () => {
  const limits = (...items: object[]) => ({ limits: items });
  it.each([
    [
      'container defaults inside the bounds',
      limits({
        type: 'Container',
        max: { cpu: '2', memory: '1Gi' },
        min: { cpu: '100m', memory: '10Mi' },
        default: { cpu: '1', memory: '512Mi' },
        defaultRequest: { cpu: '500m', memory: '256Mi' },
        maxLimitRequestRatio: { cpu: '4' },
      }),
      [],
    ],
    [
      'a claim storage range',
      limits({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }),
      [],
    ],
    ['a pod maximum', limits({ type: 'Pod', max: { cpu: '4' } }), []],
    [
      'an unknown unqualified type',
      limits({ type: 'Node' }),
      ['spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified'],
    ],
    [
      'one type twice',
      limits({ type: 'Container' }, { type: 'Container' }),
      ['spec.limits[1].type: Duplicate value: "Container"'],
    ],
    [
      'defaults on the Pod type',
      limits({ type: 'Pod', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }),
      [
        "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
        "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'",
      ],
    ],
    [
      'a resource no container uses',
      limits({ type: 'Container', max: { storage: '1Gi' } }),
      ['spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers'],
    ],
    [
      'a claim range without storage',
      limits({ type: 'PersistentVolumeClaim' }),
      [
        'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
      ],
    ],
    [
      'min above max',
      limits({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }),
      ['spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1'],
    ],
    [
      'a default request above the default',
      limits({ type: 'Container', default: { memory: '1Gi' }, defaultRequest: { memory: '2Gi' } }),
      [
        'spec.limits[0].defaultRequest[memory]: Invalid value: "2Gi": default request value 2Gi is greater than default limit value 1Gi',
      ],
    ],
    [
      'a default above max',
      limits({ type: 'Container', default: { cpu: '3' }, max: { cpu: '2' } }),
      ['spec.limits[0].default[cpu]: Invalid value: "2": default value 3 is greater than max value 2'],
    ],
    [
      'a ratio below 1',
      limits({ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }),
      ['spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1'],
    ],
    [
      'a ratio above max/min',
      limits({
        type: 'Container',
        min: { memory: '1Gi' },
        max: { memory: '2Gi' },
        maxLimitRequestRatio: { memory: '3' },
      }),
      [
        'spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
      ],
    ],
    [
      'hugepages defaults that differ',
      limits({
        type: 'Container',
        default: { 'hugepages-2Mi': '4Mi' },
        defaultRequest: { 'hugepages-2Mi': '2Mi' },
      }),
      [
        'spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateLimitRange(withSpec(spec)))).toEqual(expected);
  });
});
