// OwnerGraph: the garbage collector's dependency graph (nodes by uid, their owners and dependents) and what each change of it asks the collector to look at.
import type { OwnerReference } from '../../types.ts';

/** The `orphan` finalizer: the owner waits until its dependents no longer reference it. */
export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
/** The `foregroundDeletion` finalizer: the owner waits until its blocking dependents are gone. */
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';

/**
 * Where an object is: an owner reference's coordinates plus the namespace (`''` for a cluster-scoped
 * object, or for a virtual node whose scope is not known yet).
 */
export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly namespace: string;
}

/**
 * One node of the graph.
 *
 * Invariants: `dependents` holds the uid of every node whose `owners` name this node's uid, and nothing
 * else; a node is `virtual` until an informer has shown its object (it was only named by a dependent);
 * `deletingDependents` implies `beingDeleted` for an observed node.
 */
export interface GraphNode {
  identity: ObjectIdentity;
  owners: readonly OwnerReference[];
  readonly dependents: Set<string>;
  virtual: boolean;
  beingDeleted: boolean;
  deletingDependents: boolean;
}

/** What an informer (or the collector itself, for a `virtual` delete) reports about one object. */
export interface GraphEvent {
  readonly type: 'add' | 'update' | 'delete';
  readonly identity: ObjectIdentity;
  readonly owners: readonly OwnerReference[];
  readonly beingDeleted: boolean;
  readonly finalizers: readonly string[];
  /** The previous state of an update (absent for adds, deletes and a first sight). */
  readonly old?: { readonly beingDeleted: boolean; readonly finalizers: readonly string[] };
  /** Made by the collector after a live GET confirmed the object absent, not seen by an informer. */
  readonly virtual?: boolean;
}

/** What one graph change asks for: uids to attempt to delete or to orphan, and what it learnt. */
export interface GraphActions {
  /** Uids for the attemptToDelete queue, in order, each once. */
  readonly attemptToDelete: string[];
  /** Uids for the attemptToDelete queue through its rate limiter (a virtual node given another identity). */
  readonly attemptToDeleteRateLimited: string[];
  /** Uids for the attemptToOrphan queue. */
  readonly attemptToOrphan: string[];
  /** Owners now known absent (for the collector's absent-owner cache). */
  readonly absentOwners: ObjectIdentity[];
  /** Dependents that reference an owner in another namespace (upstream's OwnerRefInvalidNamespace event). */
  readonly invalidNamespaceReferences: { dependent: ObjectIdentity; owner: OwnerReference }[];
}

