// deletableResources: from discovery's lists, the namespaced resources the namespace controller deletes, and which verbs it may use on each.

/** A discovered resource (metav1.APIResource), as far as the namespace controller reads it. */
export interface DiscoveredResource {
  name: string;
  namespaced: boolean;
  kind: string;
  verbs: readonly string[];
}

/** One group-version's discovered resources; `groupVersion` as the server wrote it (`v1`, `apps/v1`). */
export interface DiscoveredResourceList {
  groupVersion: string;
  resources: readonly DiscoveredResource[];
}

/** A resource whose objects a terminating namespace loses, with the verbs the deleter may use. */
export interface DeletableResource {
  group: string;
  version: string;
  /** The plural (`pods`). */
  resource: string;
  kind: string;
  /** `deletecollection` is served: one DELETE per namespace; otherwise list and delete each. */
  deleteCollection: boolean;
  /** `list` is served: what remains can be counted; otherwise the resource is assumed emptied. */
  list: boolean;
}

/** What {@link deletableResources} found. */
export interface DeletableResources {
  resources: DeletableResource[];
  /**
   * A group-version string that does not parse (`a/b/c`): upstream's parser then gives up on the whole
   * discovery, so `resources` is empty and this message becomes NamespaceDeletionGroupVersionParsingFailure.
   */
  groupVersionError?: string;
}

/** Splits `apps/v1` or `v1`; undefined for a string with more than one `/` (schema.ParseGroupVersion). */
export function parseGroupVersion(groupVersion: string): { group: string; version: string } | undefined {
  if (groupVersion === '' || groupVersion === '/') return { group: '', version: '' };
  const parts = groupVersion.split('/');
  if (parts.length === 1) return { group: '', version: groupVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/**
 * The namespaced resources that support `delete`, in discovery order and each once (group, version and
 * resource), with whether `deletecollection` and `list` are served (upstream's operation cache, filled
 * from discovery).
 *
 * @example
 * deletableResources([{ groupVersion: 'v1', resources: [{ name: 'pods', namespaced: true, kind: 'Pod',
 *   verbs: ['delete', 'deletecollection', 'list'] }] }]).resources[0]; // { resource: 'pods', deleteCollection: true, ... }
 * @param lists discovery's lists (preferred versions)
 * @returns the resources, or none and the parse error when a group-version string is malformed
 */
export function deletableResources(lists: readonly DiscoveredResourceList[]): DeletableResources {
  const resources: DeletableResource[] = [];
  const seen = new Set<string>();
  for (const list of lists) {
    const gv = parseGroupVersion(list.groupVersion);
    if (!gv)
      return { resources: [], groupVersionError: `unexpected GroupVersion string: ${list.groupVersion}` };
    for (const r of list.resources) {
      if (!r.namespaced || !r.verbs.includes('delete')) continue;
      const key = `${gv.group}/${gv.version}/${r.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      resources.push({
        group: gv.group,
        version: gv.version,
        resource: r.name,
        kind: r.kind,
        deleteCollection: r.verbs.includes('deletecollection'),
        list: r.verbs.includes('list'),
      });
    }
  }
  return { resources };
}

/** A resource as upstream prints a GroupVersionResource: `/v1, Resource=pods`, `apps/v1, Resource=deployments`. */
export function groupVersionResourceString(
  r: Pick<DeletableResource, 'group' | 'version' | 'resource'>,
): string {
  return `${r.group}/${r.version}, Resource=${r.resource}`;
}
