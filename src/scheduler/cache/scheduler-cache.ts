// The scheduler cache: nodes and pods as NodeInfos, assumed pods, ghost nodes, image states, and the incremental snapshot.
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { KubeRxError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import {
  type ImageStateSummary,
  NodeInfo,
  newPodInfo,
} from '../../../operators/scheduling/framework/node-info.ts';
import { NodeTree } from './node-tree.ts';
import type { Snapshot } from './snapshot.ts';

/** A cache call that breaks the cache's state machine (upstream's cache.go errors); returned, not thrown. */
export class CacheStateError extends KubeRxError {
  constructor(message: string) {
    super('KUBE_RX_SCHEDULER_CACHE', message);
  }
}

interface PodState {
  pod: Pod;
  assumed: boolean;
  bindingFinished: boolean;
}

/** A doubly linked list item: most recently changed node first (the snapshot stops at the first unchanged one). */
interface Item {
  info: NodeInfo;
  prev: Item | undefined;
  next: Item | undefined;
}

interface ImageState {
  size: number;
  nodes: Set<string>;
}

const podKey = (pod: Pod): string => pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
const podName = (pod: Pod): string => `${pod.metadata.namespace}/${pod.metadata.name}`;

/**
 * What the scheduler knows of the cluster between cycles.
 *
 * Pod states (by uid): Initial → Assumed (`assumePod`) → Added (`addPod` of the same pod: the informer saw
 * the binding) → Updated/Removed; an assumed pod may instead be forgotten (`forgetPod`). Invariants: a pod
 * is on exactly one NodeInfo; an assumed pod counts on its node like a bound one; a node removed while pods
 * remain on it stays as a ghost (no Node object) until its last pod leaves, and ghosts never reach a
 * snapshot; every change moves the node's item to the head of the list with a new generation.
 * Assumed pods never expire (the scheduler's ttl is 0, as upstream's since 1.23).
 */
export class SchedulerCache {
  readonly #nodes = new Map<string, Item>();
  #head: Item | undefined;
  readonly #tree = new NodeTree();
  readonly #podStates = new Map<string, PodState>();
  readonly #assumed = new Set<string>();
  readonly #images = new Map<string, ImageState>();
  #imageGeneration = 0;
  readonly #logger: Logger;

  constructor(options: { logger?: Logger } = {}) {
    this.#logger = (options.logger ?? silentLogger).child({ component: 'scheduler-cache' });
  }

  // ── nodes ──────────────────────────────────────────────────────────────────────────────────────

  #item(name: string): Item {
    let item = this.#nodes.get(name);
    if (!item) {
      item = { info: new NodeInfo(), prev: undefined, next: undefined };
      this.#nodes.set(name, item);
      this.#pushHead(item);
    }
    return item;
  }

  #pushHead(item: Item): void {
    item.prev = undefined;
    item.next = this.#head;
    if (this.#head) this.#head.prev = item;
    this.#head = item;
  }

  #unlink(item: Item): void {
    if (item.prev) item.prev.next = item.next;
    if (item.next) item.next.prev = item.prev;
    if (this.#head === item) this.#head = item.next;
    item.prev = undefined;
    item.next = undefined;
  }

  #toHead(name: string): void {
    const item = this.#nodes.get(name);
    if (!item || this.#head === item) return;
    this.#unlink(item);
    this.#pushHead(item);
  }

  #addImages(node: Node, info: NodeInfo): void {
    const summaries: Record<string, ImageStateSummary> = {};
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        let state = this.#images.get(name);
        if (!state) {
          state = { size: image.sizeBytes ?? 0, nodes: new Set() };
          this.#images.set(name, state);
        }
        if (!state.nodes.has(node.metadata.name ?? '')) {
          state.nodes.add(node.metadata.name ?? '');
          this.#imageGeneration++;
        }
        summaries[name] = { size: state.size, numNodes: state.nodes.size };
      }
    }
    info.imageStates = summaries;
  }

  #removeImages(node: Node | undefined): void {
    if (!node) return;
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        const state = this.#images.get(name);
        if (!state?.nodes.delete(node.metadata.name ?? '')) continue;
        this.#imageGeneration++;
        if (state.nodes.size === 0) this.#images.delete(name);
      }
    }
  }

  /** Adds (or, when known, updates) a node. @returns its NodeInfo (the cache's own; do not change it) */
  addNode(node: Node): NodeInfo {
    const name = node.metadata.name ?? '';
    const item = this.#item(name);
    this.#toHead(name);
    this.#removeImages(item.info.node);
    this.#tree.updateNode(item.info.node, node);
    this.#addImages(node, item.info);
    item.info.setNode(node);
    return item.info;
  }

  /** Same as {@link addNode}: the node's object (and images, zone) are replaced. */
  updateNode(_oldNode: Node | undefined, newNode: Node): NodeInfo {
    return this.addNode(newNode);
  }

  /**
   * Removes a node. With pods left on it, a ghost NodeInfo (no Node) keeps them until they are removed.
   * @returns an error when the node is unknown
   */
  removeNode(node: Node): CacheStateError | undefined {
    const name = node.metadata.name ?? '';
    const item = this.#nodes.get(name);
    if (!item?.info.node) return new CacheStateError(`node ${name} is not found`);
    this.#removeImages(item.info.node);
    this.#tree.removeNode(item.info.node);
    if (item.info.pods.length === 0) {
      this.#unlink(item);
      this.#nodes.delete(name);
    } else {
      item.info.removeNode();
      item.info.imageStates = {};
      this.#toHead(name);
    }
    return undefined;
  }

  // ── pods ───────────────────────────────────────────────────────────────────────────────────────

  #addPodToNode(pod: Pod): void {
    const name = pod.spec.nodeName ?? '';
    const item = this.#item(name);
    item.info.addPodInfo(newPodInfo(pod));
    this.#toHead(name);
  }

  #removePodFromNode(pod: Pod): void {
    const name = pod.spec.nodeName ?? '';
    const item = this.#nodes.get(name);
    if (!item) {
      this.#logger.error({ pod: podName(pod), node: name }, 'node not found when trying to remove pod');
      return;
    }
    item.info.removePod(pod);
    if (item.info.pods.length === 0 && !item.info.node) {
      this.#unlink(item);
      this.#nodes.delete(name);
    } else {
      this.#toHead(name);
    }
  }

  /**
   * Counts `pod` (with spec.nodeName set to the chosen node) on its node before the binding is written.
   * @returns an error when the pod is already in the cache
   */
  assumePod(pod: Pod): CacheStateError | undefined {
    const key = podKey(pod);
    if (this.#podStates.has(key))
      return new CacheStateError(`pod ${podName(pod)}(${key}) is in the cache, so can't be assumed`);
    this.#addPodToNode(pod);
    this.#podStates.set(key, { pod, assumed: true, bindingFinished: false });
    this.#assumed.add(key);
    return undefined;
  }

  /** Marks the binding of an assumed pod as written (nothing else: assumed pods do not expire). */
  finishBinding(pod: Pod): CacheStateError | undefined {
    const state = this.#podStates.get(podKey(pod));
    if (state && this.#assumed.has(podKey(pod))) state.bindingFinished = true;
    return undefined;
  }

  /**
   * Drops an assumed pod (its binding failed).
   * @returns an error when the pod is known but not assumed, or assumed on another node
   */
  forgetPod(pod: Pod): CacheStateError | undefined {
    const key = podKey(pod);
    const state = this.#podStates.get(key);
    if (!state) return undefined;
    if (state.pod.spec.nodeName !== pod.spec.nodeName)
      return new CacheStateError(
        `pod ${podName(pod)}(${key}) was assumed on ${String(pod.spec.nodeName)} but assigned to ${String(state.pod.spec.nodeName)}`,
      );
    if (!this.#assumed.has(key))
      return new CacheStateError(`pod ${podName(pod)}(${key}) wasn't assumed so cannot be forgotten`);
    this.#removePodFromNode(state.pod);
    this.#podStates.delete(key);
    this.#assumed.delete(key);
    return undefined;
  }

  /**
   * A bound pod seen by the informer. An assumed pod is confirmed (moved if it landed elsewhere).
   * @returns an error when the pod was already added
   */
  addPod(pod: Pod): CacheStateError | undefined {
    const key = podKey(pod);
    const state = this.#podStates.get(key);
    if (state && this.#assumed.has(key)) {
      if (state.pod.spec.nodeName !== pod.spec.nodeName)
        this.#logger.info(
          { pod: podName(pod), assumed: state.pod.spec.nodeName, actual: pod.spec.nodeName },
          'Pod was added to a different node than it was assumed',
        );
      this.#removePodFromNode(state.pod);
      this.#addPodToNode(pod);
      this.#podStates.set(key, { pod, assumed: false, bindingFinished: false });
      this.#assumed.delete(key);
      return undefined;
    }
    if (state) return new CacheStateError(`pod ${podName(pod)}(${key}) was already in added state`);
    this.#addPodToNode(pod);
    this.#podStates.set(key, { pod, assumed: false, bindingFinished: false });
    return undefined;
  }

  /**
   * A bound pod changed. @returns an error when it is not in the cache, still assumed, or on another node
   * (upstream stops the process there: "cache corrupted")
   */
  updatePod(oldPod: Pod, newPod: Pod): CacheStateError | undefined {
    const key = podKey(oldPod);
    const state = this.#podStates.get(key);
    if (!state || this.#assumed.has(key))
      return new CacheStateError(
        `pod ${podName(oldPod)}(${key}) is not added to scheduler cache, so cannot be updated`,
      );
    if (state.pod.spec.nodeName !== newPod.spec.nodeName)
      return new CacheStateError(
        `pod ${podName(oldPod)}(${key}) updated with different node: cache corrupted (cached on ${String(state.pod.spec.nodeName)}, now on ${String(newPod.spec.nodeName)})`,
      );
    this.#removePodFromNode(state.pod);
    this.#addPodToNode(newPod);
    state.pod = newPod;
    return undefined;
  }

  /** A bound (or assumed) pod was deleted. @returns an error when it is not in the cache */
  removePod(pod: Pod): CacheStateError | undefined {
    const key = podKey(pod);
    const state = this.#podStates.get(key);
    if (!state)
      return new CacheStateError(
        `pod ${podName(pod)}(${key}) is not found in scheduler cache, so cannot be removed from it`,
      );
    if (state.pod.spec.nodeName !== pod.spec.nodeName)
      this.#logger.error(
        { pod: podName(pod), cached: state.pod.spec.nodeName, actual: pod.spec.nodeName },
        'Pod was added to a different node than it was assumed',
      );
    this.#removePodFromNode(state.pod);
    this.#podStates.delete(key);
    this.#assumed.delete(key);
    return undefined;
  }

  isAssumedPod(pod: Pod): boolean {
    return this.#assumed.has(podKey(pod));
  }

  /** The cached pod with `pod`'s uid (assumed or added). */
  getPod(pod: Pod): Pod | undefined {
    return this.#podStates.get(podKey(pod))?.pod;
  }

  /** True when the assumed pod's binding has been written (finishBinding). */
  isBindingFinished(pod: Pod): boolean {
    return this.#podStates.get(podKey(pod))?.bindingFinished ?? false;
  }

  /** Nodes with a Node object (ghosts excluded). */
  nodeCount(): number {
    return this.#tree.numNodes;
  }

  podCount(): number {
    return this.#podStates.size;
  }

  assumedPodCount(): number {
    return this.#assumed.size;
  }

  /** The NodeInfo of a node (ghosts included); the cache's own object: read only. */
  nodeInfo(name: string): NodeInfo | undefined {
    return this.#nodes.get(name)?.info;
  }

  /** Image name → size and the nodes that have it. */
  imageStates(): ReadonlyMap<string, { size: number; nodes: ReadonlySet<string> }> {
    return this.#images;
  }

  /** Image summaries with the current node counts (the counts change as other nodes come and go). */
  #currentImageStates(states: Record<string, ImageStateSummary>): Record<string, ImageStateSummary> {
    const fresh: Record<string, ImageStateSummary> = {};
    for (const [name, s] of Object.entries(states)) {
      fresh[name] = { size: s.size, numNodes: this.#images.get(name)?.nodes.size ?? s.numNodes };
    }
    return fresh;
  }

  // ── snapshot ───────────────────────────────────────────────────────────────────────────────────

  /**
   * Brings `snapshot` up to date: copies only the NodeInfos whose generation is newer than the snapshot's
   * (walking the most-recently-changed list until the first unchanged node), drops removed nodes, and
   * rebuilds the node list (node-tree order) and affinity lists only when membership changed.
   */
  updateSnapshot(snapshot: Snapshot): void {
    const since = snapshot.generation;
    let updateAll = false;
    let updateAffinity = false;
    let updateAnti = false;
    for (let item = this.#head; item; item = item.next) {
      if (item.info.generation <= since) break;
      const node = item.info.node;
      if (!node) continue;
      let existing = snapshot.nodeInfoMap.get(node.metadata.name ?? '');
      if (!existing) {
        updateAll = true;
        existing = new NodeInfo();
        snapshot.nodeInfoMap.set(node.metadata.name ?? '', existing);
      }
      const copy = item.info.clone();
      copy.imageStates = this.#currentImageStates(copy.imageStates);
      if (existing.podsWithAffinity.length > 0 !== copy.podsWithAffinity.length > 0) updateAffinity = true;
      if (existing.podsWithRequiredAntiAffinity.length > 0 !== copy.podsWithRequiredAntiAffinity.length > 0)
        updateAnti = true;
      Object.assign(existing, copy);
    }
    if (this.#head) snapshot.generation = this.#head.info.generation;
    if (snapshot.nodeInfoMap.size > this.#tree.numNodes) {
      for (const name of [...snapshot.nodeInfoMap.keys()]) {
        if (!this.#nodes.get(name)?.info.node) snapshot.nodeInfoMap.delete(name);
      }
      updateAll = true;
    }
    if (
      updateAll ||
      snapshot.treeVersion !== this.#tree.version ||
      snapshot.nodeInfoList.length !== this.#tree.numNodes
    ) {
      snapshot.treeVersion = this.#tree.version;
      snapshot.nodeInfoList = this.#tree
        .list()
        .map((name) => snapshot.nodeInfoMap.get(name))
        .filter((i): i is NodeInfo => i !== undefined);
      updateAffinity = true;
      updateAnti = true;
    }
    if (updateAffinity)
      snapshot.podsWithAffinityList = snapshot.nodeInfoList.filter((i) => i.podsWithAffinity.length > 0);
    if (updateAnti)
      snapshot.podsWithRequiredAntiAffinityList = snapshot.nodeInfoList.filter(
        (i) => i.podsWithRequiredAntiAffinity.length > 0,
      );
    if (snapshot.imageGeneration !== this.#imageGeneration) {
      for (const info of snapshot.nodeInfoList) info.imageStates = this.#currentImageStates(info.imageStates);
      snapshot.imageGeneration = this.#imageGeneration;
    }
  }
}
