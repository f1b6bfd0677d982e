// APPS_VALIDATORS: Deployments, ReplicaSets, StatefulSets and DaemonSets as upstream's apps validation checks them.
import type { StatusCause } from '../../api-status.ts';
import type { KindValidator } from '../builtin-validation.ts';
import { fieldError } from './field-error.ts';
import { intOrPercent } from './int-or-percent.ts';
import { type Obj, shape } from './json-shape.ts';
import { validatePodTemplate } from './pod-template-validation.ts';
import { selectorCauses } from './selector-match.ts';

const ALWAYS = ['Always'];

/** The parts every replica-keeping workload shares: selector, template, minReadySeconds, revisionHistoryLimit. */
function workloadCauses(o: Obj, owner: string, emptySelectorKind: string): StatusCause[] {
  const spec = shape.obj(o.spec);
  return [
    ...selectorCauses(spec, 'spec', emptySelectorKind, true),
    ...validatePodTemplate(spec.template, 'spec.template', { owner, restartPolicies: ALWAYS }),
    ...fieldError.nonNegative('spec.minReadySeconds', spec.minReadySeconds),
    ...fieldError.nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit),
  ];
}

function deploymentStrategyCauses(strategy: Obj, path: string): StatusCause[] {
  const type = shape.defaulted(strategy.type, 'RollingUpdate');
  const rolling = strategy.rollingUpdate;
  if (type === 'Recreate')
    return rolling === undefined || rolling === null
      ? []
      : [
          fieldError.forbidden(
            `${path}.rollingUpdate`,
            "may not be specified when strategy `type` is 'Recreate'",
          ),
        ];
  if (type !== 'RollingUpdate' || rolling === undefined || rolling === null) return [];
  const r = shape.obj(rolling);
  const at = `${path}.rollingUpdate`;
  const unavailable = r.maxUnavailable ?? '25%';
  const surge = r.maxSurge ?? '25%';
  const out = [
    ...intOrPercent.positive(unavailable, `${at}.maxUnavailable`),
    ...intOrPercent.positive(surge, `${at}.maxSurge`),
  ];
  if (intOrPercent.value(unavailable) === 0 && intOrPercent.value(surge) === 0)
    out.push(
      fieldError.invalidPrinted(
        `${at}.maxUnavailable`,
        intOrPercent.printed(unavailable),
        'may not be 0 when `maxSurge` is 0',
      ),
    );
  out.push(...intOrPercent.notOver100(unavailable, `${at}.maxUnavailable`));
  return out;
}

const deployment: KindValidator = (o) => {
  const spec = shape.obj((o as Obj).spec);
  const out = workloadCauses(o as Obj, 'ReplicaSet', 'deployment');
  out.push(...deploymentStrategyCauses(shape.obj(spec.strategy), 'spec.strategy'));
  const deadline = shape.num(spec.progressDeadlineSeconds);
  if (deadline !== undefined) {
    out.push(...fieldError.nonNegative('spec.progressDeadlineSeconds', deadline));
    if (deadline <= (shape.num(spec.minReadySeconds) ?? 0))
      out.push(
        fieldError.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'),
      );
  }
  return out;
};

const replicaSet: KindValidator = (o) => workloadCauses(o as Obj, 'ReplicaSet', 'deployment');

/** Spec fields a StatefulSet update may change; the rest are fixed at creation. */
const STATEFUL_SET_MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

const statefulSet: KindValidator = (o, old) => {
  const spec = shape.obj((o as Obj).spec);
  const out = workloadCauses(o as Obj, 'StatefulSet', 'statefulset');
  const policy = shape.defaulted(spec.podManagementPolicy, 'OrderedReady');
  if (policy !== 'OrderedReady' && policy !== 'Parallel')
    out.push(fieldError.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  const strategy = shape.obj(spec.updateStrategy);
  const type = shape.defaulted(strategy.type, 'RollingUpdate');
  if (type === 'OnDelete') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null)
      out.push(
        fieldError.invalid(
          'spec.updateStrategy.rollingUpdate',
          strategy.rollingUpdate,
          "only allowed for updateStrategy 'RollingUpdate'",
        ),
      );
  } else if (type === 'RollingUpdate') {
    out.push(
      ...fieldError.nonNegative(
        'spec.updateStrategy.rollingUpdate.partition',
        shape.obj(strategy.rollingUpdate).partition,
      ),
    );
  } else {
    out.push(
      fieldError.invalid('spec.updateStrategy', spec.updateStrategy, "must be 'RollingUpdate' or 'OnDelete'"),
    );
  }
  const retention = shape.obj(spec.persistentVolumeClaimRetentionPolicy);
  for (const when of ['whenDeleted', 'whenScaled']) {
    const v = retention[when];
    if (v !== undefined && v !== 'Retain' && v !== 'Delete')
      out.push(
        fieldError.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${when}`, v, ['Retain', 'Delete']),
      );
  }
  out.push(...fieldError.nonNegative('spec.ordinals.start', shape.obj(spec.ordinals).start));
  if (old) {
    const fixed = (s: Obj) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(s)
            .filter(([k]) => !STATEFUL_SET_MUTABLE.includes(k))
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        ),
      );
    if (fixed(spec) !== fixed(shape.obj((old as Obj).spec)))
      out.push(
        fieldError.forbidden(
          'spec',
          "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ),
      );
  }
  return out;
};

function daemonSetStrategyCauses(strategy: unknown): StatusCause[] {
  if (strategy === undefined || strategy === null) return [];
  const s = shape.obj(strategy);
  const type = shape.defaulted(s.type, 'RollingUpdate');
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate')
    return [fieldError.notSupported('spec.updateStrategy', strategy, ['RollingUpdate', 'OnDelete'])];
  if (s.rollingUpdate === undefined || s.rollingUpdate === null) return [];
  const r = shape.obj(s.rollingUpdate);
  const at = 'spec.updateStrategy.rollingUpdate';
  const unavailable = r.maxUnavailable ?? 1;
  const surge = r.maxSurge ?? 0;
  const out = [
    ...intOrPercent.positive(unavailable, `${at}.maxUnavailable`),
    ...intOrPercent.positive(surge, `${at}.maxSurge`),
    ...intOrPercent.notOver100(unavailable, `${at}.maxUnavailable`),
    ...intOrPercent.notOver100(surge, `${at}.maxSurge`),
  ];
  const hasUnavailable = intOrPercent.value(unavailable) !== 0;
  const hasSurge = intOrPercent.value(surge) !== 0;
  if (hasUnavailable && hasSurge)
    out.push(
      fieldError.invalidPrinted(
        `${at}.maxSurge`,
        intOrPercent.printed(surge),
        'may not be set when maxUnavailable is non-zero',
      ),
    );
  else if (!hasUnavailable && !hasSurge)
    out.push(fieldError.required(`${at}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return out;
}

const daemonSet: KindValidator = (o) => {
  const spec = shape.obj((o as Obj).spec);
  return [
    ...workloadCauses(o as Obj, 'DaemonSet', 'daemonset'),
    ...fieldError.nonNegative('spec.templateGeneration', spec.templateGeneration),
    ...daemonSetStrategyCauses(spec.updateStrategy),
  ];
};

/** The apps/v1 rules, by resource id. */
export const APPS_VALIDATORS: Readonly<Record<string, KindValidator>> = {
  'apps/deployments': deployment,
  'apps/replicasets': replicaSet,
  'apps/statefulsets': statefulSet,
  'apps/daemonsets': daemonSet,
};