/** An identity as text, for logs and the absent-owner cache. */
export function identityText(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

/** True when a reference names the identity's uid, apiVersion, kind and name. */
export function referenceMatches(ref: OwnerReference, id: ObjectIdentity): boolean {
  return (
    ref.uid === id.uid && ref.apiVersion === id.apiVersion && ref.kind === id.kind && ref.name === id.name
  );
}

const sameIdentity = (a: ObjectIdentity, b: ObjectIdentity) =>
  a.uid === b.uid &&
  a.apiVersion === b.apiVersion &&
  a.kind === b.kind &&
  a.name === b.name &&
  a.namespace === b.namespace;

const blocks = (ref: OwnerReference | undefined) => ref?.blockOwnerDeletion === true;

/** Owner references in a stable comparison form (what "changed" means for a reference). */
const refText = (r: OwnerReference) =>
  JSON.stringify([r.apiVersion, r.kind, r.name, r.uid, r.controller ?? null, r.blockOwnerDeletion ?? null]);

/**
 * The added, removed and changed owner references between two lists, matched by uid.
 * @param before the old list
 * @param after the new list
 */
export function ownerReferenceDiff(
  before: readonly OwnerReference[],
  after: readonly OwnerReference[],
): {
  added: OwnerReference[];
  removed: OwnerReference[];
  changed: { before: OwnerReference; after: OwnerReference }[];
} {
  const old = new Map(before.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: { before: OwnerReference; after: OwnerReference }[] = [];
  for (const r of after) {
    const o = old.get(r.uid);
    if (!o) added.push(r);
    else {
      if (refText(o) !== refText(r)) changed.push({ before: o, after: r });
      old.delete(r.uid);
    }
  }
  return { added, removed: [...old.values()], changed };
}

/**
 * The garbage collector's graph of owners and dependents (upstream's GraphBuilder and its uidToNode), fed
 * one change at a time by {@link OwnerGraph.process}; every answer says which nodes the collector must
 * look at next. It does no I/O: whether an owner really exists is for the collector to ask the API server.
 *
 * Rules (upstream's, in short):
 * - An object seen for the first time becomes a node and a dependent of each owner it names; an owner not
 *   in the graph becomes a *virtual* node queued to attemptToDelete, so the collector verifies it.
 * - A dependent naming an observed owner with other coordinates, or in another namespace, is queued to
 *   attemptToDelete (and the namespace mismatch reported).
 * - A deletion that starts with the `orphan` finalizer queues the owner to attemptToOrphan; one that starts
 *   with `foregroundDeletion` marks it deletingDependents and queues it and its dependents to attemptToDelete.
 * - A removed blocking reference, or one that stops blocking, queues the owner it named.
 * - An object deleted leaves the graph; its dependents are queued (their owner is absent) and so is each of
 *   its owners that waits for its dependents.
 * - A virtual delete (the collector found the object absent) of a node whose dependents disagree on its
 *   coordinates removes only what was verified: the dependents naming the absent coordinates are queued,
 *   and the node lives on with another identity its other dependents name.
 */
export class OwnerGraph {
  readonly #nodes = new Map<string, GraphNode>();
  /**
   * Who names each uid as an owner, kept whether or not that uid has a node: a node created later (an owner
   * seen again, or a new virtual one) starts with every dependent that names it, not only the newest.
   * A node's `dependents` is this set.
   */
  readonly #referrers = new Map<string, Set<string>>();

  #referrersOf(uid: string): Set<string> {
    let set = this.#referrers.get(uid);
    if (!set) {
      set = new Set();
      this.#referrers.set(uid, set);
    }
    return set;
  }

  #forgetReferrer(ownerUid: string, dependentUid: string): void {
    const set = this.#referrers.get(ownerUid);
    if (!set) return;
    set.delete(dependentUid);
    if (set.size === 0 && !this.#nodes.has(ownerUid)) this.#referrers.delete(ownerUid);
  }

  /** The node of a uid. */
  node(uid: string): GraphNode | undefined {
    return this.#nodes.get(uid);
  }

  /** Number of nodes (virtual ones included). */
  get size(): number {
    return this.#nodes.size;
  }

  /** Every node (for dumps and tests). */
  nodes(): IterableIterator<GraphNode> {
    return this.#nodes.values();
  }

  /** The dependents of a node, as nodes. */
  dependentsOf(uid: string): GraphNode[] {
    const n = this.#nodes.get(uid);
    if (!n) return [];
    return [...n.dependents].flatMap((d) => {
      const dep = this.#nodes.get(d);
      return dep ? [dep] : [];
    });
  }

  /** The dependents whose reference to this node has blockOwnerDeletion: the ones a foreground deletion waits for. */
  blockingDependentsOf(uid: string): GraphNode[] {
    return this.dependentsOf(uid).filter((d) => d.owners.some((r) => r.uid === uid && blocks(r)));
  }

  /**
   * Applies one change.
   * @param event what an informer saw, or a virtual delete
   * @returns the nodes to look at and what was learnt
   */
  process(event: GraphEvent): GraphActions {
    const out: GraphActions = {
      attemptToDelete: [],
      attemptToDeleteRateLimited: [],
      attemptToOrphan: [],
      absentOwners: [],
      invalidNamespaceReferences: [],
    };
    const queue = (uid: string) => {
      if (!out.attemptToDelete.includes(uid)) out.attemptToDelete.push(uid);
    };
    const uid = event.identity.uid;
    const existing = this.#nodes.get(uid);

    if (existing && !event.virtual && existing.virtual) {
      // first sight of an object the graph only knew by a dependent's reference
      const observed = event.identity;
      if (!sameIdentity(observed, existing.identity)) {
        const { nonMatching } = this.#partition(existing, observed);
        for (const dep of nonMatching) {
          if (observed.namespace && dep.identity.namespace !== observed.namespace) {
            const ref = dep.owners.find((r) => r.uid === uid);
            if (ref) out.invalidNamespaceReferences.push({ dependent: dep.identity, owner: ref });
          }
          queue(dep.identity.uid);
        }
        existing.identity = observed;
      }
      existing.virtual = false;
    }

    if (event.type !== 'delete') {
      if (!existing) {
        const node: GraphNode = {
          identity: event.identity,
          owners: [...event.owners],
          dependents: this.#referrersOf(uid),
          virtual: false,
          beingDeleted: event.beingDeleted,
          deletingDependents: event.beingDeleted && event.finalizers.includes(FINALIZER_DELETE_DEPENDENTS),
        };
        this.#nodes.set(uid, node);
        this.#addToOwners(node, node.owners, out, queue);
        this.#transitions(event, node, out, queue);
        return out;
      }
      if (
        !event.virtual &&
        (existing.identity.apiVersion !== event.identity.apiVersion ||
          existing.identity.kind !== event.identity.kind)
      ) {
        existing.identity = {
          ...existing.identity,
          apiVersion: event.identity.apiVersion,
          kind: event.identity.kind,
        };
      }
      const { added, removed, changed } = ownerReferenceDiff(existing.owners, event.owners);
      if (added.length || removed.length || changed.length) {
        // a blocking reference gone or no longer blocking may let a waiting owner go
        for (const r of removed) if (blocks(r) && this.#nodes.has(r.uid)) queue(r.uid);
        for (const c of changed)
          if (blocks(c.before) && !blocks(c.after) && this.#nodes.has(c.after.uid)) queue(c.after.uid);
        existing.owners = [...event.owners];
        this.#addToOwners(existing, added, out, queue);
        for (const r of removed) this.#forgetReferrer(r.uid, uid);
      }
      if (event.beingDeleted) existing.beingDeleted = true;
      this.#transitions(event, existing, out, queue);
      return out;
    }

    // delete
    if (!existing) return out;
    let remove = true;
    if (event.virtual) {
      const deleted = event.identity;
      if (existing.virtual) {
        const { matching, nonMatching } = this.#partition(existing, deleted);
        if (nonMatching.length > 0) {
          // some dependents name this uid with other coordinates: keep the node for them
          remove = false;
          if (matching.length > 0) {
            out.absentOwners.push(deleted);
            for (const dep of matching) queue(dep.identity.uid);
          }
          if (sameIdentity(existing.identity, deleted)) {
            const other = this.#alternateIdentity(nonMatching, deleted);
            if (other) {
              existing.identity = other;
              out.attemptToDeleteRateLimited.push(uid);
            }
          }
        }
      } else if (!sameIdentity(existing.identity, deleted)) {
        // an observed node is never removed by a virtual delete of other coordinates
        remove = false;
        const { matching } = this.#partition(existing, deleted);
        if (matching.length > 0) {
          out.absentOwners.push(deleted);
          for (const dep of matching) queue(dep.identity.uid);
        }
      }
    }
    if (remove) {
      this.#nodes.delete(uid);
      for (const r of existing.owners) this.#forgetReferrer(r.uid, uid);
      if (existing.dependents.size > 0) out.absentOwners.push(event.identity);
      else this.#referrers.delete(uid);
      for (const dep of existing.dependents) queue(dep);
      for (const r of existing.owners) {
        const owner = this.#nodes.get(r.uid);
        if (owner?.deletingDependents) queue(owner.identity.uid);
      }
    }
    return out;
  }

  #transitions(event: GraphEvent, node: GraphNode, out: GraphActions, queue: (uid: string) => void): void {
    const starts = (finalizer: string) =>
      event.beingDeleted &&
      event.finalizers.includes(finalizer) &&
      (!event.old?.beingDeleted || !event.old.finalizers.includes(finalizer));
    if (starts(FINALIZER_ORPHAN_DEPENDENTS)) {
      if (!out.attemptToOrphan.includes(node.identity.uid)) out.attemptToOrphan.push(node.identity.uid);
      return;
    }
    if (starts(FINALIZER_DELETE_DEPENDENTS)) {
      node.deletingDependents = true;
      for (const dep of node.dependents) queue(dep);
      queue(node.identity.uid);
    }
  }

  #addToOwners(
    node: GraphNode,
    owners: readonly OwnerReference[],
    out: GraphActions,
    queue: (uid: string) => void,
  ): void {
    let suspicious = false;
    for (const ref of owners) {
      this.#referrersOf(ref.uid).add(node.identity.uid);
      let owner = this.#nodes.get(ref.uid);
      if (!owner) {
        owner = {
          identity: {
            apiVersion: ref.apiVersion,
            kind: ref.kind,
            name: ref.name,
            uid: ref.uid,
            namespace: node.identity.namespace,
          },
          owners: [],
          dependents: this.#referrersOf(ref.uid),
          virtual: true,
          beingDeleted: false,
          deletingDependents: false,
        };
        this.#nodes.set(ref.uid, owner);
        // the collector verifies a virtual owner with a live GET
        queue(ref.uid);
        continue;
      }
      if (suspicious) continue;
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== node.identity.namespace) {
        if (!owner.virtual) out.invalidNamespaceReferences.push({ dependent: node.identity, owner: ref });
        suspicious = true;
      } else if (!referenceMatches(ref, owner.identity)) {
        suspicious = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== node.identity.namespace && owner.virtual) {
        // a virtual cluster-scoped owner named from a namespace may really be a namespaced kind
        suspicious = true;
      }
    }
    if (suspicious) queue(node.identity.uid);
  }

  /** Dependents whose reference to `id.uid` matches `id` all the way, and those with one that does not. */
  #partition(node: GraphNode, id: ObjectIdentity): { matching: GraphNode[]; nonMatching: GraphNode[] } {
    const matching: GraphNode[] = [];
    const nonMatching: GraphNode[] = [];
    for (const dep of this.dependentsOf(node.identity.uid)) {
      let match = false;
      let mismatch = false;
      if (id.namespace !== '' && id.namespace !== dep.identity.namespace) mismatch = true;
      else
        for (const r of dep.owners) {
          if (r.uid !== id.uid) continue;
          if (referenceMatches(r, id)) match = true;
          else mismatch = true;
        }
      if (match) matching.push(dep);
      if (mismatch) nonMatching.push(dep);
    }
    return { matching, nonMatching };
  }

  /** Another identity the dependents give this uid: the first after `absent` in a stable order, else the first. */
  #alternateIdentity(deps: readonly GraphNode[], absent: ObjectIdentity): ObjectIdentity | undefined {
    const seen = new Map<string, ObjectIdentity>();
    for (const dep of deps)
      for (const r of dep.owners) {
        if (r.uid !== absent.uid) continue;
        const coordinates = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid };
        let id: ObjectIdentity;
        if (referenceMatches(r, absent)) {
          // verified absent as cluster-scoped: it may still be a namespaced object in the dependent's namespace
          if (absent.namespace !== '' || dep.identity.namespace === '') continue;
          id = { ...coordinates, namespace: dep.identity.namespace };
        } else id = { ...coordinates, namespace: absent.namespace };
        seen.set(identityText(id), id);
      }
    const order = (x: ObjectIdentity) => [x.kind, x.apiVersion, x.namespace, x.name, x.uid].join('\u0000');
    const sorted = [...seen.values()].sort((a, b) =>
      order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0,
    );
    return sorted.find((x) => order(x) > order(absent)) ?? sorted[0];
  }
}
