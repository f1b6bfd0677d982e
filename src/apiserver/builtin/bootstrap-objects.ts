// The objects a new cluster has from the start: system PriorityClasses and the default RBAC roles and bindings.
import type { KubeObject } from '../../../operators/types.ts';
import { SYSTEM_PRIORITY_CLASSES } from '../admission/priority.ts';

/** One object the server creates at start when it is missing. */
export interface BootstrapObject {
  /** The resource id: `group/resource`, or `resource` for core. */
  resource: string;
  namespace?: string;
  object: KubeObject;
}

const RBAC = 'rbac.authorization.k8s.io';
const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const AUTOUPDATE = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[]; nonResourceURLs?: string[] };

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

/** What `view` may read: namespaced objects other than secrets and roles, as upstream's policy lists them. */
const VIEW_RULES: Rule[] = [
  {
    apiGroups: [''],
    resources: [
      'configmaps',
      'endpoints',
      'persistentvolumeclaims',
      'persistentvolumeclaims/status',
      'pods',
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'serviceaccounts',
      'services',
      'services/status',
    ],
    verbs: READ,
  },
  {
    apiGroups: [''],
    resources: [
      'bindings',
      'events',
      'limitranges',
      'namespaces/status',
      'pods/log',
      'pods/status',
      'replicationcontrollers/status',
      'resourcequotas',
      'resourcequotas/status',
    ],
    verbs: READ,
  },
  { apiGroups: [''], resources: ['namespaces'], verbs: READ },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: READ },
  {
    apiGroups: ['apps'],
    resources: [
      'controllerrevisions',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ],
    verbs: READ,
  },
  {
    apiGroups: ['autoscaling'],
    resources: ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'],
    verbs: READ,
  },
  { apiGroups: ['batch'], resources: ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], verbs: READ },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: READ },
  {
    apiGroups: ['networking.k8s.io'],
    resources: ['ingresses', 'ingresses/status', 'networkpolicies'],
    verbs: READ,
  },
];

/** What `edit` may change besides: workloads, services, secrets, service accounts and their tokens. */
const EDIT_RULES: Rule[] = [
  {
    apiGroups: [''],
    resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'],
    verbs: READ,
  },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  {
    apiGroups: [''],
    resources: ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'],
    verbs: WRITE,
  },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  {
    apiGroups: [''],
    resources: [
      'configmaps',
      'events',
      'persistentvolumeclaims',
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'secrets',
      'serviceaccounts',
      'services',
      'services/proxy',
    ],
    verbs: WRITE,
  },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
  {
    apiGroups: ['apps'],
    resources: [
      'daemonsets',
      'deployments',
      'deployments/rollback',
      'deployments/scale',
      'replicasets',
      'replicasets/scale',
      'statefulsets',
      'statefulsets/scale',
    ],
    verbs: WRITE,
  },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: WRITE },
  { apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: WRITE },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: WRITE },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: WRITE },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: [...READ, ...WRITE] },
];

/** What `admin` adds: roles and bindings in the namespace, and local subject access reviews. */
const ADMIN_RULES: Rule[] = [
  { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
  { apiGroups: [RBAC], resources: ['rolebindings', 'roles'], verbs: [...WRITE, ...READ] },
];

function clusterRole(name: string, rules: Rule[], extraLabels: Record<string, string> = {}): BootstrapObject {
  return {
    resource: `${RBAC}/clusterroles`,
    object: {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name, labels: { ...BOOTSTRAP_LABELS, ...extraLabels }, annotations: { ...AUTOUPDATE } },
      rules,
    } as KubeObject,
  };
}

function clusterRoleBinding(name: string, role: string, subjects: object[]): BootstrapObject {
  return {
    resource: `${RBAC}/clusterrolebindings`,
    object: {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name, labels: { ...BOOTSTRAP_LABELS }, annotations: { ...AUTOUPDATE } },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
      subjects,
    } as KubeObject,
  };
}

const group = (name: string) => ({ apiGroup: RBAC, kind: 'Group', name });

/** Everything created at start, in order. */
export function bootstrapObjects(): BootstrapObject[] {
  return [
    ...SYSTEM_PRIORITY_CLASSES.map((pc) => ({
      resource: 'scheduling.k8s.io/priorityclasses',
      object: structuredClone(pc) as KubeObject,
    })),
    clusterRole('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    clusterRole('admin', [...ADMIN_RULES, ...EDIT_RULES, ...VIEW_RULES], {
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
    }),
    clusterRole('edit', [...EDIT_RULES, ...VIEW_RULES], {
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
      'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
    }),
    clusterRole('view', VIEW_RULES, {
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
      'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    }),
    clusterRole('system:discovery', [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
        verbs: ['get'],
      },
    ]),
    clusterRole('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ]),
    clusterRole('system:public-info-viewer', [
      { nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] },
    ]),
    clusterRole('system:monitoring', [
      {
        nonResourceURLs: [
          '/healthz',
          '/healthz/*',
          '/livez',
          '/livez/*',
          '/metrics',
          '/metrics/slis',
          '/readyz',
          '/readyz/*',
        ],
        verbs: ['get'],
      },
    ]),
    clusterRoleBinding('cluster-admin', 'cluster-admin', [group('system:masters')]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    clusterRoleBinding('system:discovery', 'system:discovery', [group('system:authenticated')]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [
      group('system:authenticated'),
      group('system:unauthenticated'),
    ]),
  ];
}
