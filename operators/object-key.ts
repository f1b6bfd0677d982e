// Object keys: `namespace/name` for namespaced objects, `name` for cluster-scoped ones.
import { KeyError } from './errors.ts';
import { DeletedFinalStateUnknown, type KubeObject } from './types.ts';

export type KeyFunc<T extends KubeObject = KubeObject> = (obj: T | DeletedFinalStateUnknown<T>) => string;

/**
 * client-go's MetaNamespaceKeyFunc: the tombstone's own key, else `namespace/name`, else `name`.
 *
 * Stricter than client-go on one point: an object without a name throws instead of getting the key
 * `ns/` (or `''`). Every unnamed object of a namespace would share that key and overwrite each other in a
 * store, so kube-rx refuses to key them. Keys built from parts (`joinObjectKey`) follow client-go exactly.
 * @throws KeyError when the object has no metadata.name
 */
export function objectKey(obj: KubeObject | DeletedFinalStateUnknown): string {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  const name = obj?.metadata?.name;
  if (typeof name !== 'string' || name === '') throw new KeyError(obj, 'object has no metadata.name');
  return joinObjectKey(obj.metadata?.namespace ?? '', name);
}

/**
 * client-go's ObjectName.String(): `namespace/name`, or `name` when the namespace is empty. An empty
 * name is kept as is, so `joinObjectKey('ns', '')` is `ns/`, as in client-go.
 */
export function joinObjectKey(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * client-go's SplitMetaNamespaceKey: a key with no slash is a cluster-scoped name, one slash separates
 * namespace and name (either may be empty: `ns/` gives namespace `ns` and name ''), more slashes are an error.
 * @throws KeyError naming the key when it has more than one slash
 */
export function splitObjectKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0]! };
  if (parts.length === 2) return { namespace: parts[0]!, name: parts[1]! };
  throw new KeyError(key, `unexpected key format: ${JSON.stringify(key)}`);
}
