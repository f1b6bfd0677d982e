// quotaStatus: a ResourceQuota's status (hard as its spec says, used recounted for exactly those names), shared by the resourcequota controller and the ResourceQuota admission plugin.
import type { KubeObject } from '../../types.ts';
import { quotaMatches } from './quota-scopes.ts';
import { type QuotaObjectSource, quotaUsage } from './quota-usage.ts';
import { formatUsage } from './resource-usage.ts';

type Obj = Record<string, unknown>;

/** A quota's status: `hard` and `used` with the same names. */
export interface QuotaStatus {
  hard: Record<string, unknown>;
  used: Record<string, string>;
}

/**
 * The status a quota should have (upstream's syncResourceQuota): `hard` copied from spec.hard, `used`
 * recounted from the namespace's objects the quota governs (its scopes select pods; terminal pods do not
 * count), one entry per hard name, 0 when nothing uses it.
 * @param quota the ResourceQuota
 * @param source the namespace's objects by resource
 * @returns the status
 */
export function quotaStatus(quota: KubeObject, source: QuotaObjectSource): QuotaStatus {
  const hard = { ...(((quota.spec as Obj | undefined)?.hard ?? {}) as Obj) };
  const names = Object.keys(hard);
  const used = quotaUsage(source, quota.metadata?.namespace ?? '', names, (id, o) =>
    quotaMatches(quota, id, o),
  );
  return { hard, used: Object.fromEntries(names.map((n) => [n, formatUsage(n, used[n]!)])) };
}

/** Whether a quota's current status already says `status` (no write needed). */
export function quotaStatusEqual(current: unknown, status: QuotaStatus): boolean {
  const c = (current ?? {}) as Obj;
  const same = (a: unknown, b: Record<string, unknown>) => {
    const x = (a ?? {}) as Obj;
    const keys = Object.keys(b);
    return Object.keys(x).length === keys.length && keys.every((k) => String(x[k]) === String(b[k]));
  };
  return same(c.hard, status.hard) && same(c.used, status.used);
}
