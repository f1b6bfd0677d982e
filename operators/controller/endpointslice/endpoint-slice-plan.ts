// endpointSlicePlan: the endpointslice reconciler's decision — which slices of one Service to create, update and delete so they hold exactly its pods' endpoints, keeping existing slices where it can.
import type { Node, Pod } from '../../api/core-v1.ts';
import type { OwnerReference } from '../../types.ts';
import { addressTypesForService } from './address-types-for-service.ts';
import {
  type AddressType,
  ENDPOINT_SLICE_CONTROLLER_NAME,
  type Endpoint,
  type EndpointPort,
  type EndpointSlice,
  LABEL_HEADLESS,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  LAST_CHANGE_TRIGGER_TIME,
  type Service,
} from './endpoint-slice-types.ts';
import { endpointPortsForPod, podToEndpoint } from './pod-to-endpoint.ts';
import { shouldPodBeInEndpoints } from './should-pod-be-in-endpoints.ts';

/** What {@link endpointSlicePlan} decides from. */
export interface EndpointSlicePlanInput {
  service: Service;
  /** The pods the Service's selector matches (any state: the plan filters them). */
  pods: readonly Pod[];
  /** A node by name from the cache; undefined when it does not exist. */
  nodeOf: (name: string) => Node | undefined;
  /** The slices of this Service managed by this controller (labels service-name and managed-by). */
  existing: readonly EndpointSlice[];
  /** `--max-endpoints-per-slice`; default 100. */
  maxEndpointsPerSlice?: number;
  /** The managed-by label's value; default `endpointslice-controller.k8s.io`. */
  controllerName?: string;
  /** The last-change-trigger-time to stamp on written slices (RFC 3339); absent: the annotation is removed. */
  triggerTime?: string;
}

/** The writes a sync makes; `skipped` says which pods were left out and why (the sync is retried). */
export interface EndpointSlicePlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
  skipped: string[];
}

/** The Service has a cluster IP (upstream's IsServiceIPSet); otherwise it is headless. */
export const isServiceIPSet = (service: Service): boolean =>
  !!service.spec.clusterIP && service.spec.clusterIP !== 'None';

/** The slice labels a Service gives: its own (less the reserved ones), headless, service name, managed-by. */
export function endpointSliceLabels(service: Service, controllerName: string): Record<string, string> {
  const reserved = new Set([LABEL_SERVICE_NAME, LABEL_MANAGED_BY, LABEL_HEADLESS]);
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata.labels ?? {})) if (!reserved.has(k)) labels[k] = v;
  if (!isServiceIPSet(service)) labels[LABEL_HEADLESS] = '';
  labels[LABEL_SERVICE_NAME] = service.metadata.name ?? '';
  labels[LABEL_MANAGED_BY] = controllerName;
  return labels;
}

/** The Service's controller reference on its slices. */
export function serviceControllerRef(service: Service): OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    name: service.metadata.name ?? '',
    uid: service.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** True when the slice names this Service (by uid) among its owners. */
export const ownedBy = (slice: EndpointSlice, service: Service): boolean =>
  (slice.metadata.ownerReferences ?? []).some(
    (r) => r.kind === 'Service' && r.apiVersion === 'v1' && r.uid === service.metadata.uid,
  );

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

/** The key a set of ports groups slices by: the same ports in any order give the same key. */
export const portMapKey = (ports: readonly EndpointPort[] | undefined): string =>
  stable(
    (ports ?? [])
      .map((p) => ({
        name: p.name ?? '',
        port: p.port ?? null,
        protocol: p.protocol ?? 'TCP',
        appProtocol: p.appProtocol ?? null,
      }))
      .sort((a, b) => (stable(a) < stable(b) ? -1 : 1)),
  );

/** An endpoint's identity: its addresses, hostname and target's namespace/name (upstream's hashEndpoint). */
export const endpointKey = (e: Endpoint): string =>
  stable([[...e.addresses].sort(), e.hostname ?? '', e.targetRef?.namespace ?? '', e.targetRef?.name ?? '']);

/** What else an endpoint carries; a difference means the slice holding it needs an update. */
export const endpointRest = (e: Endpoint): string =>
  stable({
    nodeName: e.nodeName ?? null,
    zone: e.zone ?? null,
    ready: e.conditions?.ready ?? null,
    serving: e.conditions?.serving ?? null,
    terminating: e.conditions?.terminating ?? null,
    hints: e.hints ?? null,
    targetRef: e.targetRef ?? null,
  });

const sameLabels = (a: Record<string, string> | undefined, b: Record<string, string>): boolean =>
  stable(a ?? {}) === stable(b);

