// Object keys: `namespace/name` for namespaced objects, `name` for cluster-scoped ones.
import { KeyError } from './errors.ts';
import { DeletedFinalStateUnknown, type KubeObject } from './types.ts';

export type KeyFunc<T extends KubeObject = KubeObject> = (obj: T | DeletedFinalStateUnknown<T>) => string;

/**
 * client-go's MetaNamespaceKeyFunc: the tombstone's own key, else `namespace/name`, else `name`.
 * @throws KeyError when the object has no metadata.name
 */
export function objectKey(obj: KubeObject | DeletedFinalStateUnknown): string {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  const name = obj?.metadata?.name;
  if (typeof name !== 'string' || name === '') throw new KeyError(obj, 'object has no metadata.name');
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

/** Splits a key back into namespace and name; a key with no slash is cluster-scoped. */
export function splitObjectKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0]! };
  if (parts.length === 2 && parts[1] !== '') return { namespace: parts[0]!, name: parts[1]! };
  throw new KeyError(key, `unexpected key format: ${JSON.stringify(key)}`);
}
