// The objects stored per served resource, labelled as apiserver_storage_objects labels them.
import type { ObjectStore } from '../object-store.ts';
import { type ResourceDef, resourceId } from '../resource-table.ts';

/** `[resource, count]` per served resource: `pods`, `deployments.apps` (resource, then group). */
export function storedObjectCounts(
  table: readonly ResourceDef[],
  store: Pick<ObjectStore, 'current'>,
): [string, number][] {
  const out = new Map<string, number>();
  for (const def of table) {
    const label = def.group ? `${def.resource}.${def.group}` : def.resource;
    if (!out.has(label)) out.set(label, store.current(resourceId(def)).size);
  }
  return [...out];
}
