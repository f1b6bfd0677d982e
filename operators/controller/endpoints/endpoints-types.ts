// core/v1 Endpoints types, typed where the endpoints controller writes them, with upstream's annotation names.
import type { KubeObject, ObjectMeta } from '../../types.ts';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string };
}

export interface CoreEndpointPort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}

/** Addresses that all offer the same ports. */
export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: CoreEndpointPort[];
}

/** A core/v1 Endpoints object (named after its Service). */
export interface Endpoints extends KubeObject {
  metadata: ObjectMeta;
  subsets?: EndpointSubset[];
}

/** Set to `truncated` when more than {@link MAX_ENDPOINTS_CAPACITY} addresses were cut (v1.EndpointsOverCapacity). */
export const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
/** The most addresses one Endpoints object holds (the controller's maxCapacity). */
export const MAX_ENDPOINTS_CAPACITY = 1000;
/** Endpoints carrying this annotation are leader-election records, not a Service's (resourcelock.LeaderElectionRecordAnnotationKey). */
export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
