// The built-in kinds beyond the core workload ones: rows for the resource table, with upstream's printer columns and defaults.
import type { KubeObject } from '../../../operators/types.ts';
import type { ResourceDef, TableColumn } from '../resource-table.ts';

type Obj = Record<string, unknown>;

function at(object: unknown, path: string): unknown {
  let cur: unknown = object;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[part];
  }
  return cur;
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

function str(value: unknown, fallback = '<none>'): string {
  if (value === undefined || value === null || value === '') return fallback;
  return String(value);
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

function col(
  name: string,
  cell: (o: KubeObject) => string | number | boolean | null,
  type: TableColumn['type'] = 'string',
  priority: 0 | 1 = 0,
): TableColumn {
  return { name, type, description: name, priority, cell };
}

function spec(o: KubeObject): Obj {
  const x = o as Obj;
  if (x.spec === null || typeof x.spec !== 'object') x.spec = {};
  return x.spec as Obj;
}

/** A list shown as kubectl does: the first three, then "+ N more...". */
function firstThree(items: string[], none = '<none>'): string {
  if (items.length === 0) return none;
  const shown = items.slice(0, 3).join(',');
  return items.length > 3 ? `${shown} + ${items.length - 3} more...` : shown;
}

function labelsText(labels: unknown): string {
  const parts = Object.entries((labels as Obj | undefined) ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? parts.sort().join(',') : '<none>';
}

function selectorText(sel: unknown): string {
  const s = sel as Obj | undefined;
  if (!s) return '<none>';
  const parts = Object.entries((s.matchLabels as Obj | undefined) ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  for (const e of list(s.matchExpressions)) {
    const values = ((e.values as string[] | undefined) ?? []).join(',');
    if (e.operator === 'In') parts.push(`${String(e.key)} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${String(e.key)} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(String(e.key));
    else if (e.operator === 'DoesNotExist') parts.push(`!${String(e.key)}`);
  }
  return parts.length ? parts.join(',') : '<none>';
}

function accessModes(modes: unknown): string {
  const short: Record<string, string> = {
    ReadWriteOnce: 'RWO',
    ReadOnlyMany: 'ROX',
    ReadWriteMany: 'RWX',
    ReadWriteOncePod: 'RWOP',
  };
  return ((modes as string[] | undefined) ?? []).map((m) => short[m] ?? m).join(',');
}

function endpointsText(o: KubeObject): string {
  const out: string[] = [];
  for (const subset of list(at(o, 'subsets'))) {
    const ports = list(subset.ports);
    for (const a of list(subset.addresses)) {
      if (ports.length === 0) out.push(String(a.ip));
      else for (const p of ports) out.push(`${String(a.ip)}:${String(p.port)}`);
    }
  }
  return firstThree(out);
}

function quotaText(o: KubeObject, limits: boolean): string {
  const hard = (at(o, 'status.hard') ?? at(o, 'spec.hard') ?? {}) as Obj;
  const used = (at(o, 'status.used') ?? {}) as Obj;
  return Object.keys(hard)
    .sort()
    .filter((k) => k.startsWith('limits.') === limits)
    .map((k) => `${k}: ${String(used[k] ?? '0')}/${String(hard[k])}`)
    .join(', ');
}

function subjects(o: KubeObject, kind: string): string {
  return list(at(o, 'subjects'))
    .filter((s) => s.kind === kind)
    .map((s) =>
      kind === 'ServiceAccount' ? `${String(s.namespace ?? '')}:${String(s.name)}` : String(s.name),
    )
    .join(', ');
}

function bindingColumns(): TableColumn[] {
  return [
    col('Role', (o) => `${String(at(o, 'roleRef.kind'))}/${String(at(o, 'roleRef.name'))}`),
    col('Users', (o) => subjects(o, 'User'), 'string', 1),
    col('Groups', (o) => subjects(o, 'Group'), 'string', 1),
    col('ServiceAccounts', (o) => subjects(o, 'ServiceAccount'), 'string', 1),
  ];
}

function hpaTargets(o: KubeObject): string {
  const current = list(at(o, 'status.currentMetrics'));
  const parts = list(at(o, 'spec.metrics')).map((m, i) => {
    if (m.type !== 'Resource') return '<unknown>/<unknown>';
    const target = (at(m, 'resource.target') ?? {}) as Obj;
    const now = at(current[i], 'resource.current') as Obj | undefined;
    const name = String(at(m, 'resource.name'));
    if (target.type === 'Utilization') {
      const cur = now?.averageUtilization === undefined ? '<unknown>' : `${String(now.averageUtilization)}%`;
      return `${name}: ${cur}/${String(target.averageUtilization)}%`;
    }
    const cur = now?.averageValue === undefined ? '<unknown>' : String(now.averageValue);
    return `${name}: ${cur}/${String(target.averageValue ?? target.value)}`;
  });
  return firstThree(parts, '<none>');
}

function csrCondition(o: KubeObject): string {
  const conds = list(at(o, 'status.conditions'));
  const names: string[] = [];
  for (const t of ['Approved', 'Denied', 'Failed']) if (conds.some((c) => c.type === t)) names.push(t);
  if (names.length === 0) return 'Pending';
  if (at(o, 'status.certificate')) names.push('Issued');
  return names.join(',');
}

function duration(seconds: unknown): string {
  if (typeof seconds !== 'number') return '<none>';
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

interface Row
  extends Partial<Omit<ResourceDef, 'group' | 'version' | 'resource' | 'kind' | 'namespaced' | 'columns'>> {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  columns: TableColumn[];
}

function row(r: Row): ResourceDef {
  return {
    singular: r.kind.toLowerCase(),
    subresources: [],
    shortNames: [],
    categories: [],
    nameRule: 'subdomain',
    required: [],
    fieldSelectors: [],
    ...r,
  };
}

const createdAt = col('Created At', (o) => str(at(o, 'metadata.creationTimestamp')), 'date');

/** The rows, in the order kubectl api-resources lists them. */
export const BUILTIN_RESOURCES: readonly ResourceDef[] = [
  row({
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: ['token'],
    columns: [col('Secrets', (o) => list(at(o, 'secrets')).length, 'integer')],
  }),
  row({
    group: '',
    version: 'v1',
    resource: 'endpoints',
    singular: 'endpoints',
    kind: 'Endpoints',
    namespaced: true,
    shortNames: ['ep'],
    columns: [col('Endpoints', endpointsText)],
    defaults: (o) => {
      for (const s of list((o as Obj).subsets)) for (const p of list(s.ports)) p.protocol ??= 'TCP';
    },
  }),
  row({
    group: '',
    version: 'v1',
    resource: 'podtemplates',
    kind: 'PodTemplate',
    namespaced: true,
    agePosition: 'none',
    columns: [
      col('Containers', (o) =>
        list(at(o, 'template.spec.containers'))
          .map((c) => String(c.name))
          .join(','),
      ),
      col('Images', (o) =>
        list(at(o, 'template.spec.containers'))
          .map((c) => String(c.image))
          .join(','),
      ),
      col('Pod Labels', (o) => labelsText(at(o, 'template.metadata.labels'))),
    ],
  }),
  row({
    group: '',
    version: 'v1',
    resource: 'replicationcontrollers',
    kind: 'ReplicationController',
    namespaced: true,
    subresources: ['status', 'scale'],
    shortNames: ['rc'],
    categories: ['all'],
    required: ['spec.template'],
    fieldSelectors: ['status.replicas'],
    scale: { defaultReplicas: 1 },
    columns: [
      col('Desired', (o) => num(at(o, 'spec.replicas')), 'integer'),
      col('Current', (o) => num(at(o, 'status.replicas')), 'integer'),
      col('Ready', (o) => num(at(o, 'status.readyReplicas')), 'integer'),
      col(
        'Containers',
        (o) =>
          list(at(o, 'spec.template.spec.containers'))
            .map((c) => String(c.name))
            .join(','),
        'string',
        1,
      ),
      col(
        'Images',
        (o) =>
          list(at(o, 'spec.template.spec.containers'))
            .map((c) => String(c.image))
            .join(','),
        'string',
        1,
      ),
      col('Selector', (o) => labelsText(at(o, 'spec.selector')), 'string', 1),
    ],
    defaults: (o) => {
      const s = spec(o);
      s.replicas ??= 1;
      s.minReadySeconds ??= 0;
      // Upstream: an absent selector and template labels default to each other.
      const labels = at(s, 'template.metadata.labels') as Obj | undefined;
      if (!s.selector && labels) s.selector = { ...labels };
      const meta = o.metadata ?? {};
      o.metadata = meta;
      if (!meta.labels && labels) meta.labels = { ...(labels as Record<string, string>) };
    },
  }),
  row({
    group: '',
    version: 'v1',
    resource: 'resourcequotas',
    kind: 'ResourceQuota',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['quota'],
    agePosition: 0,
    columns: [col('Request', (o) => quotaText(o, false)), col('Limit', (o) => quotaText(o, true))],
  }),
  row({
    group: '',
    version: 'v1',
    resource: 'limitranges',
    kind: 'LimitRange',
    namespaced: true,
    shortNames: ['limits'],
    agePosition: 'none',
    columns: [createdAt],
  }),
  row({
    group: '',
    version: 'v1',
    resource: 'persistentvolumes',
    kind: 'PersistentVolume',
    namespaced: false,
    subresources: ['status'],
    shortNames: ['pv'],
    fieldSelectors: ['status.phase'],
    columns: [
      col('Capacity', (o) => str(at(o, 'spec.capacity.storage'), '')),
      col('Access Modes', (o) => accessModes(at(o, 'spec.accessModes'))),
      col('Reclaim Policy', (o) => str(at(o, 'spec.persistentVolumeReclaimPolicy'), '')),
      col('Status', (o) => str(at(o, 'status.phase'), '')),
      col('Claim', (o) =>
        at(o, 'spec.claimRef.name')
          ? `${String(at(o, 'spec.claimRef.namespace'))}/${String(at(o, 'spec.claimRef.name'))}`
          : '',
      ),
      col('StorageClass', (o) => str(at(o, 'spec.storageClassName'), '')),
      col('VolumeAttributesClass', (o) => str(at(o, 'spec.volumeAttributesClassName'))),
      col('Reason', (o) => str(at(o, 'status.reason'), '')),
      col('VolumeMode', (o) => str(at(o, 'spec.volumeMode'), 'Filesystem'), 'string', 1),
    ],
    defaults: (o) => {
      const s = spec(o);
      s.persistentVolumeReclaimPolicy ??= 'Retain';
      s.volumeMode ??= 'Filesystem';
      const x = o as Obj;
      x.status = { phase: 'Pending', ...((x.status as Obj | undefined) ?? {}) };
    },
  }),
  row({
    group: '',
    version: 'v1',
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['pvc'],
    required: ['spec.accessModes'],
    columns: [
      col('Status', (o) => str(at(o, 'status.phase'), '')),
      col('Volume', (o) => str(at(o, 'spec.volumeName'), '')),
      col('Capacity', (o) => str(at(o, 'status.capacity.storage'), '')),
      col('Access Modes', (o) => accessModes(at(o, 'status.accessModes'))),
      col('StorageClass', (o) => str(at(o, 'spec.storageClassName'), '')),
      col('VolumeAttributesClass', (o) => str(at(o, 'spec.volumeAttributesClassName'))),
      col('VolumeMode', (o) => str(at(o, 'spec.volumeMode'), 'Filesystem'), 'string', 1),
    ],
    defaults: (o) => {
      spec(o).volumeMode ??= 'Filesystem';
      const x = o as Obj;
      x.status = { phase: 'Pending', ...((x.status as Obj | undefined) ?? {}) };
    },
  }),
  row({
    group: 'events.k8s.io',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    fieldSelectors: [
      'reason',
      'type',
      'reportingController',
      'regarding.kind',
      'regarding.name',
      'regarding.namespace',
    ],
    columns: [
      col('Type', (o) => str(at(o, 'type'))),
      col('Reason', (o) => str(at(o, 'reason'))),
      col(
        'Object',
        (o) => `${String(at(o, 'regarding.kind') ?? '').toLowerCase()}/${str(at(o, 'regarding.name'), '')}`,
      ),
      col('Message', (o) => str(at(o, 'note'), '')),
    ],
  }),
  row({
    group: 'discovery.k8s.io',
    version: 'v1',
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    namespaced: true,
    required: ['addressType'],
    columns: [
      col('AddressType', (o) => str(at(o, 'addressType'), '')),
      col('Ports', (o) =>
        firstThree(
          list(at(o, 'ports')).map((p) => String(p.port ?? '')),
          '<unset>',
        ),
      ),
      col('Endpoints', (o) =>
        firstThree(list(at(o, 'endpoints')).flatMap((e) => (e.addresses as string[] | undefined) ?? [])),
      ),
    ],
    defaults: (o) => {
      for (const p of list((o as Obj).ports)) p.protocol ??= 'TCP';
    },
  }),
  row({
    group: 'apps',
    version: 'v1',
    resource: 'controllerrevisions',
    kind: 'ControllerRevision',
    namespaced: true,
    required: ['revision'],
    columns: [
      col('Controller', (o) => {
        const owner = list(at(o, 'metadata.ownerReferences')).find((r) => r.controller === true);
        if (!owner) return '<none>';
        const group = String(owner.apiVersion ?? '').split('/');
        const g = group.length > 1 ? `.${group[0]}` : '';
        return `${String(owner.kind).toLowerCase()}${g}/${String(owner.name)}`;
      }),
      col('Revision', (o) => num(at(o, 'revision')), 'integer'),
    ],
  }),
  row({
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'storageclasses',
    kind: 'StorageClass',
    namespaced: false,
    shortNames: ['sc'],
    required: ['provisioner'],
    columns: [
      col('Provisioner', (o) => str(at(o, 'provisioner'), '')),
      col('ReclaimPolicy', (o) => str(at(o, 'reclaimPolicy'), 'Delete')),
      col('VolumeBindingMode', (o) => str(at(o, 'volumeBindingMode'), 'Immediate')),
      col('AllowVolumeExpansion', (o) => at(o, 'allowVolumeExpansion') === true, 'boolean'),
    ],
    defaults: (o) => {
      const x = o as Obj;
      x.reclaimPolicy ??= 'Delete';
      x.volumeBindingMode ??= 'Immediate';
    },
  }),
  row({
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'csidrivers',
    kind: 'CSIDriver',
    namespaced: false,
    columns: [
      col('AttachRequired', (o) => at(o, 'spec.attachRequired') !== false, 'boolean'),
      col('PodInfoOnMount', (o) => at(o, 'spec.podInfoOnMount') === true, 'boolean'),
      col('StorageCapacity', (o) => at(o, 'spec.storageCapacity') === true, 'boolean'),
      col('TokenRequests', (o) =>
        str(
          list(at(o, 'spec.tokenRequests'))
            .map((t) => String(t.audience))
            .join(','),
        ),
      ),
      col('RequiresRepublish', (o) => at(o, 'spec.requiresRepublish') === true, 'boolean'),
      col('Modes', (o) => ((at(o, 'spec.volumeLifecycleModes') as string[] | undefined) ?? []).join(',')),
    ],
    defaults: (o) => {
      const s = spec(o);
      s.attachRequired ??= true;
      s.podInfoOnMount ??= false;
      s.storageCapacity ??= false;
      s.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
      s.requiresRepublish ??= false;
      s.seLinuxMount ??= false;
      s.volumeLifecycleModes ??= ['Persistent'];
    },
  }),
  row({
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'volumeattachments',
    kind: 'VolumeAttachment',
    namespaced: false,
    subresources: ['status'],
    required: ['spec.attacher', 'spec.nodeName', 'spec.source'],
    columns: [
      col('Attacher', (o) => str(at(o, 'spec.attacher'), '')),
      col('PV', (o) => str(at(o, 'spec.source.persistentVolumeName'), '')),
      col('Node', (o) => str(at(o, 'spec.nodeName'), '')),
      col('Attached', (o) => at(o, 'status.attached') === true, 'boolean'),
    ],
  }),
  ...(['roles', 'clusterroles'] as const).map((resource) =>
    row({
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      resource,
      kind: resource === 'roles' ? 'Role' : 'ClusterRole',
      namespaced: resource === 'roles',
      nameRule: 'path-segment',
      agePosition: 'none',
      columns: [createdAt],
    }),
  ),
  ...(['rolebindings', 'clusterrolebindings'] as const).map((resource) =>
    row({
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      resource,
      kind: resource === 'rolebindings' ? 'RoleBinding' : 'ClusterRoleBinding',
      namespaced: resource === 'rolebindings',
      nameRule: 'path-segment',
      required: ['roleRef.name', 'roleRef.kind'],
      columns: bindingColumns(),
      defaults: (o) => {
        for (const s of list((o as Obj).subjects)) {
          if (s.kind !== 'ServiceAccount') s.apiGroup ??= 'rbac.authorization.k8s.io';
        }
      },
    }),
  ),
  row({
    group: 'networking.k8s.io',
    version: 'v1',
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['ing'],
    columns: [
      col('Class', (o) => str(at(o, 'spec.ingressClassName'))),
      col('Hosts', (o) =>
        firstThree(
          list(at(o, 'spec.rules')).map((r) => String(r.host ?? '*')),
          '*',
        ),
      ),
      col('Address', (o) =>
        list(at(o, 'status.loadBalancer.ingress'))
          .map((i) => String(i.ip ?? i.hostname ?? ''))
          .join(','),
      ),
      col('Ports', (o) => (list(at(o, 'spec.tls')).length ? '80, 443' : '80')),
    ],
    defaults: (o) => {
      for (const r of list(spec(o).rules))
        for (const p of list(at(r, 'http.paths'))) p.pathType ??= 'ImplementationSpecific';
    },
  }),
  row({
    group: 'networking.k8s.io',
    version: 'v1',
    resource: 'ingressclasses',
    kind: 'IngressClass',
    namespaced: false,
    columns: [
      col('Controller', (o) => str(at(o, 'spec.controller'), '')),
      col('Parameters', (o) => {
        const p = at(o, 'spec.parameters') as Obj | undefined;
        if (!p) return '<none>';
        return `${String(p.kind)}.${String(p.apiGroup ?? '')}/${String(p.name)}`;
      }),
    ],
  }),
  row({
    group: 'networking.k8s.io',
    version: 'v1',
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    namespaced: true,
    shortNames: ['netpol'],
    columns: [col('Pod-Selector', (o) => selectorText(at(o, 'spec.podSelector')))],
    defaults: (o) => {
      const s = spec(o);
      s.podSelector ??= {};
      if (!s.policyTypes) s.policyTypes = s.egress ? ['Ingress', 'Egress'] : ['Ingress'];
      for (const r of [...list(s.ingress), ...list(s.egress)])
        for (const p of list(r.ports)) p.protocol ??= 'TCP';
    },
  }),
  row({
    group: 'autoscaling',
    version: 'v2',
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['hpa'],
    categories: ['all'],
    required: ['spec.scaleTargetRef.kind', 'spec.scaleTargetRef.name', 'spec.maxReplicas'],
    columns: [
      col(
        'Reference',
        (o) => `${String(at(o, 'spec.scaleTargetRef.kind'))}/${String(at(o, 'spec.scaleTargetRef.name'))}`,
      ),
      col('Targets', hpaTargets),
      col('MinPods', (o) => str(at(o, 'spec.minReplicas'), '<unset>')),
      col('MaxPods', (o) => num(at(o, 'spec.maxReplicas')), 'integer'),
      col('Replicas', (o) => num(at(o, 'status.currentReplicas')), 'integer'),
    ],
    defaults: (o) => {
      const s = spec(o);
      s.minReplicas ??= 1;
      if (!s.metrics)
        s.metrics = [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
          },
        ];
    },
  }),
  row({
    group: 'certificates.k8s.io',
    version: 'v1',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    namespaced: false,
    subresources: ['status', 'approval'],
    shortNames: ['csr'],
    agePosition: 0,
    required: ['spec.request', 'spec.signerName'],
    columns: [
      col('SignerName', (o) => str(at(o, 'spec.signerName'), '')),
      col('Requestor', (o) => str(at(o, 'spec.username'), '')),
      col('RequestedDuration', (o) => duration(at(o, 'spec.expirationSeconds'))),
      col('Condition', csrCondition),
    ],
    defaults: (o) => {
      const s = spec(o);
      if (s.usages === undefined) s.usages = ['digital signature', 'key encipherment'];
    },
  }),
  row({
    group: 'node.k8s.io',
    version: 'v1',
    resource: 'runtimeclasses',
    kind: 'RuntimeClass',
    namespaced: false,
    required: ['handler'],
    nameRule: 'subdomain',
    columns: [col('Handler', (o) => str(at(o, 'handler'), ''))],
  }),
];
