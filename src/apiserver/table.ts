// The Table (meta.k8s.io/v1) and PartialObjectMetadata forms of objects, for kubectl and metadata informers.
import type { KubeObject } from '../../operators/types.ts';
import type { ResourceDef, TableColumn } from './resource-table.ts';

const AGE: TableColumn = {
  name: 'Age',
  type: 'string',
  description: 'Time since the object was created.',
  priority: 0,
  cell: () => null,
};

/** What a Table row's `object` holds, from the `includeObject` query parameter. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** Formats an age the way kubectl shows it (`45s`, `3m20s`, `5h`, `12d`, `2y30d`). */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (days < 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** An object's metadata-only form. */
export function partialObjectMetadata(object: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata ?? {} };
}

/** A list's metadata-only form. */
export function partialObjectMetadataList(
  items: readonly KubeObject[],
  metadata: Record<string, unknown>,
): KubeObject {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    items: items.map(partialObjectMetadata),
  };
}

/**
 * Objects as a Table: Name, the row's columns, Age.
 * @param def the resource row giving the columns
 * @param items the objects, one row each
 * @param options `includeObject` (default Metadata), `noHeaders` to omit column definitions, `now` in ms
 * @param metadata the list metadata (resourceVersion, continue)
 */
export function toTable(
  def: ResourceDef,
  items: readonly KubeObject[],
  options: { includeObject?: IncludeObject; noHeaders?: boolean; now?: number },
  metadata: Record<string, unknown>,
): KubeObject {
  const now = options.now ?? Date.now();
  const include = options.includeObject ?? 'Metadata';
  // As kube-apiserver's printers do: Name, the default columns, Age, then the `-o wide` ones.
  // A row's `agePosition` moves Age among the default columns (0: right after Name), or drops it.
  const shown = def.columns.filter((c) => c.priority === 0);
  const agePosition = def.agePosition ?? shown.length;
  const columns = [
    ...shown.slice(0, agePosition === 'none' ? shown.length : agePosition),
    ...(agePosition === 'none' ? [] : [AGE]),
    ...(agePosition === 'none' ? [] : shown.slice(agePosition)),
    ...def.columns.filter((c) => c.priority === 1),
  ];
  const columnDefinitions = [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: 'Name must be unique within a namespace.',
      priority: 0,
    },
    ...columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: '',
      description: c.description,
      priority: c.priority,
    })),
  ];
  const rows = items.map((o) => {
    const created = Date.parse(String(o.metadata?.creationTimestamp ?? ''));
    const cells = [
      o.metadata?.name ?? '',
      ...columns.map((c) => {
        if (c === AGE) return Number.isNaN(created) ? '<unknown>' : humanDuration(now - created);
        try {
          return c.cell(o);
        } catch {
          return '<unknown>';
        }
      }),
    ];
    return {
      cells,
      ...(include === 'None' ? {} : { object: include === 'Object' ? o : partialObjectMetadata(o) }),
    };
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    ...(options.noHeaders ? {} : { columnDefinitions }),
    rows,
  };
}
