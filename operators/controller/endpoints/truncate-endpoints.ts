// truncateEndpoints: cuts an Endpoints object to 1000 addresses, ready ones first, each subset keeping its share (upstream's truncateEndpoints).
import { type EndpointSubset, MAX_ENDPOINTS_CAPACITY } from './endpoints-types.ts';

/**
 * The subsets cut to at most `max` addresses, or undefined when they fit. Ready addresses are kept
 * before not-ready ones: when the ready ones alone exceed `max`, every not-ready address goes and each
 * subset keeps its proportional share (rounded up, within what is left) of ready ones; otherwise only
 * not-ready addresses are cut, shared the same way.
 */
export function truncateEndpoints(
  subsets: readonly EndpointSubset[],
  max = MAX_ENDPOINTS_CAPACITY,
): EndpointSubset[] | undefined {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += s.addresses?.length ?? 0;
    notReady += s.notReadyAddresses?.length ?? 0;
  }
  if (ready + notReady <= max) return undefined;
  const cutReady = ready > max;
  const room = cutReady ? max : max - ready;
  const total = cutReady ? ready : notReady;
  let left = room;
  return subsets.map((s) => {
    const inSubset = cutReady ? (s.addresses?.length ?? 0) : (s.notReadyAddresses?.length ?? 0);
    const share = Math.min(Math.ceil((inSubset / total) * room), left);
    if (cutReady) {
      const addresses = (s.addresses ?? []).slice(0, share);
      left -= addresses.length;
      return { ...s, addresses, notReadyAddresses: [] };
    }
    const notReadyAddresses = (s.notReadyAddresses ?? []).slice(0, share);
    left -= notReadyAddresses.length;
    return { ...s, notReadyAddresses };
  });
}
