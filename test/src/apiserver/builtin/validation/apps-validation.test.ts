// Deployments, ReplicaSets, StatefulSets and DaemonSets, with cases from upstream's apps validation tests.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { APPS_VALIDATORS } from '../../../../../src/apiserver/builtin/validation/apps-validation.ts';
import { causeLines } from './cause-lines.ts';

const labels = { app: 'web' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const workload = (spec: object) =>
  ({ metadata: { name: 'w' }, spec: { selector: { matchLabels: labels }, template, ...spec } }) as KubeObject;
const validate = (resource: string, spec: object, old?: object) =>
  causeLines(APPS_VALIDATORS[`apps/${resource}`]!(workload(spec), old ? workload(old) : undefined));
const intstr = (v: number | string) =>
  typeof v === 'string'
    ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`
    : `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`;
const rolling = (rollingUpdate: object) => ({ strategy: { type: 'RollingUpdate', rollingUpdate } });
const ru = 'spec.strategy.rollingUpdate';

describe('Deployment validation', () => {
  it.each([
    [
      'the defaults',
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } },
      [],
    ],
    ['surge only', rolling({ maxSurge: 1, maxUnavailable: 0 }), []],
    ['Recreate', { strategy: { type: 'Recreate' } }, []],
    ['a deadline over minReadySeconds', { minReadySeconds: 10, progressDeadlineSeconds: 11 }, []],
    ['a revision history of 0', { revisionHistoryLimit: 0 }, []],
    [
      'both 0',
      rolling({ maxSurge: 0, maxUnavailable: 0 }),
      [`${ru}.maxUnavailable: Invalid value: ${intstr(0)}: may not be 0 when \`maxSurge\` is 0`],
    ],
    [
      'both 0%',
      rolling({ maxSurge: '0%', maxUnavailable: '0%' }),
      [`${ru}.maxUnavailable: Invalid value: ${intstr('0%')}: may not be 0 when \`maxSurge\` is 0`],
    ],
    [
      'a percent without %',
      rolling({ maxSurge: '20', maxUnavailable: 1 }),
      [
        `${ru}.maxSurge: Invalid value: ${intstr('20')}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
      ],
    ],
    [
      'a negative count',
      rolling({ maxSurge: -1, maxUnavailable: 1 }),
      [`${ru}.maxSurge: Invalid value: -1: must be greater than or equal to 0`],
    ],
    [
      'more than 100% unavailable',
      rolling({ maxSurge: 0, maxUnavailable: '110%' }),
      [`${ru}.maxUnavailable: Invalid value: ${intstr('110%')}: must not be greater than 100%`],
    ],
    [
      'rollingUpdate under Recreate',
      { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } },
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      'a negative revision history',
      { revisionHistoryLimit: -1 },
      ['spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'a deadline not over minReadySeconds',
      { minReadySeconds: 10, progressDeadlineSeconds: 10 },
      ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds'],
    ],
    [
      'a negative minReadySeconds',
      { minReadySeconds: -1 },
      ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'an empty selector',
      { selector: {} },
      ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'],
    ],
    [
      'an expression the template labels miss',
      { selector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] } },
      [
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'a template that restarts OnFailure',
      { template: { ...template, spec: { ...template.spec, restartPolicy: 'OnFailure' } } },
      ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
    [
      'a template with a deadline',
      { template: { ...template, spec: { ...template.spec, activeDeadlineSeconds: 30 } } },
      [
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
      ],
    ],
    [
      'a template whose pod spec is invalid',
      {
        template: {
          ...template,
          spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 0 }] }] },
        },
      },
      ['spec.template.spec.containers[0].ports[0].containerPort: Required value'],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(validate('deployments', spec)).toEqual(expected);
  });

  it('leaves a matchLabels mismatch to the generic object validation, reported once', () => {
    expect(validate('deployments', { selector: { matchLabels: { app: 'db' } } })).toEqual([]);
  });
});

describe('ReplicaSet validation', () => {
  it.each([
    ['a plain one', {}, []],
    [
      'an empty selector',
      { selector: {} },
      ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(validate('replicasets', spec)).toEqual(expected);
  });
});

describe('StatefulSet validation', () => {
  it.each([
    ['a plain one', { serviceName: 'web', podManagementPolicy: 'Parallel' }, []],
    ['OnDelete', { updateStrategy: { type: 'OnDelete' } }, []],
    [
      'an unknown pod management policy',
      { podManagementPolicy: 'Burst' },
      ["spec.podManagementPolicy: Invalid value: \"Burst\": must be 'OrderedReady' or 'Parallel'"],
    ],
    [
      'rollingUpdate under OnDelete',
      { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } },
      [
        'spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\'',
      ],
    ],
    [
      'a negative partition',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } },
      ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'an unknown update strategy',
      { updateStrategy: { type: 'Blue' } },
      ['spec.updateStrategy: Invalid value: {"type":"Blue"}: must be \'RollingUpdate\' or \'OnDelete\''],
    ],
    [
      'an unknown retention policy',
      { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } },
      [
        'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      ],
    ],
    [
      'a negative start ordinal',
      { ordinals: { start: -1 } },
      ['spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'an empty selector',
      { selector: {} },
      ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset'],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(validate('statefulsets', spec)).toEqual(expected);
  });

  it('an update may change replicas, template, strategy and minReadySeconds, not the rest', () => {
    expect(validate('statefulsets', { replicas: 5, minReadySeconds: 3 }, { replicas: 1 })).toEqual([]);
    expect(validate('statefulsets', { serviceName: 'b' }, { serviceName: 'a' })).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });
});

describe('DaemonSet validation', () => {
  const strategy = (rollingUpdate: object) => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
  const dru = 'spec.updateStrategy.rollingUpdate';
  it.each([
    ['no strategy', {}, []],
    ['OnDelete', { updateStrategy: { type: 'OnDelete' } }, []],
    ['one unavailable', strategy({ maxUnavailable: 1 }), []],
    ['surge instead', strategy({ maxUnavailable: 0, maxSurge: '10%' }), []],
    [
      'surge and unavailability',
      strategy({ maxUnavailable: 1, maxSurge: 1 }),
      [`${dru}.maxSurge: Invalid value: ${intstr(1)}: may not be set when maxUnavailable is non-zero`],
    ],
    [
      'neither',
      strategy({ maxUnavailable: 0, maxSurge: 0 }),
      [`${dru}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`],
    ],
    [
      'a surge over 100%',
      strategy({ maxUnavailable: 0, maxSurge: '101%' }),
      [`${dru}.maxSurge: Invalid value: ${intstr('101%')}: must not be greater than 100%`],
    ],
    [
      'an unknown strategy',
      { updateStrategy: { type: 'Fast' } },
      [
        'spec.updateStrategy: Unsupported value: {"type":"Fast"}: supported values: "RollingUpdate", "OnDelete"',
      ],
    ],
    [
      'an empty selector',
      { selector: {} },
      ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset'],
    ],
    [
      'a template with a deadline',
      { template: { ...template, spec: { ...template.spec, activeDeadlineSeconds: 5 } } },
      [
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(validate('daemonsets', spec)).toEqual(expected);
  });
});
