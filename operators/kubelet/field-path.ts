// podFieldValue: the value of a downward API fieldRef (metadata.name, metadata.labels['k'], status.podIP, ...).
import type { Pod } from '../api/core-v1.ts';

/** Go's `%q` of a plain string (JSON quoting is the same for what labels and annotations hold). */
function quote(value: string): string {
  return JSON.stringify(value);
}

/** Labels or annotations as the downward API writes them: sorted `key="value"` lines. */
export function formatMap(map: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}=${quote(map?.[k] ?? '')}`)
    .join('\n');
}

/** Runtime facts a fieldRef may read that the pod object does not carry yet. */
export interface FieldContext {
  podIP?: string;
  podIPs?: string[];
  hostIP?: string;
  hostIPs?: string[];
}

/**
 * The value of a pod field path as env vars and downward API volumes see it.
 *
 * @returns the value, or an error message naming the path (`unsupported fieldPath: <path>`)
 */
export function podFieldValue(
  pod: Pod,
  fieldPath: string,
  context: FieldContext = {},
): { value: string } | { error: string } {
  const subscript = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (subscript) {
    const map = subscript[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations;
    return { value: map?.[subscript[2] as string] ?? '' };
  }
  switch (fieldPath) {
    case 'metadata.name':
      return { value: pod.metadata.name ?? '' };
    case 'metadata.namespace':
      return { value: pod.metadata.namespace ?? '' };
    case 'metadata.uid':
      return { value: pod.metadata.uid ?? '' };
    case 'metadata.labels':
      return { value: formatMap(pod.metadata.labels) };
    case 'metadata.annotations':
      return { value: formatMap(pod.metadata.annotations) };
    case 'spec.nodeName':
      return { value: pod.spec.nodeName ?? '' };
    case 'spec.serviceAccountName':
      return { value: pod.spec.serviceAccountName ?? '' };
    case 'status.hostIP':
      return { value: context.hostIP ?? context.hostIPs?.[0] ?? pod.status?.hostIP ?? '' };
    case 'status.hostIPs':
      return { value: (context.hostIPs ?? (context.hostIP ? [context.hostIP] : [])).join(',') };
    case 'status.podIP':
      return { value: context.podIP ?? context.podIPs?.[0] ?? pod.status?.podIP ?? '' };
    case 'status.podIPs':
      return { value: (context.podIPs ?? (context.podIP ? [context.podIP] : [])).join(',') };
    default:
      return { error: `unsupported fieldPath: ${fieldPath}` };
  }
}
