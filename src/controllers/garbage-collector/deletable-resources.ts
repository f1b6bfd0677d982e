// deletableResources: the garbage collector's discovery — the resources it must watch (list, watch and delete), built-in ones the server serves plus every established CustomResourceDefinition.
import { catchError, forkJoin, map, type Observable, of, switchMap, take } from 'rxjs';
import { ApiError } from '../../../operators/errors.ts';
import type { Logger } from '../../../operators/logger.ts';
import type { KubeObject } from '../../../operators/types.ts';
import type { ApiClient, ApiResourceList, ResourceDescriptor } from '../../../streams/api-client.ts';

/**
 * A resource the collector watches, at its preferred version, with the other versions the server also
 * serves it at (owner references may name any of them; they are read through the preferred one).
 */
export interface DiscoveredResource extends ResourceDescriptor {
  readonly otherVersions?: readonly string[];
}

/** Discovery for the collector: every resource it should watch, asked again every resync period. */
export type ResourceDiscovery = () => Observable<readonly DiscoveredResource[]>;

const r = (
  group: string,
  version: string,
  plural: string,
  kind: string,
  namespaced = true,
): DiscoveredResource => ({
  group,
  version,
  plural,
  kind,
  namespaced,
});

/**
 * The built-in resources of a recent kube-apiserver that support list, watch and delete, at their
 * preferred versions; Events (core and events.k8s.io) are left out as upstream's collector ignores them.
 */
