// Test cluster for the scheduler plugins: pod/node builders, a snapshot lister, a resource-fit filter and a framework over them.
import { VirtualTimeScheduler } from 'rxjs';
import type { Node, Pod, PodCondition } from '../../../../../operators/api/core-v1.ts';
import {
  type FrameworkDeps,
  newFramework,
  type PluginRef,
} from '../../../../../operators/scheduling/framework/framework.ts';
import {
  CycleState,
  type FilterPlugin,
  type NodeInfoLister,
  type PodDisruptionBudget,
  type Registry,
  type SchedulerApi,
} from '../../../../../operators/scheduling/framework/interface.ts';
import {
  NodeInfo,
  newPodInfo,
  type PodInfo,
} from '../../../../../operators/scheduling/framework/node-info.ts';
import { newStatus } from '../../../../../operators/scheduling/framework/status.ts';

export interface PodOptions {
  ns?: string;
  labels?: Record<string, string>;
  node?: string;
  priority?: number;
  cpu?: string;
  memory?: string;
  uid?: string;
  startTime?: string;
  affinity?: Pod['spec']['affinity'];
  spread?: Pod['spec']['topologySpreadConstraints'];
  nominated?: string;
  preemptionPolicy?: 'Never' | 'PreemptLowerPriority';
  deleting?: boolean;
  conditions?: PodCondition[];
  nodeSelector?: Record<string, string>;
  tolerations?: Pod['spec']['tolerations'];
  owner?: string;
}

/** A pod named `name` (uid `name` unless given) with the options. */
export function makePod(name: string, o: PodOptions = {}): Pod {
  const requests: Record<string, string> = {};
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.ns ?? 'default',
      uid: o.uid ?? name,
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      ...(o.owner
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.owner, uid: o.owner }] }
        : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'pause', resources: { requests } }],
      ...(o.node ? { nodeName: o.node } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.affinity ? { affinity: o.affinity } : {}),
      ...(o.spread ? { topologySpreadConstraints: o.spread } : {}),
      ...(o.preemptionPolicy ? { preemptionPolicy: o.preemptionPolicy } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
      schedulerName: 'default-scheduler',
    },
    status: {
      ...(o.startTime ? { startTime: o.startTime } : {}),
      ...(o.nominated ? { nominatedNodeName: o.nominated } : {}),
      ...(o.conditions ? { conditions: o.conditions } : {}),
    },
  };
}

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: number;
  taints?: NonNullable<Node['spec']>['taints'];
}

/** A node with the labels (plus kubernetes.io/hostname = name unless given) and allocatable. */
export function makeNode(name: string, labels: Record<string, string> = {}, o: NodeOptions = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    spec: { ...(o.taints ? { taints: o.taints } : {}) },
    status: { allocatable: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: String(o.pods ?? 110) } },
  };
}

/** A node exactly with the labels given (no hostname label added). */
export function bareNode(name: string, labels: Record<string, string>, o: NodeOptions = {}): Node {
  const n = makeNode(name, {}, o);
  n.metadata.labels = labels;
  return n;
}

/** A snapshot of nodes with their pods (pods are placed by spec.nodeName). */
export class TestSnapshot implements NodeInfoLister {
  readonly infos: NodeInfo[];
  constructor(nodes: readonly Node[], pods: readonly Pod[] = []) {
    this.infos = nodes.map(
      (n) =>
        new NodeInfo(
          n,
          pods.filter((p) => p.spec.nodeName === n.metadata.name),
        ),
    );
  }
  list(): readonly NodeInfo[] {
    return this.infos;
  }
  get(nodeName: string): NodeInfo | undefined {
    return this.infos.find((n) => n.name === nodeName);
  }
  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.infos.filter((n) => n.podsWithAffinity.length > 0);
  }
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.infos.filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
  }
}

