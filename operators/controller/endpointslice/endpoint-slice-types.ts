// Service and discovery.k8s.io/v1 EndpointSlice types, typed where the endpoint controllers read and write them, with upstream's label names.
import type { KubeObject, ObjectMeta } from '../../types.ts';

/** A Service port; `targetPort` is a number or a container port's name (defaults to `port`). */
export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP' | string;
  appProtocol?: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

/** A core/v1 Service. Invariant for services read from an API server: metadata.name, namespace and uid are set. */
export interface Service extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    /** Pods whose labels match get endpoints; absent: the endpoints are managed by someone else. */
    selector?: Record<string, string>;
    ports?: ServicePort[];
    clusterIP?: string;
    clusterIPs?: string[];
    ipFamilies?: ('IPv4' | 'IPv6' | string)[];
    type?: string;
    publishNotReadyAddresses?: boolean;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

export type AddressType = 'IPv4' | 'IPv6' | 'FQDN';

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

/** One endpoint of a slice: a pod's addresses of the slice's type. */
export interface Endpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string };
  nodeName?: string;
  zone?: string;
  [field: string]: unknown;
}

export interface EndpointPort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

/** A discovery.k8s.io/v1 EndpointSlice. */
export interface EndpointSlice extends KubeObject {
  metadata: ObjectMeta;
  addressType: AddressType | string;
  endpoints?: Endpoint[];
  ports?: EndpointPort[];
}

/** The label naming the Service a slice belongs to (discovery.LabelServiceName). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
/** The label naming the controller that manages a slice (discovery.LabelManagedBy). */
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
/** The endpointslice controller's value of {@link LABEL_MANAGED_BY}. */
export const ENDPOINT_SLICE_CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
/** Set (empty) on the slices and Endpoints of a Service without a cluster IP (v1.IsHeadlessService). */
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
/** When the change that led to this write happened (v1.EndpointsLastChangeTriggerTime). */
export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
/** `--max-endpoints-per-slice`'s default. */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
