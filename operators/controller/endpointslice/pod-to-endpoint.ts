// podToEndpoint: one pod as an EndpointSlice endpoint of one address type, with its ports (upstream's podToEndpoint and getEndpointPorts).
import type { Node, Pod } from '../../api/core-v1.ts';
import { isPodReady } from '../pod-deletion-order.ts';
import { isIPv6 } from './address-types-for-service.ts';
import type { AddressType, Endpoint, EndpointPort, Service } from './endpoint-slice-types.ts';
import { findPort } from './find-port.ts';

/** The zone label of a node (v1.LabelTopologyZone). */
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

/** The pod's IPs of one family (status.podIPs, else status.podIP). */
export function podAddresses(pod: Pod, addressType: AddressType): string[] {
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip);
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  return ips.filter((ip) => (addressType === 'IPv6' ? isIPv6(ip) : addressType === 'IPv4' && !isIPv6(ip)));
}

/** True when the pod asks for a DNS hostname under this Service (upstream's ShouldSetHostname). */
export function shouldSetHostname(pod: Pod, service: Service): boolean {
  return (
    !!pod.spec.hostname &&
    pod.spec.subdomain === service.metadata.name &&
    pod.metadata.namespace === service.metadata.namespace
  );
}

/**
 * The Service's ports as this pod serves them: each Service port with its targetPort resolved in the
 * pod ({@link findPort}); a port the pod has no match for is left out for this pod.
 */
export function endpointPortsForPod(service: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of service.spec.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({
      name: sp.name ?? '',
      port,
      protocol: sp.protocol ?? 'TCP',
      ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}),
    });
  }
  return out;
}

/**
 * The endpoint for `pod`: its addresses of `addressType`; serving = the pod is Ready; terminating = it is
 * being deleted; ready = serving and not terminating, or always with publishNotReadyAddresses; a target
 * reference to the pod, its node's name, the node's zone when the node is known and labelled, and the
 * pod's hostname when it names this Service as its subdomain.
 */
export function podToEndpoint(
  pod: Pod,
  node: Node | undefined,
  service: Service,
  addressType: AddressType,
): Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata.deletionTimestamp;
  const ready = service.spec.publishNotReadyAddresses === true || (serving && !terminating);
  const zone = node?.metadata.labels?.[LABEL_TOPOLOGY_ZONE];
  return {
    addresses: podAddresses(pod, addressType),
    conditions: { ready, serving, terminating },
    ...(shouldSetHostname(pod, service) ? { hostname: pod.spec.hostname } : {}),
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace ?? '',
      name: pod.metadata.name ?? '',
      uid: pod.metadata.uid ?? '',
    },
    ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    ...(zone ? { zone } : {}),
  };
}
