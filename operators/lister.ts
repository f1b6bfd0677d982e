// Listers: read objects from an indexed store snapshot by namespace/name and by label selector.
import { type IndexedStore, NAMESPACE_INDEX } from './indexed-store.ts';
import { everythingLabelSelector, type LabelSelector, parseLabelSelector } from './label-selector.ts';
import type { KubeObject } from './types.ts';

/** A label selector, or its text (parsed on each call), or nothing for "everything". */
export type SelectorInput = LabelSelector | string | undefined;

/** Reads one namespace of a snapshot; the namespace `''` means all namespaces when listing. */
export interface NamespaceLister<T extends KubeObject = KubeObject> {
  /** Objects of the namespace whose labels match, in no defined order. */
  list(selector?: SelectorInput): T[];
  /** The object named `name` in this namespace (for `''`: the cluster-scoped object), or undefined. */
  get(name: string): T | undefined;
}

/** Reads a snapshot by namespace and name, and by label selector (client-go's generic lister). */
export interface Lister<T extends KubeObject = KubeObject> {
  /** Objects of every namespace whose labels match, in no defined order. */
  list(selector?: SelectorInput): T[];
  /** The object at `namespace/name` (`namespace` `''` for cluster-scoped objects), or undefined. */
  get(namespace: string, name: string): T | undefined;
  byNamespace(namespace: string): NamespaceLister<T>;
}

function toSelector(selector: SelectorInput): LabelSelector {
  if (selector === undefined) return everythingLabelSelector();
  return typeof selector === 'string' ? parseLabelSelector(selector) : selector;
}

function filter<T extends KubeObject>(objects: T[], selector: LabelSelector): T[] {
  if (selector.matchesNothing) return [];
  if (selector.isEmpty()) return objects;
  return objects.filter((o) => selector.matches(o.metadata?.labels));
}

function keyOf(namespace: string, name: string): string {
  return namespace === '' ? name : `${namespace}/${name}`;
}

/**
 * A lister over one immutable snapshot; it never sees later writes, so take a new one per read
 * pass. Uses the namespace index when the store has it, else scans.
 *
 * @example lister(cache.current).byNamespace('prod').list('app=web')
 * @param snapshot the store snapshot to read
 * @returns the lister
 * @throws InvalidInputError (from list) when a selector text does not parse
 */
export function lister<T extends KubeObject>(snapshot: IndexedStore<T>): Lister<T> {
  const hasNamespaceIndex = Object.hasOwn(snapshot.getIndexers(), NAMESPACE_INDEX);
  const inNamespace = (namespace: string): T[] =>
    hasNamespaceIndex
      ? snapshot.byIndex(NAMESPACE_INDEX, namespace)
      : snapshot.list().filter((o) => (o.metadata?.namespace ?? '') === namespace);
  return {
    list: (selector) => filter(snapshot.list(), toSelector(selector)),
    get: (namespace, name) => snapshot.getByKey(keyOf(namespace, name)),
    byNamespace: (namespace) => ({
      list: (selector) =>
        filter(namespace === '' ? snapshot.list() : inNamespace(namespace), toSelector(selector)),
      get: (name) => snapshot.getByKey(keyOf(namespace, name)),
    }),
  };
}
