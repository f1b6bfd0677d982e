// desiredEndpoints: the Endpoints object a Service should have, and whether to create it, update it or leave it (upstream's endpoints controller syncService, its write half).
import {
  LABEL_HEADLESS,
  LAST_CHANGE_TRIGGER_TIME,
  type Service,
} from '../endpointslice/endpoint-slice-types.ts';
import {
  type EndpointSubset,
  type Endpoints,
  MAX_ENDPOINTS_CAPACITY,
  OVER_CAPACITY,
} from './endpoints-types.ts';
import { repackSubsets } from './repack-subsets.ts';
import { truncateEndpoints } from './truncate-endpoints.ts';

/** What to do with a Service's Endpoints. */
export type EndpointsWrite =
  | { action: 'none' }
  | { action: 'create'; endpoints: Endpoints }
  | { action: 'update'; endpoints: Endpoints };

const count = (subsets: readonly EndpointSubset[] | undefined) =>
  (subsets ?? []).reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

/** Subsets equal but for the pods' resourceVersions in target references. */
function sameSubsets(a: readonly EndpointSubset[] | undefined, b: readonly EndpointSubset[]): boolean {
  const strip = (s: readonly EndpointSubset[]) =>
    canonical(
      repackSubsets(s).map((x) => ({
        ...x,
        addresses: x.addresses?.map((y) => ({
          ...y,
          targetRef: { ...y.targetRef, resourceVersion: undefined },
        })),
        notReadyAddresses: x.notReadyAddresses?.map((y) => ({
          ...y,
          targetRef: { ...y.targetRef, resourceVersion: undefined },
        })),
      })),
    );
  return strip(a ?? []) === strip(b);
}

/**
 * Compares a Service's current Endpoints (undefined: none yet) with the wanted `subsets` and decides the
 * write. Nothing is written when the subsets, the labels (the Service's, less the headless label) and
 * the over-capacity annotation already agree. Otherwise the object carries the Service's labels (plus
 * `service.kubernetes.io/headless` without a cluster IP), the trigger time annotation (removed when
 * there is none), and, past 1000 addresses, truncated subsets with `endpoints.kubernetes.io/over-capacity:
 * truncated`.
 */
export function desiredEndpoints(
  service: Service,
  current: Endpoints | undefined,
  subsets: EndpointSubset[],
  triggerTime: string | undefined,
): EndpointsWrite {
  const create = !current?.metadata.resourceVersion;
  if (!create) {
    const labels = { ...(current.metadata.labels ?? {}) };
    delete labels[LABEL_HEADLESS];
    const capacityOk =
      count(current.subsets) <= MAX_ENDPOINTS_CAPACITY &&
      !(OVER_CAPACITY in (current.metadata.annotations ?? {}));
    if (
      sameSubsets(current.subsets, subsets) &&
      canonical(labels) === canonical(service.metadata.labels ?? {}) &&
      capacityOk
    ) {
      return { action: 'none' };
    }
  }
  const annotations = { ...(current?.metadata.annotations ?? {}) };
  if (triggerTime) annotations[LAST_CHANGE_TRIGGER_TIME] = triggerTime;
  else delete annotations[LAST_CHANGE_TRIGGER_TIME];
  const labels: Record<string, string> = { ...(service.metadata.labels ?? {}) };
  if (!service.spec.clusterIP || service.spec.clusterIP === 'None') labels[LABEL_HEADLESS] = '';
  else delete labels[LABEL_HEADLESS];
  const truncated = truncateEndpoints(subsets);
  if (truncated) annotations[OVER_CAPACITY] = 'truncated';
  else delete annotations[OVER_CAPACITY];
  const endpoints: Endpoints = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    ...(current ?? {}),
    metadata: {
      ...(current?.metadata ?? { name: service.metadata.name, namespace: service.metadata.namespace }),
      labels,
      annotations,
    },
    subsets: truncated ?? subsets,
  };
  return create ? { action: 'create', endpoints } : { action: 'update', endpoints };
}
