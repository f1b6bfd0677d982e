// endpointsSubsets: a Service's core/v1 Endpoints subsets from its selected pods — ready and not-ready addresses with their resolved ports (upstream's endpoints controller syncService).
import type { Pod } from '../../api/core-v1.ts';
import { isIPv6 } from '../endpointslice/address-types-for-service.ts';
import type { Service } from '../endpointslice/endpoint-slice-types.ts';
import { findPort } from '../endpointslice/find-port.ts';
import { shouldSetHostname } from '../endpointslice/pod-to-endpoint.ts';
import { shouldPodBeInEndpoints } from '../endpointslice/should-pod-be-in-endpoints.ts';
import { isPodReady } from '../pod-deletion-order.ts';
import type { EndpointAddress, EndpointSubset } from './endpoints-types.ts';
import { repackSubsets } from './repack-subsets.ts';

/**
 * The pod's address for the Service: the pod IP of the Service's first IP family (else the family of
 * its cluster IP; for a headless Service without families, of the pod's own IP); undefined when the pod
 * has no IP of that family ("failed to find a matching endpoint for service").
 */
export function podToEndpointAddress(service: Service, pod: Pod): EndpointAddress | undefined {
  let v6: boolean;
  const family = service.spec.ipFamilies?.[0];
  if (family) v6 = family === 'IPv6';
  else if (service.spec.clusterIP && service.spec.clusterIP !== 'None') v6 = isIPv6(service.spec.clusterIP);
  else v6 = isIPv6(pod.status?.podIP ?? '');
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip);
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  const ip = ips.find((x) => isIPv6(x) === v6);
  if (!ip) return undefined;
  return {
    ip,
    ...(shouldSetHostname(pod, service) ? { hostname: pod.spec.hostname } : {}),
    nodeName: pod.spec.nodeName ?? '',
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace ?? '',
      name: pod.metadata.name ?? '',
      uid: pod.metadata.uid ?? '',
    },
  };
}

/** The subsets and how many ready and not-ready addresses went in. */
export interface EndpointsSubsets {
  subsets: EndpointSubset[];
  ready: number;
  notReady: number;
}

/**
 * The Endpoints subsets of a Service: every selected pod that has an IP and has not finished (and, unless
 * the Service publishes not-ready addresses, is not terminating) is an address — ready when the pod is
 * Ready or the Service publishes not-ready addresses, not ready otherwise — once per Service port it
 * resolves (a port the pod lacks is left out for it); a headless Service without ports lists its pods
 * with no ports. The result is repacked ({@link repackSubsets}).
 */
export function endpointsSubsets(service: Service, pods: readonly Pod[]): EndpointsSubsets {
  const publish = service.spec.publishNotReadyAddresses === true;
  const raw: EndpointSubset[] = [];
  let ready = 0;
  let notReady = 0;
  const add = (pod: Pod, address: EndpointAddress, ports: EndpointSubset['ports']) => {
    if (publish || isPodReady(pod)) {
      raw.push({ addresses: [address], ...(ports ? { ports } : {}) });
      ready++;
    } else {
      raw.push({ notReadyAddresses: [address], ...(ports ? { ports } : {}) });
      notReady++;
    }
  };
  const servicePorts = service.spec.ports ?? [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publish)) continue;
    const address = podToEndpointAddress(service, pod);
    if (!address) continue;
    if (servicePorts.length === 0 && service.spec.clusterIP === 'None') {
      add(pod, address, undefined);
      continue;
    }
    for (const sp of servicePorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      add(pod, address, [
        {
          // core/v1 omits an empty name (slices keep it: their name is a pointer)
          ...(sp.name ? { name: sp.name } : {}),
          port,
          protocol: sp.protocol ?? 'TCP',
          ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}),
        },
      ]);
    }
  }
  return { subsets: repackSubsets(raw), ready, notReady };
}
