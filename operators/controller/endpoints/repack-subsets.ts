// repackSubsets: Endpoints subsets regrouped so each set of addresses appears once with every port it offers, sorted (upstream's endpoints.RepackSubsets).
import type { CoreEndpointPort, EndpointAddress, EndpointSubset } from './endpoints-types.ts';

const NO_PORT = '\u0000none';
const portKey = (p: CoreEndpointPort) =>
  JSON.stringify([p.name ?? '', p.port, p.protocol ?? 'TCP', p.appProtocol ?? null]);
const addressKey = (a: EndpointAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;

/** Upstream's order of addresses: by IP, then by target uid. */
export function compareEndpointAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/**
 * Regroups subsets: per port, the addresses offering it (an address ready anywhere for a port is ready
 * for it; subsets without ports keep their addresses under no port); then ports with the same address
 * sets share one subset. Addresses are sorted by IP then target uid, ports by name, number and protocol,
 * subsets by their contents, so equal inputs repack to equal outputs.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  const ports = new Map<string, CoreEndpointPort | undefined>();
  const byPort = new Map<string, Map<string, boolean>>();
  const note = (port: string, list: EndpointAddress[] | undefined, ready: boolean) => {
    const set = byPort.get(port) ?? new Map<string, boolean>();
    byPort.set(port, set);
    for (const a of list ?? []) {
      const k = addressKey(a);
      if (!addresses.has(k)) addresses.set(k, a);
      if (ready) set.set(k, true);
      else if (!set.has(k)) set.set(k, false);
    }
  };
  for (const s of subsets) {
    const list = s.ports && s.ports.length > 0 ? s.ports : undefined;
    for (const p of list ?? [undefined]) {
      const k = p ? portKey(p) : NO_PORT;
      ports.set(k, p);
      note(k, s.addresses, true);
      note(k, s.notReadyAddresses, false);
    }
  }
  const groups = new Map<string, { set: Map<string, boolean>; ports: CoreEndpointPort[] }>();
  for (const [k, set] of byPort) {
    const hash = JSON.stringify([...set].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const g = groups.get(hash) ?? { set, ports: [] };
    groups.set(hash, g);
    const port = ports.get(k);
    if (port) g.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const { set, ports: ps } of groups.values()) {
    if (set.size === 0) continue;
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [k, isReady] of set) (isReady ? ready : notReady).push(addresses.get(k)!);
    ready.sort(compareEndpointAddresses);
    notReady.sort(compareEndpointAddresses);
    ps.sort((a, b) => (portKey(a) < portKey(b) ? -1 : portKey(a) > portKey(b) ? 1 : 0));
    out.push({
      ...(ready.length > 0 ? { addresses: ready } : {}),
      ...(notReady.length > 0 ? { notReadyAddresses: notReady } : {}),
      ...(ps.length > 0 ? { ports: ps } : {}),
    });
  }
  return out.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}
