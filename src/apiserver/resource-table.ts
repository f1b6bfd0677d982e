// The resources the embedded API server serves, one row each: adding a resource is adding a row.
import type { KubeObject } from '../../operators/types.ts';
import type { StatusCause } from './api-status.ts';
import { BUILTIN_RESOURCES } from './builtin/builtin-resources.ts';
import { CUSTOM_RESOURCE_DEFINITIONS } from './crd/custom-resource-definitions-resource.ts';
import { humanDuration } from './table.ts';

/** One column of a resource's Table form (after Name, before Age). */
export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  description: string;
  /** 0 is shown by default, 1 only with `-o wide`. */
  priority: 0 | 1;
  cell(object: KubeObject): string | number | boolean | null;
}

/** Where the scale subresource reads and writes replicas. */
export interface ScaleSpec {
  /** `.spec.replicas` defaulted to this when absent. */
  defaultReplicas: number;
  /** Custom resources: where replicas are read and written (`.spec.replicas` by default). */
  specReplicasPath?: string;
  /** Custom resources: where the observed replicas are read (`.status.replicas` by default). */
  statusReplicasPath?: string;
  /** Custom resources: where the selector string is read (`.spec.selector`, a LabelSelector, by default). */
  labelSelectorPath?: string;
}

/** The naming rule an object's `metadata.name` must follow. */
export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'path-segment';

/**
 * One served resource. Invariants: `resource` is the lower-case plural, unique within its group;
 * `kind` is unique within its group; `id` (`group/resource`, or `resource` for core) names the row.
 */
export interface ResourceDef {
  group: string;
  version: string;
  resource: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  subresources: readonly ('status' | 'scale' | 'binding' | 'approval' | 'token' | 'eviction')[];
  shortNames: readonly string[];
  categories: readonly string[];
  nameRule: NameRule;
  /** Dot paths that must be present (non-empty) on create and update. */
  required: readonly string[];
  /** Field selector paths accepted besides metadata.name and metadata.namespace. */
  fieldSelectors: readonly string[];
  columns: readonly TableColumn[];
  /** Defaults applied on create, as a function that mutates the new object. */
  defaults?: (object: KubeObject) => void;
  scale?: ScaleSpec;
  /** Pods: DELETE waits for the kubelet when the pod is bound to a node. */
  gracefulDelete?: boolean;
  /** Where Age sits among the default columns (0: right after Name; default: last), or 'none' for no Age. */
  agePosition?: number | 'none';
  /** The propagation policy when a DELETE names none (batch/v1 jobs orphan, as in Kubernetes). */
  defaultPropagation?: 'Orphan' | 'Background';
  /** Rows added at run time (CRDs): more validation of an object about to be stored (`old` on update). */
  validate?: (object: KubeObject, old?: KubeObject) => StatusCause[];
  /** Rows added at run time: rewrites every written body of the row's kind in place first (CRs: prune, default). */
  normalize?: (object: KubeObject) => void;
  /** Rows added at run time: a stored object as this row's clients read it (a new object; CRs: apiVersion, defaults). */
  present?: (object: KubeObject) => KubeObject;
  /** The PATCH media types accepted, when not all of them (custom resources refuse strategic merge). */
  patchTypes?: readonly string[];
  /** Creates are refused with 405 (the resource's CRD is being deleted). */
  terminating?: boolean;
  /** The part of an object whose change bumps metadata.generation on update; default `spec`. */
  generationPart?: (object: KubeObject) => unknown;
  /** Warnings for the answer to a write, from the object written (CRDs: CEL rules not evaluated). */
  writeWarnings?: (object: KubeObject) => string[];
  /** Sent as a Warning header with every request to this row (a deprecated CRD version). */
  deprecationWarning?: string;
}

type Obj = Record<string, unknown>;

function at(object: unknown, path: string): unknown {
  let cur: unknown = object;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[part];
  }
  return cur;
}

