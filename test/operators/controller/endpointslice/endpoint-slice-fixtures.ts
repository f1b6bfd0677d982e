// Fixtures for the endpointslice tests: Services, pods, nodes and an in-memory apply of a plan (names, uids and resourceVersions as a server gives them).
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import type { EndpointSlicePlan } from '../../../../operators/controller/endpointslice/endpoint-slice-plan.ts';
import type {
  EndpointSlice,
  Service,
} from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';

export const service = (over: Partial<Service['spec']> = {}, labels?: Record<string, string>): Service => ({
  metadata: { name: 'web', namespace: 'default', uid: 'svc-uid', ...(labels ? { labels } : {}) },
  spec: {
    selector: { app: 'web' },
    clusterIP: '10.96.0.10',
    ipFamilies: ['IPv4'],
    ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
    ...over,
  },
});

export interface PodOptions {
  ip?: string | string[];
  ready?: boolean;
  node?: string;
  terminating?: boolean;
  phase?: string;
  ports?: { name: string; containerPort: number; protocol?: string }[];
  hostname?: string;
  subdomain?: string;
}

export const pod = (i: number, o: PodOptions = {}): Pod => {
  const ips = o.ip === undefined ? [`10.0.0.${i}`] : Array.isArray(o.ip) ? o.ip : [o.ip];
  return {
    metadata: {
      name: `pod${i}`,
      namespace: 'default',
      uid: `pod-uid-${i}`,
      labels: { app: 'web' },
      ...(o.terminating ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: {
      nodeName: o.node ?? 'node-1',
      containers: [{ name: 'c', image: 'nginx', ...(o.ports ? { ports: o.ports } : {}) }],
      ...(o.hostname ? { hostname: o.hostname } : {}),
      ...(o.subdomain ? { subdomain: o.subdomain } : {}),
    },
    status: {
      phase: o.phase ?? 'Running',
      ...(ips.length > 0 ? { podIP: ips[0], podIPs: ips.map((ip) => ({ ip })) } : {}),
      conditions: [{ type: 'Ready', status: (o.ready ?? true) ? 'True' : 'False' }],
    },
  };
};

export const node = (name: string, zone?: string): Node => ({
  metadata: { name, ...(zone ? { labels: { 'topology.kubernetes.io/zone': zone } } : {}) },
});

export const nodesOf =
  (...ns: Node[]) =>
  (name: string) =>
    ns.find((n) => n.metadata.name === name);

/** Applies a plan to a list of slices as the API server would: names and uids for creates, a new resourceVersion per write. */
export function applyPlan(
  current: EndpointSlice[],
  plan: EndpointSlicePlan,
  counter = { n: 0 },
): EndpointSlice[] {
  const next = new Map(current.map((s) => [s.metadata.name ?? '', s]));
  for (const s of plan.delete) next.delete(s.metadata.name ?? '');
  for (const s of plan.update) {
    counter.n++;
    next.set(s.metadata.name ?? '', {
      ...s,
      metadata: { ...s.metadata, resourceVersion: String(counter.n) },
    });
  }
  for (const s of plan.create) {
    counter.n++;
    const name = `${s.metadata.generateName}${counter.n}`;
    next.set(name, {
      ...s,
      metadata: { ...s.metadata, name, uid: `slice-${counter.n}`, resourceVersion: String(counter.n) },
    });
  }
  return [...next.values()];
}
