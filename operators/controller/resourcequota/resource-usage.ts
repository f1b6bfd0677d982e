// What an object counts against a ResourceQuota, in thousandths of each quota resource, as upstream's quota evaluators compute it.

import { quantityMilliValue } from '../../api/quantity.ts';
import type { KubeObject } from '../../types.ts';

type Obj = Record<string, unknown>;

/** Object-count names of the core group, as quota's `pods`, `services`, ... */
const CORE_COUNTS: Record<string, string> = {
  pods: 'pods',
  services: 'services',
  configmaps: 'configmaps',
  secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

function milli(value: unknown): number {
  if (typeof value !== 'string' && typeof value !== 'number') return 0;
  try {
    return quantityMilliValue(value);
  } catch {
    return 0;
  }
}

/** Whether a pod still counts: terminal pods release their quota. */
export function podCounts(pod: KubeObject): boolean {
  const phase = (pod.status as Obj | undefined)?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** A pod's requests and limits: the containers' sum, or the largest init container when larger. */
function podCompute(pod: KubeObject): Record<string, number> {
  const spec = (pod.spec ?? {}) as Obj;
  const out: Record<string, number> = {};
  const add = (kind: 'requests' | 'limits', into: Record<string, number>, c: Obj) => {
    for (const [name, q] of Object.entries((at(c, `resources.${kind}`) as Obj | undefined) ?? {}))
      into[`${kind}.${name}`] = (into[`${kind}.${name}`] ?? 0) + milli(q);
  };
  for (const c of list(spec.containers)) {
    add('requests', out, c);
    add('limits', out, c);
  }
  for (const c of list(spec.initContainers)) {
    const one: Record<string, number> = {};
    add('requests', one, c);
    add('limits', one, c);
    for (const [k, v] of Object.entries(one)) out[k] = Math.max(out[k] ?? 0, v);
  }
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    if (out[`requests.${name}`] !== undefined) out[name] = out[`requests.${name}`]!;
  }
  return out;
}

function at(object: unknown, path: string): unknown {
  let cur: unknown = object;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[part];
  }
  return cur;
}

/**
 * The usage one object of `resourceId` (`group/resource`, or `resource` for core) adds, by quota
 * resource name, in thousandths (a count of 1 is 1000).
 */
export function usageOf(resourceId: string, object: KubeObject): Record<string, number> {
  const slash = resourceId.indexOf('/');
  const group = slash >= 0 ? resourceId.slice(0, slash) : '';
  const resource = slash >= 0 ? resourceId.slice(slash + 1) : resourceId;
  const out: Record<string, number> = { [`count/${group ? `${resource}.${group}` : resource}`]: 1000 };
  if (group !== '') return out;
  if (CORE_COUNTS[resource]) out[CORE_COUNTS[resource]] = 1000;
  if (resource === 'pods') Object.assign(out, podCompute(object));
  if (resource === 'services') {
    const type = (object.spec as Obj | undefined)?.type;
    if (type === 'LoadBalancer') out['services.loadbalancers'] = 1000;
    if (type === 'NodePort' || type === 'LoadBalancer')
      out['services.nodeports'] = 1000 * list((object.spec as Obj).ports).length;
  }
  if (resource === 'persistentvolumeclaims')
    out['requests.storage'] = milli(at(object, 'spec.resources.requests.storage'));
  return out;
}

/** Whether an object of `resourceId` counts at all (terminal pods do not). */
export function counts(resourceId: string, object: KubeObject): boolean {
  return resourceId !== 'pods' || podCounts(object);
}

/** A usage in thousandths shown as a quantity: "2", "500m", "1Gi". */
export function formatUsage(name: string, thousandths: number): string {
  if (thousandths % 1000 !== 0) return `${thousandths}m`;
  const value = thousandths / 1000;
  if (/memory|storage/.test(name) && value > 0) {
    for (const [suffix, size] of [
      ['Ti', 2 ** 40],
      ['Gi', 2 ** 30],
      ['Mi', 2 ** 20],
      ['Ki', 2 ** 10],
    ] as const) {
      if (value % size === 0) return `${value / size}${suffix}`;
    }
  }
  return String(value);
}

/** A resource list printed as upstream's quota messages do: `a=1,b=2`, sorted by name. */
export function printUsage(usage: Record<string, number>): string {
  return Object.keys(usage)
    .sort()
    .map((k) => `${k}=${formatUsage(k, usage[k]!)}`)
    .join(',');
}

/** Reads a quantity as thousandths; 0 when it does not parse. */
export function thousandths(value: unknown): number {
  return milli(value);
}