/** The object under `field`, created empty when missing. */
function child(object: KubeObject, field: string): Obj {
  const o = object as Obj;
  if (o[field] === null || typeof o[field] !== 'object') o[field] = {};
  return o[field] as Obj;
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
  description = name,
): TableColumn {
  return { name, type, description, priority, cell };
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

function podStatusReason(pod: KubeObject): string {
  if (at(pod, 'metadata.deletionTimestamp')) return 'Terminating';
  const reason = at(pod, 'status.reason');
  let out = str(reason ?? at(pod, 'status.phase'), 'Pending');
  for (const cs of list(at(pod, 'status.containerStatuses'))) {
    const waiting = at(cs, 'state.waiting.reason');
    const terminated = at(cs, 'state.terminated.reason');
    if (typeof waiting === 'string' && waiting) out = waiting;
    else if (typeof terminated === 'string' && terminated) out = terminated;
  }
  return out;
}

function podReady(pod: KubeObject): string {
  const total = list(at(pod, 'spec.containers')).length;
  const ready = list(at(pod, 'status.containerStatuses')).filter((c) => c.ready === true).length;
  return `${ready}/${total}`;
}

function podRestarts(pod: KubeObject): number {
  return list(at(pod, 'status.containerStatuses')).reduce((n, c) => n + num(c.restartCount), 0);
}

function images(o: KubeObject, base: string): string {
  return list(at(o, `${base}.containers`))
    .map((c) => String(c.image ?? ''))
    .join(',');
}

function selectorText(o: KubeObject, path = 'spec.selector'): string {
  const sel = at(o, path) as Obj | undefined;
  if (!sel) return '<none>';
  const labels = (sel.matchLabels ?? (sel.matchExpressions ? undefined : sel)) as Obj | undefined;
  const parts = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? parts.join(',') : '<none>';
}

/** The `-o wide` Selector column of an object with `spec.selector`. */
function selectorColumn(): TableColumn {
  return col('Selector', (o) => selectorText(o), 'string', 1);
}

/** The `-o wide` Images column of an object with a pod template. */
function imagesColumn(): TableColumn {
  return col('Images', (o) => images(o, 'spec.template.spec'), 'string', 1);
}

/** The `-o wide` Containers and Images columns of an object with a pod template. */
function templateColumns(): TableColumn[] {
  const containers = (o: KubeObject) =>
    list(at(o, 'spec.template.spec.containers'))
      .map((c) => String(c.name))
      .join(',');
  return [col('Containers', containers, 'string', 1), imagesColumn()];
}

function nodeRoles(node: KubeObject): string {
  const roles = Object.keys((at(node, 'metadata.labels') as Obj | undefined) ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length ? roles.join(',') : '<none>';
}

function nodeStatus(node: KubeObject): string {
  const ready = list(at(node, 'status.conditions')).find((c) => c.type === 'Ready');
  let out = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  if (at(node, 'spec.unschedulable') === true) out += ',SchedulingDisabled';
  return out;
}

function jobStatus(job: KubeObject): string {
  const conds = list(at(job, 'status.conditions')).filter((c) => c.status === 'True');
  if (conds.some((c) => c.type === 'Complete')) return 'Complete';
  if (conds.some((c) => c.type === 'Failed')) return 'Failed';
  if (conds.some((c) => c.type === 'Suspended')) return 'Suspended';
  return 'Running';
}

/** A job's Duration column, as kubectl prints it: from start to completion, or to now while it runs. */
function jobDuration(o: KubeObject): string {
  const start = Date.parse(String(at(o, 'status.startTime') ?? ''));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(String(at(o, 'status.completionTime') ?? ''));
  return humanDuration((Number.isNaN(end) ? Date.now() : end) - start);
}

const subdomain = 'subdomain' as const;
const workloadFieldSelectors = ['status.replicas'] as const;

/** The served resources. */
export const RESOURCES: readonly ResourceDef[] = [
  {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    singular: 'namespace',
    kind: 'Namespace',
    namespaced: false,
    subresources: ['status'],
    shortNames: ['ns'],
    categories: [],
    nameRule: 'label',
    required: [],
    fieldSelectors: ['status.phase'],
    columns: [col('Status', (o) => str(at(o, 'status.phase'), 'Active'))],
    defaults: (o) => {
      const status = child(o, 'status');
      status.phase ??= 'Active';
      const spec = child(o, 'spec');
      spec.finalizers ??= ['kubernetes'];
      const meta = child(o, 'metadata');
      meta.labels = { ...(meta.labels as Obj), 'kubernetes.io/metadata.name': String(meta.name) };
    },
  },
  {
    group: '',
    version: 'v1',
    resource: 'pods',
    singular: 'pod',
    kind: 'Pod',
    namespaced: true,
    subresources: ['status', 'binding', 'eviction'],
    shortNames: ['po'],
    categories: ['all'],
    nameRule: subdomain,
    required: ['spec.containers'],
    fieldSelectors: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
    columns: [
      col('Ready', podReady),
      col('Status', podStatusReason),
      col('Restarts', podRestarts, 'string'),
      col('IP', (o) => str(at(o, 'status.podIP')), 'string', 1),
      col('Node', (o) => str(at(o, 'spec.nodeName')), 'string', 1),
      col('Nominated Node', (o) => str(at(o, 'status.nominatedNodeName')), 'string', 1),
      col('Readiness Gates', (o) => str(list(at(o, 'spec.readinessGates')).length || undefined), 'string', 1),
    ],
    defaults: (o) => {
      const spec = child(o, 'spec');
      spec.restartPolicy ??= 'Always';
      spec.schedulerName ??= 'default-scheduler';
      spec.terminationGracePeriodSeconds ??= 30;
      spec.dnsPolicy ??= 'ClusterFirst';
      spec.serviceAccountName ??= 'default';
      spec.securityContext ??= {};
      spec.enableServiceLinks ??= true;
      spec.priority ??= 0;
      spec.preemptionPolicy ??= 'PreemptLowerPriority';
      for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
        c.terminationMessagePath ??= '/dev/termination-log';
        c.terminationMessagePolicy ??= 'File';
        c.imagePullPolicy ??=
          String(c.image ?? '').endsWith(':latest') || !String(c.image ?? '').includes(':')
            ? 'Always'
            : 'IfNotPresent';
        c.resources ??= {};
      }
      const status = child(o, 'status');
      status.phase ??= 'Pending';
      status.qosClass ??= 'BestEffort';
    },
    gracefulDelete: true,
  },
  {
    group: '',
    version: 'v1',
    resource: 'nodes',
    singular: 'node',
    kind: 'Node',
    namespaced: false,
    subresources: ['status'],
    shortNames: ['no'],
    categories: [],
    nameRule: subdomain,
    required: [],
    fieldSelectors: ['spec.unschedulable'],
    columns: [
      col('Status', nodeStatus),
      col('Roles', nodeRoles),
      col('Version', (o) => str(at(o, 'status.nodeInfo.kubeletVersion'), '')),
      col(
        'Internal-IP',
        (o) => {
          const a = list(at(o, 'status.addresses')).find((x) => x.type === 'InternalIP');
          return str(a?.address);
        },
        'string',
        1,
      ),
    ],
  },
  {
    group: '',
    version: 'v1',
    resource: 'events',
    singular: 'event',
    kind: 'Event',
    namespaced: true,
    subresources: [],
    shortNames: ['ev'],
    categories: [],
    nameRule: subdomain,
    required: ['involvedObject'],
    fieldSelectors: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
    columns: [
      col('Type', (o) => str(at(o, 'type'))),
      col('Reason', (o) => str(at(o, 'reason'))),
      col(
        'Object',
        (o) =>
          `${String(at(o, 'involvedObject.kind') ?? '').toLowerCase()}/${str(at(o, 'involvedObject.name'), '')}`,
      ),
      col('Message', (o) => str(at(o, 'message'), '')),
    ],
  },
  {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    singular: 'configmap',
    kind: 'ConfigMap',
    namespaced: true,
    subresources: [],
    shortNames: ['cm'],
    categories: [],
    nameRule: subdomain,
    required: [],
    fieldSelectors: [],
    columns: [
      col(
        'Data',
        (o) =>
          Object.keys((at(o, 'data') as Obj) ?? {}).length +
          Object.keys((at(o, 'binaryData') as Obj) ?? {}).length,
        'integer',
      ),
    ],
  },
  {
    group: '',
    version: 'v1',
    resource: 'secrets',
    singular: 'secret',
    kind: 'Secret',
    namespaced: true,
    subresources: [],
    shortNames: [],
    categories: [],
    nameRule: subdomain,
    required: [],
    fieldSelectors: ['type'],
    columns: [
      col('Type', (o) => str(at(o, 'type'), 'Opaque')),
      col('Data', (o) => Object.keys((at(o, 'data') as Obj) ?? {}).length, 'integer'),
    ],
    defaults: (o) => {
      (o as Obj).type ??= 'Opaque';
    },
  },
  {
    group: '',
    version: 'v1',
    resource: 'services',
    singular: 'service',
    kind: 'Service',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['svc'],
    categories: ['all'],
    nameRule: 'dns1035',
    required: [],
    fieldSelectors: ['spec.clusterIP', 'spec.type'],
    columns: [
      col('Type', (o) => str(at(o, 'spec.type'), 'ClusterIP')),
      col('Cluster-IP', (o) => str(at(o, 'spec.clusterIP'))),
      col('External-IP', (o) => str(list(at(o, 'spec.externalIPs')).join(',') || undefined)),
      col('Port(s)', (o) =>
        str(
          list(at(o, 'spec.ports'))
            .map((p) => `${String(p.port)}/${String(p.protocol ?? 'TCP')}`)
            .join(',') || undefined,
        ),
      ),
      selectorColumn(),
    ],
    defaults: (o) => {
      const spec = child(o, 'spec');
      spec.type ??= 'ClusterIP';
      spec.sessionAffinity ??= 'None';
      for (const p of list(spec.ports)) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
    },
  },
  ...(['replicasets', 'deployments', 'statefulsets'] as const).map(
    (resource): ResourceDef => ({
      group: 'apps',
      version: 'v1',
      resource,
      singular: resource.slice(0, -1),
      kind: { replicasets: 'ReplicaSet', deployments: 'Deployment', statefulsets: 'StatefulSet' }[resource],
      namespaced: true,
      subresources: ['status', 'scale'],
      shortNames: [{ replicasets: 'rs', deployments: 'deploy', statefulsets: 'sts' }[resource]],
      categories: ['all'],
      nameRule: subdomain,
      required: ['spec.selector', 'spec.template'],
      fieldSelectors: workloadFieldSelectors,
      columns:
        resource === 'deployments'
          ? [
              col('Ready', (o) => `${num(at(o, 'status.readyReplicas'))}/${num(at(o, 'spec.replicas'))}`),
              col('Up-to-date', (o) => num(at(o, 'status.updatedReplicas')), 'integer'),
              col('Available', (o) => num(at(o, 'status.availableReplicas')), 'integer'),
              ...templateColumns(),
              selectorColumn(),
            ]
          : resource === 'replicasets'
            ? [
                col('Desired', (o) => num(at(o, 'spec.replicas')), 'integer'),
                col('Current', (o) => num(at(o, 'status.replicas')), 'integer'),
                col('Ready', (o) => num(at(o, 'status.readyReplicas')), 'integer'),
                ...templateColumns(),
                selectorColumn(),
              ]
            : [
                col('Ready', (o) => `${num(at(o, 'status.readyReplicas'))}/${num(at(o, 'spec.replicas'))}`),
                ...templateColumns(),
              ],
      defaults: (o) => {
        const spec = child(o, 'spec');
        spec.replicas ??= 1;
        spec.revisionHistoryLimit ??= 10;
        if (resource === 'deployments') {
          spec.progressDeadlineSeconds ??= 600;
          spec.strategy ??= {
            type: 'RollingUpdate',
            rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
          };
        }
        if (resource === 'statefulsets') {
          spec.podManagementPolicy ??= 'OrderedReady';
          spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
        }
      },
      scale: { defaultReplicas: 1 },
    }),
  ),
  {
    group: 'apps',
    version: 'v1',
    resource: 'daemonsets',
    singular: 'daemonset',
    kind: 'DaemonSet',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['ds'],
    categories: ['all'],
    nameRule: subdomain,
    required: ['spec.selector', 'spec.template'],
    fieldSelectors: [],
    columns: [
      col('Desired', (o) => num(at(o, 'status.desiredNumberScheduled')), 'integer'),
      col('Current', (o) => num(at(o, 'status.currentNumberScheduled')), 'integer'),
      col('Ready', (o) => num(at(o, 'status.numberReady')), 'integer'),
      col('Up-to-date', (o) => num(at(o, 'status.updatedNumberScheduled')), 'integer'),
      col('Available', (o) => num(at(o, 'status.numberAvailable')), 'integer'),
      col('Node Selector', (o) => {
        const selector = at(o, 'spec.template.spec.nodeSelector') as Record<string, string> | undefined;
        const pairs = Object.entries(selector ?? {}).map(([k, v]) => `${k}=${v}`);
        return pairs.length ? pairs.join(',') : '<none>';
      }),
      ...templateColumns(),
      selectorColumn(),
    ],
    defaults: (o) => {
      const spec = child(o, 'spec');
      spec.revisionHistoryLimit ??= 10;
      spec.updateStrategy ??= { type: 'RollingUpdate' };
      const strategy = spec.updateStrategy as Obj;
      if (strategy.type === 'RollingUpdate') {
        strategy.rollingUpdate ??= {};
        const rolling = strategy.rollingUpdate as Obj;
        rolling.maxUnavailable ??= 1;
        rolling.maxSurge ??= 0;
      }
    },
  },
  {
    group: 'batch',
    version: 'v1',
    resource: 'jobs',
    singular: 'job',
    kind: 'Job',
    namespaced: true,
    subresources: ['status'],
    shortNames: [],
    categories: ['all'],
    nameRule: subdomain,
    required: ['spec.template'],
    fieldSelectors: ['status.successful'],
    columns: [
      col('Status', jobStatus),
      col(
        'Completions',
        (o) => `${num(at(o, 'status.succeeded'))}/${String(at(o, 'spec.completions') ?? 1)}`,
      ),
      col('Duration', jobDuration),
      imagesColumn(),
    ],
    defaults: (o) => {
      const spec = child(o, 'spec');
      spec.parallelism ??= 1;
      if (spec.completionMode !== 'Indexed') spec.completions ??= 1;
      spec.backoffLimit ??= 6;
      spec.completionMode ??= 'NonIndexed';
      spec.suspend ??= false;
      // upstream's generateSelector: without manualSelector, the job's pods are selected by its uid
      const meta = child(o, 'metadata');
      if (spec.manualSelector !== true && typeof meta.uid === 'string' && meta.uid !== '') {
        const uid = meta.uid;
        const name = String(meta.name ?? '');
        const template = child(child(spec, 'template'), 'metadata');
        template.labels = {
          'batch.kubernetes.io/controller-uid': uid,
          'batch.kubernetes.io/job-name': name,
          'controller-uid': uid,
          'job-name': name,
          ...(template.labels as Obj | undefined),
        };
        spec.selector ??= { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
      }
    },
    defaultPropagation: 'Orphan',
  },
  {
    group: 'batch',
    version: 'v1',
    resource: 'cronjobs',
    singular: 'cronjob',
    kind: 'CronJob',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['cj'],
    categories: ['all'],
    nameRule: subdomain,
    required: ['spec.schedule', 'spec.jobTemplate'],
    fieldSelectors: [],
    columns: [
      col('Schedule', (o) => str(at(o, 'spec.schedule'))),
      col('Suspend', (o) => String(at(o, 'spec.suspend') ?? false)),
      col('Active', (o) => list(at(o, 'status.active')).length, 'integer'),
      col('Last Schedule', (o) => str(at(o, 'status.lastScheduleTime'))),
    ],
    defaults: (o) => {
      const spec = child(o, 'spec');
      spec.concurrencyPolicy ??= 'Allow';
      spec.suspend ??= false;
      spec.successfulJobsHistoryLimit ??= 3;
      spec.failedJobsHistoryLimit ??= 1;
    },
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    resource: 'leases',
    singular: 'lease',
    kind: 'Lease',
    namespaced: true,
    subresources: [],
    shortNames: [],
    categories: [],
    nameRule: subdomain,
    required: [],
    fieldSelectors: [],
    columns: [col('Holder', (o) => str(at(o, 'spec.holderIdentity'), ''))],
  },
  {
    group: 'policy',
    version: 'v1',
    resource: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    subresources: ['status'],
    shortNames: ['pdb'],
    categories: [],
    nameRule: subdomain,
    required: [],
    fieldSelectors: [],
    columns: [
      col('Min Available', (o) => str(at(o, 'spec.minAvailable'), 'N/A')),
      col('Max Unavailable', (o) => str(at(o, 'spec.maxUnavailable'), 'N/A')),
      col('Allowed Disruptions', (o) => num(at(o, 'status.disruptionsAllowed')), 'integer'),
    ],
  },
  {
    group: 'scheduling.k8s.io',
    version: 'v1',
    resource: 'priorityclasses',
    singular: 'priorityclass',
    kind: 'PriorityClass',
    namespaced: false,
    subresources: [],
    shortNames: ['pc'],
    categories: [],
    nameRule: subdomain,
    required: ['value'],
    fieldSelectors: [],
    columns: [
      col('Value', (o) => num(at(o, 'value')), 'integer'),
      col('Global-Default', (o) => String(at(o, 'globalDefault') ?? false)),
      col('Preemption-Policy', (o) => str(at(o, 'preemptionPolicy'), 'PreemptLowerPriority')),
    ],
    defaults: (o) => {
      (o as Obj).preemptionPolicy ??= 'PreemptLowerPriority';
    },
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'csinodes',
    singular: 'csinode',
    kind: 'CSINode',
    namespaced: false,
    subresources: [],
    shortNames: [],
    categories: [],
    nameRule: subdomain,
    required: [],
    fieldSelectors: [],
    columns: [col('Drivers', (o) => list(at(o, 'spec.drivers')).length, 'integer')],
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1beta1',
    resource: 'leasecandidates',
    singular: 'leasecandidate',
    kind: 'LeaseCandidate',
    namespaced: true,
    subresources: [],
    shortNames: [],
    categories: [],
    nameRule: subdomain,
    required: ['spec.leaseName', 'spec.binaryVersion', 'spec.strategy'],
    fieldSelectors: [],
    columns: [
      col('LeaseName', (o) => str(at(o, 'spec.leaseName'), '')),
      col('BinaryVersion', (o) => str(at(o, 'spec.binaryVersion'), '')),
      col('EmulationVersion', (o) => str(at(o, 'spec.emulationVersion'), '')),
    ],
  },
  ...BUILTIN_RESOURCES,
  CUSTOM_RESOURCE_DEFINITIONS,
];

/** The row's id: `group/resource`, or `resource` for the core group. */
export function resourceId(def: Pick<ResourceDef, 'group' | 'resource'>): string {
  return def.group ? `${def.group}/${def.resource}` : def.resource;
}

/** `apiVersion` of the row's objects: `group/version`, or `version` for the core group. */
export function apiVersionOf(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** Reads a dot path of an object; exported for selectors and validation. */
export function fieldAt(object: unknown, path: string): unknown {
  return at(object, path);
}

/** Finds the row serving `group/version/resource`, or undefined. */
export function findResource(
  table: readonly ResourceDef[],
  group: string,
  version: string,
  resource: string,
): ResourceDef | undefined {
  return table.find((d) => d.group === group && d.version === version && d.resource === resource);
}
