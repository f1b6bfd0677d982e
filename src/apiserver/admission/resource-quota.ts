// ResourceQuota admission: a create that would take a namespace over a quota is refused naming it; usage kept in the quota's status.

import { quotaMatches } from '../../../operators/controller/resourcequota/quota-scopes.ts';
import { quotaStatus } from '../../../operators/controller/resourcequota/quota-status.ts';
import { quotaUsage } from '../../../operators/controller/resourcequota/quota-usage.ts';
import {
  counts,
  printUsage,
  thousandths,
  usageOf,
} from '../../../operators/controller/resourcequota/resource-usage.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { forbidden } from '../api-status.ts';
import type { AdmissionPlugin, AdmissionRequest, AdmissionStore } from './admission-chain.ts';
import { forbiddenMessage } from './admission-chain.ts';

type Obj = Record<string, unknown>;

const QUOTAS = 'resourcequotas';

function idOf(request: AdmissionRequest): string {
  return request.def.group ? `${request.def.group}/${request.def.resource}` : request.def.resource;
}

/** The namespace's usage of every resource a quota names, recounted from the stored objects. */
export function namespaceUsage(
  store: AdmissionStore,
  namespace: string,
  names: readonly string[],
  governs: (resourceId: string, object: KubeObject) => boolean = () => true,
): Record<string, number> {
  return quotaUsage(store, namespace, names, governs);
}

/** Compute resources a quota tracks that every container must then declare. */
const MUST_SPECIFY = ['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory', 'cpu', 'memory'];

function missingCompute(request: AdmissionRequest, hard: Obj): string[] {
  if (request.def.group !== '' || request.def.resource !== 'pods') return [];
  const spec = (request.object.spec ?? {}) as Obj;
  const containers = [
    ...((spec.initContainers as Obj[] | undefined) ?? []),
    ...((spec.containers as Obj[] | undefined) ?? []),
  ];
  const out: string[] = [];
  for (const name of MUST_SPECIFY.filter((n) => hard[n] !== undefined).sort()) {
    const [kind, res] = name.includes('.') ? (name.split('.') as [string, string]) : ['requests', name];
    const without = containers
      .filter((c) => ((c.resources as Obj | undefined)?.[kind] as Obj | undefined)?.[res] === undefined)
      .map((c) => String(c.name));
    if (without.length) out.push(`${name} for: ${without.join(',')}`);
  }
  return out;
}

/** The ResourceQuota plugin. Its checks and the commit run without yielding, so concurrent creates are serialised. */
export const resourceQuotaAdmission: AdmissionPlugin = {
  name: 'ResourceQuota',
  validate(request, store) {
    if (request.operation !== 'CREATE' || request.subresource || !request.def.namespaced) return;
    const namespace = request.namespace;
    if (!namespace || !store.serves(QUOTAS)) return;
    const id = idOf(request);
    if (!counts(id, request.object)) return;
    const delta = usageOf(id, request.object);
    for (const quota of store.list(QUOTAS, namespace)) {
      if (!quotaMatches(quota, id, request.object)) continue;
      const hard = ((quota.spec as Obj | undefined)?.hard ?? {}) as Obj;
      const names = Object.keys(hard).filter((n) => delta[n] !== undefined);
      const missing = missingCompute(request, hard);
      const quotaName = String(quota.metadata?.name);
      if (missing.length)
        throw forbidden(
          forbiddenMessage(request, `failed quota: ${quotaName}: must specify ${missing.join('; ')}`),
          { name: request.name },
          request.def.resource,
        );
      if (names.length === 0) continue;
      const used = namespaceUsage(store, namespace, names, (i, o) => quotaMatches(quota, i, o));
      const over = names.filter((n) => used[n]! + delta[n]! > thousandths(hard[n]));
      if (over.length === 0) continue;
      const pick = (from: (n: string) => number) => Object.fromEntries(over.map((n) => [n, from(n)]));
      throw forbidden(
        forbiddenMessage(
          request,
          `exceeded quota: ${quotaName}, requested: ${printUsage(pick((n) => delta[n]!))}, used: ${printUsage(
            pick((n) => used[n]!),
          )}, limited: ${printUsage(pick((n) => thousandths(hard[n])))}`,
        ),
        { name: request.name },
        request.def.resource,
      );
    }
  },
  committed(request, store) {
    const namespace = request.namespace;
    if (!namespace || !store.serves(QUOTAS)) return;
    refreshQuotaStatus(store, namespace);
  },
};

/** Writes `status.hard` and `status.used` of every quota in the namespace, as the quota controller does. */
export function refreshQuotaStatus(store: AdmissionStore, namespace: string): void {
  for (const quota of store.list(QUOTAS, namespace)) {
    const status = quotaStatus(quota, store);
    if (JSON.stringify(quota.status) === JSON.stringify(status)) continue;
    store.writeStatus(QUOTAS, namespace, String(quota.metadata?.name), status);
  }
}
