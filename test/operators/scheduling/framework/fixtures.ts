// Test fixtures for the scheduling framework and plugins: pods, nodes, a snapshot lister, a recording API.
import type {
  Container,
  Node,
  NodeSpec,
  Pod,
  PodSpec,
  PodStatus,
  ResourceList,
} from '../../../../operators/api/core-v1.ts';
import {
  CycleState,
  type NodeInfoLister,
  type PodDisruptionBudget,
  type SchedulerApi,
} from '../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo, type PodInfo } from '../../../../operators/scheduling/framework/node-info.ts';

let uidCounter = 0;

export interface PodOptions {
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  /** One container per entry, requesting these resources. */
  requests?: ResourceList[];
  containers?: Container[];
  spec?: Partial<PodSpec>;
  status?: PodStatus;
  priority?: number;
  nodeName?: string;
}

/** A container requesting `requests`. */
export function container(requests?: ResourceList, extra: Partial<Container> = {}): Container {
  uidCounter++;
  return {
    name: `c${uidCounter}`,
    image: 'pause',
    ...(requests ? { resources: { requests } } : {}),
    ...extra,
  };
}

/** A pod named `name` with a uid, containers and spec parts. */
export function makePod(name: string, o: PodOptions = {}): Pod {
  const containers = o.containers ?? (o.requests ?? [undefined]).map((r) => container(r));
  return {
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: o.uid ?? `uid-${name}`,
      ...(o.labels ? { labels: o.labels } : {}),
    },
    spec: {
      containers,
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
      ...o.spec,
    },
    ...(o.status ? { status: o.status } : {}),
  };
}

export interface NodeOptions {
  labels?: Record<string, string>;
  allocatable?: ResourceList;
  spec?: NodeSpec;
}

/** A node named `name` with allocatable resources (default 4 cpu, 32Gi, 110 pods as scheduler_perf's template). */
export function makeNode(name: string, o: NodeOptions = {}): Node {
  return {
    metadata: { name, ...(o.labels ? { labels: o.labels } : {}) },
    ...(o.spec ? { spec: o.spec } : {}),
    status: { allocatable: o.allocatable ?? { cpu: '4', memory: '32Gi', pods: '110' } },
  };
}

/** A NodeInfo for `node` holding `pods`. */
export function nodeInfo(node: Node, pods: Pod[] = []): NodeInfo {
  return new NodeInfo(node, pods);
}

/** A snapshot over NodeInfos, in the given order. */
export class FakeLister implements NodeInfoLister {
  readonly #list: NodeInfo[];
  readonly #byName: Map<string, NodeInfo>;
  constructor(list: NodeInfo[]) {
    this.#list = list;
    this.#byName = new Map(list.map((n) => [n.name, n]));
  }
  list(): readonly NodeInfo[] {
    return this.#list;
  }
  get(name: string): NodeInfo | undefined {
    return this.#byName.get(name);
  }
  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.#list.filter((n) => n.podsWithAffinity.length > 0);
  }
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.#list.filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
  }
}

/** An API that records the calls (and can be told to fail binds). */
export class RecordingApi implements SchedulerApi {
  readonly bound: { pod: string; node: string }[] = [];
  bindError: Error | undefined;
  async bind(pod: Pod, nodeName: string): Promise<void> {
    if (this.bindError) throw this.bindError;
    this.bound.push({ pod: pod.metadata.name!, node: nodeName });
  }
  async deletePod(): Promise<void> {}
  async patchPodCondition(): Promise<void> {}
  async setNominatedNodeName(): Promise<void> {}
}

export interface DepsOptions {
  nodes?: NodeInfo[];
  nominated?: Record<string, PodInfo[]>;
  pdbs?: PodDisruptionBudget[];
}

/** Framework deps over a fixed snapshot. */
export function fakeDeps(o: DepsOptions = {}) {
  const lister = new FakeLister(o.nodes ?? []);
  const api = new RecordingApi();
  return {
    lister,
    api,
    deps: {
      snapshot: () => lister,
      api,
      nominatedPodsForNode: (n: string) => o.nominated?.[n] ?? [],
      podDisruptionBudgets: () => o.pdbs ?? [],
    },
  };
}

export function newState(): CycleState {
  return new CycleState();
}
