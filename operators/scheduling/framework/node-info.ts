// NodeInfo: what the scheduler knows of one node — its pods, requested resources, used host ports, images.
import type { Container, Node, Pod, ResourceList } from '../../api/core-v1.ts';
import { quantityMilliValue, quantityValue } from '../../api/quantity.ts';

/** Resources as the scheduler counts them: CPU in millicores, memory and storage in bytes. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** Allowed pod count (from `pods` in allocatable); 0 on requests. */
  allowedPodNumber: number;
  /** Extended and hugepages resources by name, in their base unit. */
  scalar: Record<string, number>;
}

/** The defaults a container with no request counts as, for scoring (NonZeroRequested). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: {} };
}

export function cloneResource(r: Resource): Resource {
  return { ...r, scalar: { ...r.scalar } };
}

/** Adds a ResourceList's quantities into `into` (cpu → milli, `pods` → allowedPodNumber). */
export function addResourceList(into: Resource, list: ResourceList | undefined): void {
  if (!list) return;
  for (const [name, q] of Object.entries(list)) {
    if (name === 'cpu') into.milliCPU += quantityMilliValue(q, name);
    else if (name === 'memory') into.memory += quantityValue(q, name);
    else if (name === 'ephemeral-storage') into.ephemeralStorage += quantityValue(q, name);
    else if (name === 'pods') into.allowedPodNumber += quantityValue(q, name);
    else into.scalar[name] = (into.scalar[name] ?? 0) + quantityValue(q, name);
  }
}

/** A Resource from a ResourceList (allocatable, capacity, requests). */
export function resourceFromList(list: ResourceList | undefined): Resource {
  const r = emptyResource();
  addResourceList(r, list);
  return r;
}

function addInto(a: Resource, b: Resource, sign = 1): void {
  a.milliCPU += sign * b.milliCPU;
  a.memory += sign * b.memory;
  a.ephemeralStorage += sign * b.ephemeralStorage;
  a.allowedPodNumber += sign * b.allowedPodNumber;
  for (const [k, v] of Object.entries(b.scalar)) a.scalar[k] = (a.scalar[k] ?? 0) + sign * v;
}

function maxInto(a: Resource, b: Resource): void {
  a.milliCPU = Math.max(a.milliCPU, b.milliCPU);
  a.memory = Math.max(a.memory, b.memory);
  a.ephemeralStorage = Math.max(a.ephemeralStorage, b.ephemeralStorage);
  for (const [k, v] of Object.entries(b.scalar)) a.scalar[k] = Math.max(a.scalar[k] ?? 0, v);
}

