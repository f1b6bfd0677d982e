// Per-kind validation of the built-in kinds' fields, in upstream's words and field paths, on create and on update.
import type { KubeObject } from '../../../operators/types.ts';
import type { StatusCause } from '../api-status.ts';
import { APPS_VALIDATORS } from './validation/apps-validation.ts';
import { BATCH_VALIDATORS } from './validation/batch-validation.ts';
import { CORE_VALIDATORS } from './validation/core-validation.ts';
import { validateCSIDriver } from './validation/csi-driver-validation.ts';
import { validateEndpointSlice } from './validation/endpoint-slice-validation.ts';
import { validateHorizontalPodAutoscaler } from './validation/horizontal-pod-autoscaler-validation.ts';
import { validateLease } from './validation/lease-validation.ts';
import { NETWORKING_VALIDATORS } from './validation/networking-validation.ts';
import { validatePodDisruptionBudget } from './validation/pod-disruption-budget-validation.ts';
import { validatePriorityClass } from './validation/priority-class-validation.ts';
import { validateRuntimeClass } from './validation/runtime-class-validation.ts';
import { validateStorageClass } from './validation/storage-class-validation.ts';

type Obj = Record<string, unknown>;
/** One kind's rules: `old` is set on updates. */
export type KindValidator = (object: KubeObject, old?: KubeObject) => StatusCause[];

const RBAC = 'rbac.authorization.k8s.io';

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

function obj(value: unknown): Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}

function empty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

const required = (field: string, detail?: string): StatusCause => ({
  type: 'FieldValueRequired',
  message: detail ? `Required value: ${detail}` : 'Required value',
  field,
});
const notSupported = (field: string, value: unknown, supported: readonly string[]): StatusCause => ({
  type: 'FieldValueNotSupported',
  message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
  field,
});
const invalidValue = (field: string, value: unknown, detail: string): StatusCause => ({
  type: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
  field,
});
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Roles and ClusterRoles: each rule names verbs, and either resources with API groups or non-resource URLs. */
function rules(namespaced: boolean): KindValidator {
  return (o) => {
    const out: StatusCause[] = [];
    list((o as Obj).rules).forEach((item, i) => {
      const r = obj(item);
      const at = `rules[${i}]`;
      if (empty(r.verbs)) out.push(required(`${at}.verbs`, 'verbs must contain at least one value'));
      if (!empty(r.nonResourceURLs)) {
        if (namespaced)
          out.push(
            invalidValue(
              `${at}.nonResourceURLs`,
              r.nonResourceURLs,
              'namespaced rules cannot apply to non-resource URLs',
            ),
          );
        if (!empty(r.apiGroups) || !empty(r.resources))
          out.push(
            invalidValue(
              `${at}.nonResourceURLs`,
              r.nonResourceURLs,
              'rules cannot apply to both regular resources and non-resource URLs',
            ),
          );
        return;
      }
      if (empty(r.apiGroups))
        out.push(required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
      if (empty(r.resources))
        out.push(required(`${at}.resources`, 'resource rules must supply at least one resource'));
    });
    return out;
  };
}

/** RoleBindings and ClusterRoleBindings: a roleRef that never changes and well-formed subjects. */
function binding(namespaced: boolean): KindValidator {
  return (o, old) => {
    const out: StatusCause[] = [];
    const ref = obj((o as Obj).roleRef);
    if (ref.apiGroup !== RBAC) out.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC]));
    const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
    if (ref.kind !== undefined && !kinds.includes(String(ref.kind)))
      out.push(notSupported('roleRef.kind', ref.kind, kinds));
    list((o as Obj).subjects).forEach((item, i) => {
      const s = obj(item);
      const at = `subjects[${i}]`;
      if (empty(s.name)) out.push(required(`${at}.name`));
      if (!['ServiceAccount', 'User', 'Group'].includes(String(s.kind)))
        out.push(notSupported(`${at}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
      else if (s.kind === 'ServiceAccount') {
        if (!namespaced && empty(s.namespace)) out.push(required(`${at}.namespace`));
      } else if (s.apiGroup !== RBAC) out.push(notSupported(`${at}.apiGroup`, s.apiGroup ?? '', [RBAC]));
    });
    if (old && !same((old as Obj).roleRef, (o as Obj).roleRef))
      out.push(invalidValue('roleRef', (o as Obj).roleRef, 'cannot change roleRef'));
    return out;
  };
}

/** The rules, by resource id (`group/resource`, or `resource` for core). */
export const BUILTIN_VALIDATORS: Readonly<Record<string, KindValidator>> = {
  ...CORE_VALIDATORS,
  ...APPS_VALIDATORS,
  ...BATCH_VALIDATORS,
  [`${RBAC}/roles`]: rules(true),
  [`${RBAC}/clusterroles`]: rules(false),
  [`${RBAC}/rolebindings`]: binding(true),
  [`${RBAC}/clusterrolebindings`]: binding(false),
  'scheduling.k8s.io/priorityclasses': validatePriorityClass,
  'storage.k8s.io/storageclasses': validateStorageClass,
  'storage.k8s.io/csidrivers': validateCSIDriver,
  'policy/poddisruptionbudgets': (o) => validatePodDisruptionBudget(o),
  'coordination.k8s.io/leases': (o) => validateLease(o),
  'node.k8s.io/runtimeclasses': validateRuntimeClass,
  'autoscaling/horizontalpodautoscalers': (o) => validateHorizontalPodAutoscaler(o),
  'discovery.k8s.io/endpointslices': validateEndpointSlice,
  ...NETWORKING_VALIDATORS,
};
