// mirroringPlan: the endpointslicemirroring reconciler's decision — the EndpointSlices that mirror a selector-less Service's Endpoints, one per address type and port set (upstream's endpointslicemirroring reconciler).

import type { EndpointAddress, Endpoints } from '../endpoints/endpoints-types.ts';
import { isIPv6 } from '../endpointslice/address-types-for-service.ts';
import { endpointKey, endpointRest, portMapKey } from '../endpointslice/endpoint-slice-plan.ts';
import {
  type AddressType,
  type Endpoint,
  type EndpointPort,
  type EndpointSlice,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  LAST_CHANGE_TRIGGER_TIME,
} from '../endpointslice/endpoint-slice-types.ts';

/** The mirroring controller's value of the managed-by label. */
export const MIRRORING_CONTROLLER_NAME = 'endpointslicemirroring-controller.k8s.io';
/** Endpoints with this label set to "true" are not mirrored (discovery.LabelSkipMirror). */
export const LABEL_SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
/** `--mirroring-max-endpoints-per-subset`'s default. */
export const DEFAULT_MAX_ENDPOINTS_PER_SUBSET = 1000;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The writes a mirroring sync makes, with the counts it reports in Events. */
export interface MirroringPlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
  /** Addresses that are not IPs (Event InvalidIPAddress). */
  invalid: number;
  /** Addresses left out, invalid ones included (Event TooManyAddressesToMirror when more than `invalid`). */
  skipped: number;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:.]+$/;

/** The address as an endpoint and its type, or undefined when it is not an IP (upstream's addressToEndpoint). */
function addressToEndpoint(a: EndpointAddress, ready: boolean): [Endpoint, AddressType] | undefined {
  const v6 = isIPv6(a.ip);
  if (v6 ? !IPV6.test(a.ip) : !IPV4.test(a.ip)) return undefined;
  return [
    {
      addresses: [v6 ? a.ip.toLowerCase() : a.ip],
      conditions: { ready },
      ...(a.hostname ? { hostname: a.hostname } : {}),
      ...(a.targetRef ? { targetRef: a.targetRef } : {}),
      ...(a.nodeName !== undefined ? { nodeName: a.nodeName } : {}),
    },
    v6 ? 'IPv6' : 'IPv4',
  ];
}

/** The labels and annotations a mirrored slice takes from its Endpoints. */
function mirroredMeta(endpoints: Endpoints) {
  const labels: Record<string, string> = { ...(endpoints.metadata.labels ?? {}) };
  labels[LABEL_SERVICE_NAME] = endpoints.metadata.name ?? '';
  labels[LABEL_MANAGED_BY] = MIRRORING_CONTROLLER_NAME;
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(endpoints.metadata.annotations ?? {})) {
    if (k !== LAST_CHANGE_TRIGGER_TIME && k !== LAST_APPLIED) annotations[k] = v;
  }
  return { labels, annotations };
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string>) => {
  const ea = Object.entries(a ?? {});
  return ea.length === Object.keys(b).length && ea.every(([k, v]) => b[k] === v);
};

/**
 * Decides the slices mirroring `endpoints`: per subset, up to `maxEndpointsPerSubset` addresses (ready ones
 * first, then not-ready ones with ready=false; non-IPs skipped), grouped by address type and ports. Each
 * group keeps its first existing slice (rewritten when its endpoints, labels or annotations differ) and
 * loses the others; a group without a slice gets a new one; groups no longer wanted lose their slices; a
 * create paired with a delete becomes an update. Slices carry the Endpoints' labels and annotations (less
 * the trigger time and kubectl's last-applied configuration), `kubernetes.io/service-name`, managed-by
 * `endpointslicemirroring-controller.k8s.io`, and the Endpoints as owner.
 */
export function mirroringPlan(
  endpoints: Endpoints,
  existing: readonly EndpointSlice[],
  maxEndpointsPerSubset = DEFAULT_MAX_ENDPOINTS_PER_SUBSET,
): MirroringPlan {
  const desired = new Map<
    string,
    { type: AddressType; ports: EndpointPort[]; endpoints: Map<string, Endpoint> }
  >();
  let invalid = 0;
  let skipped = 0;
  for (const subset of endpoints.subsets ?? []) {
    const ports: EndpointPort[] = (subset.ports ?? []).map((p) => ({
      name: p.name ?? '',
      port: p.port,
      protocol: p.protocol ?? 'TCP',
      ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}),
    }));
    const all: [EndpointAddress, boolean][] = [
      ...(subset.addresses ?? []).map((a): [EndpointAddress, boolean] => [a, true]),
      ...(subset.notReadyAddresses ?? []).map((a): [EndpointAddress, boolean] => [a, false]),
    ];
    let added = 0;
    for (const [address, ready] of all) {
      if (added >= maxEndpointsPerSubset) break;
      const made = addressToEndpoint(address, ready);
      if (!made) {
        invalid++;
        continue;
      }
      const [endpoint, type] = made;
      const key = `${type}/${portMapKey(ports)}`;
      let group = desired.get(key);
      if (!group) {
        group = { type, ports, endpoints: new Map() };
        desired.set(key, group);
      }
      group.endpoints.set(endpointKey(endpoint), endpoint);
      added++;
    }
    skipped += all.length - added;
  }
  const existingByKey = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    const key = `${s.addressType}/${portMapKey(s.ports)}`;
    existingByKey.set(key, [...(existingByKey.get(key) ?? []), s]);
  }
  const { labels, annotations } = mirroredMeta(endpoints);
  const slice = (
    type: AddressType,
    ports: EndpointPort[],
    list: Endpoint[],
    name?: string,
  ): EndpointSlice => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...(name ? { name } : { generateName: `${endpoints.metadata.name}-` }),
      namespace: endpoints.metadata.namespace ?? '',
      labels,
      annotations,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Endpoints',
          name: endpoints.metadata.name ?? '',
          uid: endpoints.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType: type,
    ports,
    endpoints: list,
  });
  const create: EndpointSlice[] = [];
  const update: EndpointSlice[] = [];
  const del: EndpointSlice[] = [];
  for (const [key, group] of desired) {
    const have = existingByKey.get(key) ?? [];
    del.push(...have.slice(1));
    const first = have[0];
    const want = [...group.endpoints.values()];
    if (first) {
      const current = first.endpoints ?? [];
      const unchanged =
        current.length === want.length &&
        current.every((e) => {
          const w = group.endpoints.get(endpointKey(e));
          return w !== undefined && endpointRest(w) === endpointRest(e);
        }) &&
        sameMap(first.metadata.labels, labels) &&
        sameMap(first.metadata.annotations, annotations);
      if (unchanged) continue;
      update.push({
        ...slice(group.type, group.ports, want, first.metadata.name),
        metadata: { ...first.metadata, labels, annotations },
      });
    } else create.push(slice(group.type, group.ports, want));
  }
  for (const [key, slices] of existingByKey) if (!desired.has(key)) del.push(...slices);
  // recycle: a create paired with a delete of the same address type (immutable) becomes an update
  for (let i = del.length - 1; i >= 0; i--) {
    const gone = del[i]!;
    const j = create.findIndex((c) => c.addressType === gone.addressType);
    if (j < 0) continue;
    const [made] = create.splice(j, 1);
    del.splice(i, 1);
    update.push({ ...made!, metadata: { ...gone.metadata, labels, annotations } });
  }
  return {
    create: endpoints.metadata.deletionTimestamp ? [] : create,
    update,
    delete: del,
    invalid,
    skipped,
  };
}