function containerRequest(c: Container, nonZero: boolean): Resource {
  const r = resourceFromList(c.resources?.requests);
  if (nonZero) {
    const requests = c.resources?.requests ?? {};
    if (!('cpu' in requests)) r.milliCPU = DEFAULT_MILLI_CPU_REQUEST;
    if (!('memory' in requests)) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

/**
 * A pod's effective request, as component-helpers' PodRequests computes it: the sum of the app
 * containers and of sidecars (init containers with restartPolicy Always), raised to what any init
 * container needs while it runs (with the sidecars started before it), plus the pod overhead.
 * With `nonZero`, a container without a cpu or memory request counts 100m / 200Mi (scoring only).
 */
export function podRequests(pod: Pod, nonZero = false): Resource {
  const total = emptyResource();
  for (const c of pod.spec.containers ?? []) addInto(total, containerRequest(c, nonZero));
  const sidecars = emptyResource();
  const initMax = emptyResource();
  for (const c of pod.spec.initContainers ?? []) {
    const req = containerRequest(c, nonZero);
    if (c.restartPolicy === 'Always') {
      addInto(total, req);
      addInto(sidecars, req);
      maxInto(initMax, sidecars);
    } else {
      const running = cloneResource(req);
      addInto(running, sidecars);
      maxInto(initMax, running);
    }
  }
  maxInto(total, initMax);
  if (pod.spec.overhead) addResourceList(total, pod.spec.overhead);
  return total;
}

/** A host port in use: protocol, IP and port. IP `0.0.0.0` (or empty) conflicts with every IP. */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/**
 * The host ports a pod holds while it runs (only ports with hostPort > 0): its containers' and its sidecars'
 * (init containers with restartPolicy Always), as NodePorts counts them; ordinary init containers have
 * finished before the pod runs.
 */
export function podHostPorts(pod: Pod): HostPort[] {
  const ports: HostPort[] = [];
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const c of [...(pod.spec.containers ?? []), ...sidecars]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      ports.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return ports;
}

const WILDCARD_IP = '0.0.0.0';

/** Host ports in use on a node, counted, with kube-scheduler's conflict rule for the wildcard IP. */
export class HostPortInfo {
  /** ip → "protocol/port" → how many pods use it */
  #byIp = new Map<string, Map<string, number>>();

  add(p: HostPort): void {
    const ip = p.ip || WILDCARD_IP;
    let ports = this.#byIp.get(ip);
    if (!ports) {
      ports = new Map();
      this.#byIp.set(ip, ports);
    }
    const key = `${p.protocol || 'TCP'}/${p.port}`;
    ports.set(key, (ports.get(key) ?? 0) + 1);
  }

  remove(p: HostPort): void {
    const ip = p.ip || WILDCARD_IP;
    const ports = this.#byIp.get(ip);
    const key = `${p.protocol || 'TCP'}/${p.port}`;
    const n = ports?.get(key);
    if (!ports || n === undefined) return;
    if (n <= 1) ports.delete(key);
    else ports.set(key, n - 1);
    if (ports.size === 0) this.#byIp.delete(ip);
  }

  /** True when `p` conflicts with a port in use: same protocol and port on the same IP or either side's wildcard. */
  conflicts(p: HostPort): boolean {
    const ip = p.ip || WILDCARD_IP;
    const key = `${p.protocol || 'TCP'}/${p.port}`;
    if (ip === WILDCARD_IP) {
      for (const ports of this.#byIp.values()) if (ports.has(key)) return true;
      return false;
    }
    return Boolean(this.#byIp.get(ip)?.has(key) || this.#byIp.get(WILDCARD_IP)?.has(key));
  }

  get size(): number {
    let n = 0;
    for (const ports of this.#byIp.values()) n += ports.size;
    return n;
  }

  clone(): HostPortInfo {
    const copy = new HostPortInfo();
    for (const [ip, ports] of this.#byIp) copy.#byIp.set(ip, new Map(ports));
    return copy;
  }
}

/**
 * A pod with what the scheduler computes from it once: its requests (actual and non-zero) and host
 * ports. Invariant: immutable; a changed pod gets a new PodInfo.
 */
export interface PodInfo {
  readonly pod: Pod;
  readonly requests: Resource;
  readonly nonZeroRequests: Resource;
  readonly hostPorts: readonly HostPort[];
  /** The pod declares pod affinity or anti-affinity (required or preferred). */
  readonly hasAffinity: boolean;
  /** The pod declares required pod anti-affinity. */
  readonly hasRequiredAntiAffinity: boolean;
}

/** Computes a PodInfo. */
export function newPodInfo(pod: Pod): PodInfo {
  const affinity = pod.spec.affinity;
  const anti = affinity?.podAntiAffinity;
  return {
    pod,
    requests: podRequests(pod),
    nonZeroRequests: podRequests(pod, true),
    hostPorts: podHostPorts(pod),
    hasAffinity: Boolean(affinity?.podAffinity || anti),
    hasRequiredAntiAffinity: Boolean(anti?.requiredDuringSchedulingIgnoredDuringExecution?.length),
  };
}

/** An image on a node, with how many nodes in the cluster have it (set by the snapshot). */
export interface ImageStateSummary {
  size: number;
  numNodes: number;
}

let generationCounter = 0;
/** A process-wide increasing generation, bumped on every NodeInfo change (the snapshot copies changed nodes). */
export function nextGeneration(): number {
  generationCounter += 1;
  return generationCounter;
}

function podUid(pod: Pod): string {
  return pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
}

/**
 * One node's scheduling view. Invariants: `requested`/`nonZeroRequested`/`usedPorts` are the sums over
 * `pods`; `podsWithAffinity` and `podsWithRequiredAntiAffinity` are the subsets of `pods` that declare
 * them; `generation` increases on every change. Mutated only by its owner (the cache, or a cycle's
 * private clone, e.g. preemption's dry run); snapshot readers must not mutate it.
 */
export class NodeInfo {
  node: Node | undefined;
  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  usedPorts = new HostPortInfo();
  requested = emptyResource();
  nonZeroRequested = emptyResource();
  allocatable = emptyResource();
  imageStates: Record<string, ImageStateSummary> = {};
  generation = nextGeneration();

  constructor(node?: Node, pods: readonly Pod[] = []) {
    if (node) this.setNode(node);
    for (const p of pods) this.addPod(p);
  }

  /** The node's name ('' for a ghost node whose Node object was removed while pods remain). */
  get name(): string {
    return this.node?.metadata.name ?? '';
  }

  setNode(node: Node): void {
    this.node = node;
    this.allocatable = resourceFromList(node.status?.allocatable);
    this.generation = nextGeneration();
  }

  removeNode(): void {
    this.node = undefined;
    this.generation = nextGeneration();
  }

  addPod(pod: Pod): void {
    this.addPodInfo(newPodInfo(pod));
  }

  addPodInfo(info: PodInfo): void {
    this.pods.push(info);
    if (info.hasAffinity) this.podsWithAffinity.push(info);
    if (info.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.push(info);
    this.#account(info, 1);
  }

  /** Removes the pod with the same uid; returns false when it is not on this node. */
  removePod(pod: Pod): boolean {
    const uid = podUid(pod);
    const i = this.pods.findIndex((p) => podUid(p.pod) === uid);
    if (i < 0) return false;
    const [info] = this.pods.splice(i, 1);
    const drop = (list: PodInfo[]) => {
      const j = list.findIndex((p) => podUid(p.pod) === uid);
      if (j >= 0) list.splice(j, 1);
    };
    drop(this.podsWithAffinity);
    drop(this.podsWithRequiredAntiAffinity);
    this.#account(info!, -1);
    return true;
  }

  #account(info: PodInfo, sign: 1 | -1): void {
    addInto(this.requested, info.requests, sign);
    addInto(this.nonZeroRequested, info.nonZeroRequests, sign);
    for (const p of info.hostPorts) {
      if (sign > 0) this.usedPorts.add(p);
      else this.usedPorts.remove(p);
    }
    this.generation = nextGeneration();
  }

  /** A copy that can be changed without touching this one (pod infos are shared, being immutable). */
  clone(): NodeInfo {
    const copy = new NodeInfo();
    copy.node = this.node;
    copy.pods = [...this.pods];
    copy.podsWithAffinity = [...this.podsWithAffinity];
    copy.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity];
    copy.usedPorts = this.usedPorts.clone();
    copy.requested = cloneResource(this.requested);
    copy.nonZeroRequested = cloneResource(this.nonZeroRequested);
    copy.allocatable = cloneResource(this.allocatable);
    copy.imageStates = { ...this.imageStates };
    copy.generation = this.generation;
    return copy;
  }
}