export const BUILT_IN_DELETABLE_RESOURCES: readonly DiscoveredResource[] = [
  r('', 'v1', 'pods', 'Pod'),
  r('', 'v1', 'configmaps', 'ConfigMap'),
  r('', 'v1', 'secrets', 'Secret'),
  r('', 'v1', 'services', 'Service'),
  r('', 'v1', 'serviceaccounts', 'ServiceAccount'),
  r('', 'v1', 'endpoints', 'Endpoints'),
  r('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim'),
  r('', 'v1', 'persistentvolumes', 'PersistentVolume', false),
  r('', 'v1', 'podtemplates', 'PodTemplate'),
  r('', 'v1', 'replicationcontrollers', 'ReplicationController'),
  r('', 'v1', 'resourcequotas', 'ResourceQuota'),
  r('', 'v1', 'limitranges', 'LimitRange'),
  r('', 'v1', 'namespaces', 'Namespace', false),
  r('', 'v1', 'nodes', 'Node', false),
  r('apps', 'v1', 'deployments', 'Deployment'),
  r('apps', 'v1', 'replicasets', 'ReplicaSet'),
  r('apps', 'v1', 'statefulsets', 'StatefulSet'),
  r('apps', 'v1', 'daemonsets', 'DaemonSet'),
  r('apps', 'v1', 'controllerrevisions', 'ControllerRevision'),
  r('batch', 'v1', 'jobs', 'Job'),
  r('batch', 'v1', 'cronjobs', 'CronJob'),
  { ...r('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'), otherVersions: ['v1'] },
  r('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'),
  r('networking.k8s.io', 'v1', 'ingresses', 'Ingress'),
  r('networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', false),
  r('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy'),
  r('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice'),
  r('coordination.k8s.io', 'v1', 'leases', 'Lease'),
  r('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false),
  r('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false),
  r('storage.k8s.io', 'v1', 'csinodes', 'CSINode', false),
  r('storage.k8s.io', 'v1', 'csidrivers', 'CSIDriver', false),
  r('storage.k8s.io', 'v1', 'volumeattachments', 'VolumeAttachment', false),
  r('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false),
  r('certificates.k8s.io', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false),
  r('rbac.authorization.k8s.io', 'v1', 'roles', 'Role'),
  r('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding'),
  r('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  r('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  r(
    'admissionregistration.k8s.io',
    'v1',
    'validatingwebhookconfigurations',
    'ValidatingWebhookConfiguration',
    false,
  ),
  r(
    'admissionregistration.k8s.io',
    'v1',
    'mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    false,
  ),
  r('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
];

const CRDS = r('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false);

interface CrdVersion {
  name: string;
  served?: boolean;
}
interface Crd extends KubeObject {
  spec?: {
    group?: string;
    scope?: string;
    names?: { plural?: string; kind?: string };
    versions?: CrdVersion[];
  };
  status?: { conditions?: { type?: string; status?: string }[] };
}

/** Kubernetes' version priority: GA before beta before alpha, higher numbers first, then other names alphabetically. */
function versionRank(v: string): [number, number, number, string] {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return [3, 0, 0, v];
  const stage = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
  return [stage, -Number(m[1]), -Number(m[3] ?? 0), ''];
}

/**
 * The version discovery prefers among served versions (upstream's kube-aware version order).
 * @param versions the served version names
 */
export function preferredVersion(versions: readonly string[]): string | undefined {
  return [...versions].sort((a, b) => {
    const x = versionRank(a);
    const y = versionRank(b);
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x[3] < y[3] ? -1 : x[3] > y[3] ? 1 : 0;
  })[0];
}

/**
 * The resource of each established CustomResourceDefinition, at its preferred served version.
 * @param crds the definitions
 */
export function crdResources(crds: readonly KubeObject[]): DiscoveredResource[] {
  const out: DiscoveredResource[] = [];
  for (const crd of crds as Crd[]) {
    const established = crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    const { group, names, scope, versions } = crd.spec ?? {};
    if (!established || !group || !names?.plural || !names.kind) continue;
    const served = (versions ?? []).filter((v) => v.served !== false).map((v) => v.name);
    const version = preferredVersion(served);
    if (!version) continue;
    const otherVersions = served.filter((v) => v !== version);
    out.push({
      ...r(group, version, names.plural, names.kind, scope !== 'Cluster'),
      ...(otherVersions.length ? { otherVersions } : {}),
    });
  }
  return out;
}

const isNotServed = (e: unknown) => e instanceof ApiError && (e.statusCode === 404 || e.statusCode === 405);

/** Upstream's collector ignores Events (core and events.k8s.io): nothing owns them in a way it must follow. */
const IGNORED = new Set(['events.', 'events.events.k8s.io']);

/**
 * The resources of a discovery answer the collector watches: top-level resources that support list, watch
 * and delete, Events left out.
 * @param lists each group's preferred version's resources
 */
export function gcResourcesFromDiscovery(lists: readonly ApiResourceList[]): DiscoveredResource[] {
  const out: DiscoveredResource[] = [];
  for (const list of lists) {
    const slash = list.groupVersion.indexOf('/');
    const group = slash < 0 ? '' : list.groupVersion.slice(0, slash);
    const version = slash < 0 ? list.groupVersion : list.groupVersion.slice(slash + 1);
    for (const res of list.resources) {
      if (res.name.includes('/') || IGNORED.has(`${res.name}.${group}`)) continue;
      if (!['list', 'watch', 'delete'].every((v) => res.verbs.includes(v))) continue;
      out.push(r(group, version, res.name, res.kind, res.namespaced));
    }
  }
  return out;
}

/**
 * The collector's discovery over an ApiClient. With the client's discovery call (kubeApiClient has it):
 * every group's preferred version, as upstream's `GetDeletableResources`; the group-versions that failed are
 * logged and left out for this round. Without it (fakes): the built-in table, each entry probed once with a
 * one-item metadata list (a resource the server does not serve is left out, and remembered). Either way the
 * established CRDs are listed at every call to know the other versions they serve, so owner references
 * naming any of them resolve. Cancellable: unsubscribing aborts the requests in flight.
 *
 * @example
 * firstValueFrom(deletableResources(client, logger)()); // [pods, configmaps, ..., crontabs.stable.example.com]
 * @param client the API client
 * @param logger where failures are logged
 * @returns the discovery function
 */
export function deletableResources(client: ApiClient, logger: Logger): ResourceDiscovery {
  const served = new Map<string, boolean>();
  let custom: DiscoveredResource[] = [];
  const keyOf = (d: ResourceDescriptor) => `${d.plural}.${d.group}/${d.version}`;
  const probe = (d: DiscoveredResource): Observable<DiscoveredResource[]> => {
    const known = served.get(keyOf(d));
    if (known !== undefined) return of(known ? [d] : []);
    return client.list(d, { limit: 1, metadataOnly: true }).pipe(
      take(1),
      map(() => {
        served.set(keyOf(d), true);
        return [d];
      }),
      catchError((e: unknown) => {
        if (isNotServed(e)) served.set(keyOf(d), false);
        else logger.info({ resource: keyOf(d), err: String(e) }, 'failed to discover some groups');
        return of([]);
      }),
    );
  };
  const builtIn$ = (): Observable<DiscoveredResource[]> => {
    const discover = client.serverPreferredResources?.bind(client);
    if (!discover)
      return forkJoin(BUILT_IN_DELETABLE_RESOURCES.map(probe)).pipe(map((lists) => lists.flat()));
    return discover().pipe(
      take(1),
      map(({ lists, failed }) => {
        for (const f of failed)
          logger.info({ groupVersion: f.groupVersion, err: f.message }, 'failed to discover some groups');
        const table = new Map(BUILT_IN_DELETABLE_RESOURCES.map((d) => [keyOf(d), d]));
        return gcResourcesFromDiscovery(lists).map((d) => table.get(keyOf(d)) ?? d);
      }),
    );
  };
  return () =>
    builtIn$().pipe(
      switchMap((builtIn) => {
        const crdsServed = builtIn.some((d) => d.group === CRDS.group && d.plural === CRDS.plural);
        if (!crdsServed) return of({ builtIn, custom: [] as DiscoveredResource[] });
        return client.list<Crd>(CRDS).pipe(
          take(1),
          map((list) => {
            custom = crdResources(list.items);
            return { builtIn, custom };
          }),
          // keep the last known custom resources, so their monitors stay (upstream's partial discovery failure)
          catchError((e: unknown) => {
            logger.info({ err: String(e) }, 'failed to discover some groups');
            return of({ builtIn, custom });
          }),
        );
      }),
      map(({ builtIn, custom }) => {
        // a custom resource from the CRD list (with its other served versions) replaces discovery's entry
        const isCustom = new Set(custom.map((d) => `${d.plural}.${d.group}`));
        return [...builtIn.filter((d) => !isCustom.has(`${d.plural}.${d.group}`)), ...custom];
      }),
      catchError((e: unknown) => {
        logger.info({ err: String(e) }, 'failed to discover preferred resources');
        return of([] as DiscoveredResource[]);
      }),
    );
}