/** The slice closest to full that still fits `count` more endpoints (upstream's getSliceToFill). */
function sliceToFill(slices: EndpointSlice[], count: number, max: number): EndpointSlice | undefined {
  let best: EndpointSlice | undefined;
  let bestDiff = max;
  for (const s of slices) {
    const diff = max - (count + (s.endpoints?.length ?? 0));
    if (diff >= 0 && diff < bestDiff) {
      bestDiff = diff;
      best = s;
      if (diff === 0) break;
    }
  }
  return best;
}

function newSlice(
  service: Service,
  addressType: AddressType,
  ports: EndpointPort[],
  controllerName: string,
): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${service.metadata.name}-`,
      namespace: service.metadata.namespace ?? '',
      labels: endpointSliceLabels(service, controllerName),
      ownerReferences: [serviceControllerRef(service)],
    },
    addressType,
    ports,
    endpoints: [],
  };
}

interface PortMapPlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
}

/** One group of slices with the same ports (upstream's reconcileByPortMapping). */
function planPortMap(
  service: Service,
  existing: readonly EndpointSlice[],
  desired: Map<string, Endpoint>,
  addressType: AddressType,
  ports: EndpointPort[],
  max: number,
  controllerName: string,
): PortMapPlan {
  const labels = endpointSliceLabels(service, controllerName);
  const byName = new Map<string, EndpointSlice>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();
  // 1. keep the endpoints still desired (in their new form), drop the others
  for (const slice of existing) {
    const name = slice.metadata.name ?? '';
    byName.set(name, slice);
    const kept: Endpoint[] = [];
    let changed = false;
    for (const e of slice.endpoints ?? []) {
      const k = endpointKey(e);
      const want = desired.get(k);
      if (!want) continue;
      kept.push(want);
      if (endpointRest(want) !== endpointRest(e)) changed = true;
      desired.delete(k);
    }
    const count = slice.endpoints?.length ?? 0;
    if (changed || count !== kept.length) {
      if (kept.length === 0) toDelete.add(name);
      else {
        byName.set(name, { ...slice, metadata: { ...slice.metadata, labels }, endpoints: kept });
        toUpdate.add(name);
      }
    } else if (!sameLabels(slice.metadata.labels, labels)) {
      byName.set(name, { ...slice, metadata: { ...slice.metadata, labels } });
      toUpdate.add(name);
    } else unchanged.add(name);
  }
  const remaining = [...desired.values()];
  // 2. fill the slices being updated anyway, fullest first
  if (remaining.length > 0 && toUpdate.size > 0) {
    const slices = [...toUpdate]
      .map((n) => byName.get(n)!)
      .sort((a, b) => (b.endpoints?.length ?? 0) - (a.endpoints?.length ?? 0));
    for (const s of slices) {
      const room = max - (s.endpoints?.length ?? 0);
      if (room > 0 && remaining.length > 0) {
        const name = s.metadata.name ?? '';
        byName.set(name, { ...s, endpoints: [...(s.endpoints ?? []), ...remaining.splice(0, room)] });
      }
    }
  }
  // 3. the rest into one unchanged slice that fits them, else new slices
  const create: EndpointSlice[] = [];
  while (remaining.length > 0) {
    let fill: EndpointSlice | undefined;
    if (remaining.length < max && unchanged.size > 0) {
      fill = sliceToFill(
        [...unchanged].map((n) => byName.get(n)!),
        remaining.length,
        max,
      );
    }
    fill ??= newSlice(service, addressType, ports, controllerName);
    const room = max - (fill.endpoints?.length ?? 0);
    fill = { ...fill, endpoints: [...(fill.endpoints ?? []), ...remaining.splice(0, room)] };
    const name = fill.metadata.name;
    if (name) {
      byName.set(name, fill);
      toUpdate.add(name);
      unchanged.delete(name);
    } else create.push(fill);
  }
  return {
    create,
    update: [...toUpdate].map((n) => byName.get(n)!),
    delete: [...toDelete].map((n) => byName.get(n)!),
  };
}

/** True when `slice` is the placeholder a Service without endpoints would get anyway. */
const isPlaceholder = (slice: EndpointSlice, placeholder: EndpointSlice): boolean =>
  slice.metadata.namespace === placeholder.metadata.namespace &&
  sameLabels(slice.metadata.labels, placeholder.metadata.labels ?? {}) &&
  slice.addressType === placeholder.addressType &&
  (slice.ports ?? []).length === 0 &&
  (slice.endpoints ?? []).length === 0;

/** One address type's slices (upstream's reconcileByAddressType, without topology hints). */
function planAddressType(
  input: EndpointSlicePlanInput,
  existing: readonly EndpointSlice[],
  addressType: AddressType,
  skipped: string[],
): PortMapPlan {
  const { service } = input;
  const max = input.maxEndpointsPerSlice ?? 100;
  const controllerName = input.controllerName ?? ENDPOINT_SLICE_CONTROLLER_NAME;
  const create: EndpointSlice[] = [];
  const update: EndpointSlice[] = [];
  const del: EndpointSlice[] = [];
  const existingByPorts = new Map<string, EndpointSlice[]>();
  for (const slice of existing) {
    if (!ownedBy(slice, service)) {
      del.push(slice);
      continue;
    }
    const k = portMapKey(slice.ports);
    existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), slice]);
  }
  const desiredByPorts = new Map<string, { ports: EndpointPort[]; endpoints: Map<string, Endpoint> }>();
  for (const pod of input.pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPortsForPod(service, pod);
    const k = portMapKey(ports);
    let group = desiredByPorts.get(k);
    if (!group) {
      group = { ports, endpoints: new Map() };
      desiredByPorts.set(k, group);
    }
    const nodeName = pod.spec.nodeName ?? '';
    const node = input.nodeOf(nodeName);
    if (!node && service.spec.publishNotReadyAddresses !== true) {
      skipped.push(
        `skipping Pod ${pod.metadata.name} for Service ${service.metadata.namespace}/${service.metadata.name}: Node ${nodeName} Not Found`,
      );
      continue;
    }
    const endpoint = podToEndpoint(pod, node, service, addressType);
    if (endpoint.addresses.length > 0) group.endpoints.set(endpointKey(endpoint), endpoint);
  }
  for (const [k, group] of desiredByPorts) {
    const p = planPortMap(
      service,
      existingByPorts.get(k) ?? [],
      group.endpoints,
      addressType,
      group.ports,
      max,
      controllerName,
    );
    create.push(...p.create);
    update.push(...p.update);
    del.push(...p.delete);
  }
  for (const [k, slices] of existingByPorts) if (!desiredByPorts.has(k)) del.push(...slices);
  // a Service with no endpoints still gets one empty slice
  if (existing.length === del.length && create.length === 0) {
    const placeholder = newSlice(service, addressType, [], controllerName);
    if (del.length === 1 && isPlaceholder(del[0]!, placeholder)) del.length = 0;
    else create.push(placeholder);
  }
  return { create, update, delete: del };
}

/** Sets or clears the trigger-time annotation on a slice about to be written. */
function withTriggerTime(slice: EndpointSlice, triggerTime: string | undefined): EndpointSlice {
  const annotations = { ...(slice.metadata.annotations ?? {}) };
  if (triggerTime) annotations[LAST_CHANGE_TRIGGER_TIME] = triggerTime;
  else delete annotations[LAST_CHANGE_TRIGGER_TIME];
  return { ...slice, metadata: { ...slice.metadata, annotations } };
}

/**
 * Decides the writes that make a Service's slices hold exactly its endpoints: one endpoint per pod that
 * has an IP of the slice's address type and has not finished (terminating ones included, their
 * conditions saying so), grouped by the ports the pod resolves, at most `maxEndpointsPerSlice` per slice.
 * Existing slices are kept where possible: endpoints stay where they are, changed slices are filled
 * before unchanged ones, leftovers go into the unchanged slice that fits them most tightly, and only then
 * into new slices; a create paired with a delete becomes an update of the slice that would go. Slices of
 * an address type the Service no longer has, or not owned by it, are deleted. A Service with no
 * endpoints keeps one empty placeholder slice. Pure: the caller performs the writes.
 */
export function endpointSlicePlan(input: EndpointSlicePlanInput): EndpointSlicePlan {
  const types = addressTypesForService(input.service);
  const skipped: string[] = [];
  const create: EndpointSlice[] = [];
  const update: EndpointSlice[] = [];
  const del: EndpointSlice[] = [];
  for (const slice of input.existing) {
    if (!types.includes(slice.addressType as AddressType)) del.push(slice);
  }
  for (const type of types) {
    const p = planAddressType(
      input,
      input.existing.filter((s) => s.addressType === type),
      type,
      skipped,
    );
    // creates paired with deletes of the same type become updates of the slices that would go
    const pending = [...p.delete];
    const creates = [...p.create];
    const updates = [...p.update];
    for (let i = 0; i < pending.length && creates.length > 0; ) {
      const gone = pending[i]!;
      if (gone.addressType === type && ownedBy(gone, input.service)) {
        const made = creates.pop()!;
        const { generateName: _g, ...meta } = made.metadata;
        updates.push({ ...gone, ...made, metadata: { ...gone.metadata, ...meta, name: gone.metadata.name } });
        pending.splice(i, 1);
      } else i++;
    }
    create.push(...creates);
    update.push(...updates);
    del.push(...pending);
  }
  // slices whose skipped pods went nowhere are still written: the rest of the Service is served meanwhile
  const stamp = (s: EndpointSlice) => withTriggerTime(s, input.triggerTime);
  return {
    create: input.service.metadata.deletionTimestamp ? [] : create.map(stamp),
    update: update.map(stamp),
    delete: del,
    skipped,
  };
}
