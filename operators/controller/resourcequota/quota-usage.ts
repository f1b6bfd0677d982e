// quotaUsage: a namespace's usage of the resources a quota names, recounted from the objects, shared by the ResourceQuota admission plugin and the resourcequota controller.
import type { KubeObject } from '../../types.ts';
import { counts, usageOf } from './resource-usage.ts';

/** Where the objects come from: the API server's storage or a controller's informer caches. */
export interface QuotaObjectSource {
  /** Whether the resource (`group/resource`, or `resource` for core) is served at all. */
  serves(resourceId: string): boolean;
  /** The namespace's objects of the resource. */
  list(resourceId: string, namespace: string): readonly KubeObject[];
}

const CLASSIC = ['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'];

/**
 * The resource (`group/resource` or core `resource`) a quota resource name is counted from:
 * `count/deployments.apps` → `apps/deployments`, `services.nodeports` → `services`, `requests.cpu` → `pods`.
 */
export function quotaResourceId(name: string): string {
  const count = /^count\/([^.]+)(?:\.(.+))?$/.exec(name);
  if (count) return count[2] ? `${count[2]}/${count[1]}` : count[1]!;
  if (name.startsWith('services')) return 'services';
  if (name === 'requests.storage' || name === 'persistentvolumeclaims') return 'persistentvolumeclaims';
  if (CLASSIC.includes(name)) return name;
  return 'pods';
}

/**
 * The namespace's usage of every resource in `names`, in thousandths (a count of 1 is 1000), counting
 * only objects that still count (terminal pods do not) and that `governs` accepts (a quota's scopes).
 * @param source the objects
 * @param namespace the quota's namespace
 * @param names the quota's `spec.hard` names
 * @param governs whether the quota governs an object
 * @returns every name, 0 when nothing uses it
 */
export function quotaUsage(
  source: QuotaObjectSource,
  namespace: string,
  names: readonly string[],
  governs: (resourceId: string, object: KubeObject) => boolean = () => true,
): Record<string, number> {
  const used: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const ids = new Set(names.map(quotaResourceId));
  for (const id of ids) {
    if (!source.serves(id)) continue;
    for (const object of source.list(id, namespace)) {
      if (!counts(id, object) || !governs(id, object)) continue;
      const usage = usageOf(id, object);
      for (const name of names) if (usage[name] !== undefined) used[name]! += usage[name]!;
    }
  }
  return used;
}
