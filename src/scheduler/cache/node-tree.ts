// The node tree: node names grouped by zone, listed interleaved across zones (kube-scheduler's nodeTree).
import type { Node } from '../../../operators/api/core-v1.ts';

const REGION = 'topology.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const LEGACY_REGION = 'failure-domain.beta.kubernetes.io/region';
const LEGACY_ZONE = 'failure-domain.beta.kubernetes.io/zone';

/** A node's zone key: region and zone (stable labels first, then the legacy ones); '' when it has neither. */
export function zoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const region = labels[REGION] ?? labels[LEGACY_REGION] ?? '';
  const zone = labels[ZONE] ?? labels[LEGACY_ZONE] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\u0000:${zone}`;
}

/**
 * Node names by zone. Invariants: a name is in exactly one zone list; zones keep the order in which
 * they first got a node; an empty zone is dropped. `list()` takes the first node of every zone, then
 * the second of every zone, ... so consecutive nodes are spread across zones.
 */
export class NodeTree {
  readonly #tree = new Map<string, string[]>();
  #zones: string[] = [];
  #count = 0;
  #version = 0;

  /** Bumped whenever the listed order changes (a node added, removed or moved to another zone). */
  get version(): number {
    return this.#version;
  }

  get numNodes(): number {
    return this.#count;
  }

  addNode(node: Node): void {
    const zone = zoneKey(node);
    const name = node.metadata.name ?? '';
    let names = this.#tree.get(zone);
    if (!names) {
      names = [];
      this.#tree.set(zone, names);
      this.#zones.push(zone);
    }
    if (names.includes(name)) return;
    names.push(name);
    this.#count++;
    this.#version++;
  }

  /** Removes the node from its zone (swapping the last node of the zone into its place, as upstream). */
  removeNode(node: Node): boolean {
    const zone = zoneKey(node);
    const names = this.#tree.get(zone);
    const i = names?.indexOf(node.metadata.name ?? '') ?? -1;
    if (!names || i < 0) return false;
    names[i] = names[names.length - 1]!;
    names.pop();
    if (names.length === 0) {
      this.#tree.delete(zone);
      this.#zones = this.#zones.filter((z) => z !== zone);
    }
    this.#count--;
    this.#version++;
    return true;
  }

  /** Moves the node when its zone changed; otherwise nothing changes. */
  updateNode(oldNode: Node | undefined, newNode: Node): void {
    if (oldNode) {
      if (zoneKey(oldNode) === zoneKey(newNode)) return;
      this.removeNode(oldNode);
    }
    this.addNode(newNode);
  }

  /** Every node name, interleaved across zones. */
  list(): string[] {
    const out: string[] = [];
    for (let i = 0; out.length < this.#count; i++) {
      for (const zone of this.#zones) {
        const name = this.#tree.get(zone)![i];
        if (name !== undefined) out.push(name);
      }
    }
    return out;
  }
}