/** A NodeResourcesFit-like Filter over cpu, memory and pod count, with upstream's reasons. */
export const TEST_FIT = 'TestResourceFit';
export function resourceFitPlugin(): FilterPlugin {
  return {
    name: TEST_FIT,
    filter(_state, pod, nodeInfo) {
      const reasons: string[] = [];
      if (nodeInfo.pods.length + 1 > nodeInfo.allocatable.allowedPodNumber) reasons.push('Too many pods');
      const req = newPodInfo(pod).requests;
      if (req.milliCPU > nodeInfo.allocatable.milliCPU - nodeInfo.requested.milliCPU)
        reasons.push('Insufficient cpu');
      if (req.memory > nodeInfo.allocatable.memory - nodeInfo.requested.memory)
        reasons.push('Insufficient memory');
      return reasons.length > 0 ? newStatus('Unschedulable', ...reasons) : undefined;
    },
  };
}

/** Every write a plugin made through the api, in order. */
export interface ApiCall {
  readonly verb: 'bind' | 'deletePod' | 'patchPodCondition' | 'setNominatedNodeName' | 'recordEvent';
  readonly pod: string;
  readonly arg?: unknown;
}

export function recordingApi(calls: ApiCall[], failDeleteOf?: string): SchedulerApi {
  return {
    async bind(pod, nodeName) {
      calls.push({ verb: 'bind', pod: pod.metadata.name!, arg: nodeName });
    },
    async deletePod(pod) {
      if (pod.metadata.name === failDeleteOf) throw new Error(`deleting ${pod.metadata.name}: boom`);
      calls.push({ verb: 'deletePod', pod: pod.metadata.name! });
    },
    async patchPodCondition(pod, condition) {
      calls.push({ verb: 'patchPodCondition', pod: pod.metadata.name!, arg: condition });
    },
    async setNominatedNodeName(pod, nodeName) {
      calls.push({ verb: 'setNominatedNodeName', pod: pod.metadata.name!, arg: nodeName });
    },
    async recordEvent(pod, type, reason, action, message, reportingController) {
      calls.push({
        verb: 'recordEvent',
        pod: pod.metadata.name!,
        arg: { type, reason, action, message, reportingController },
      });
    },
  };
}

export interface ClusterOptions {
  nodes: readonly Node[];
  pods?: readonly Pod[];
  /** Extra pods getPod knows (the preemptor). */
  known?: readonly Pod[];
  registry: Registry;
  preFilter?: readonly string[];
  filter?: readonly string[];
  postFilter?: readonly string[];
  preScore?: readonly string[];
  score?: readonly PluginRef[];
  pluginArgs?: Record<string, unknown>;
  pdbs?: readonly PodDisruptionBudget[];
  nominated?: Readonly<Record<string, readonly Pod[]>>;
  failDeleteOf?: string;
  now?: number;
}

/** A framework over a test snapshot, with the test fit filter registered as TestResourceFit. */
export function makeCluster(o: ClusterOptions) {
  const snapshot = new TestSnapshot(o.nodes, o.pods ?? []);
  const calls: ApiCall[] = [];
  const scheduler = new VirtualTimeScheduler();
  if (o.now) scheduler.now = () => o.now!;
  const allPods = [...(o.pods ?? []), ...(o.known ?? [])];
  const deps: FrameworkDeps = {
    snapshot: () => snapshot,
    api: recordingApi(calls, o.failDeleteOf),
    scheduler,
    getPod: (ns, name) => allPods.find((p) => p.metadata.namespace === ns && p.metadata.name === name),
    podDisruptionBudgets: () => o.pdbs ?? [],
    nominatedPodsForNode: (n): PodInfo[] => (o.nominated?.[n] ?? []).map(newPodInfo),
  };
  const names = (xs: readonly string[] | undefined) => (xs ?? []).map((name) => ({ name }));
  const framework = newFramework(
    {
      schedulerName: 'default-scheduler',
      plugins: {
        preFilter: names(o.preFilter),
        filter: names(o.filter),
        postFilter: names(o.postFilter),
        preScore: names(o.preScore),
        score: o.score ?? [],
      },
      pluginArgs: o.pluginArgs ?? {},
    },
    { [TEST_FIT]: () => resourceFitPlugin(), ...o.registry },
    deps,
  );
  return { framework, snapshot, calls, newState: () => new CycleState() };
}
