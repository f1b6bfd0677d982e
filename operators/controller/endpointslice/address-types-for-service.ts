// addressTypesForService: the address types a Service's slices carry (upstream's getAddressTypesForService).
import type { AddressType, Service } from './endpoint-slice-types.ts';

/** True for an IPv6 literal (one with a colon), false for IPv4. */
export const isIPv6 = (ip: string): boolean => ip.includes(':');

/**
 * The slices' address types for `service`: its `spec.ipFamilies`; else the family of its cluster IP;
 * else (no families, no cluster IP: a headless Service the API server has not given families) both.
 */
export function addressTypesForService(service: Service): AddressType[] {
  const families = (service.spec.ipFamilies ?? []).filter(
    (f): f is AddressType => f === 'IPv4' || f === 'IPv6',
  );
  if (families.length > 0) return [...new Set(families)];
  const clusterIP = service.spec.clusterIP;
  if (clusterIP && clusterIP !== 'None') return [isIPv6(clusterIP) ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}
