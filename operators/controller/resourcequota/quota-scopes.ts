// Which objects a ResourceQuota's scopes (Terminating, BestEffort, PriorityClass, ...) select, as upstream's pod evaluator decides.
import type { KubeObject } from '../../types.ts';

type Obj = Record<string, unknown>;
type ScopeRequirement = { scopeName?: string; operator?: string; values?: string[] };

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

function isBestEffort(pod: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as Obj;
  return [...list(spec.initContainers), ...list(spec.containers)].every((c) => {
    const r = (c.resources ?? {}) as Obj;
    return (
      Object.keys((r.requests as Obj | undefined) ?? {}).length === 0 &&
      Object.keys((r.limits as Obj | undefined) ?? {}).length === 0
    );
  });
}

function scopeHolds(requirement: ScopeRequirement, pod: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as Obj;
  const terminating = typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
  switch (requirement.scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
      const values = requirement.values ?? [];
      switch (requirement.operator) {
        case 'In':
          return values.includes(name);
        case 'NotIn':
          return !values.includes(name);
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        default:
          return false;
      }
    }
    default:
      return false;
  }
}

/** Whether `quota` governs an object of `resourceId`: unscoped quotas govern everything, scoped ones only pods they select. */
export function quotaMatches(quota: KubeObject, resourceId: string, object: KubeObject): boolean {
  const spec = (quota.spec ?? {}) as Obj;
  const requirements: ScopeRequirement[] = [
    ...((spec.scopes as string[] | undefined) ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(((spec.scopeSelector as Obj | undefined)?.matchExpressions as ScopeRequirement[] | undefined) ?? []),
  ];
  if (requirements.length === 0) return true;
  if (resourceId !== 'pods') return false;
  return requirements.every((r) => scopeHolds(r, object));
}
