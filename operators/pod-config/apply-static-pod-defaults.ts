// applyStaticPodDefaults: the API defaults and the kubelet's static-pod defaults for a manifest pod.
import { createHash } from 'node:crypto';
import { CONFIG_HASH_ANNOTATION, type Container, type Pod } from './types.ts';

export interface StaticPodOrigin {
  /** The manifest file path (file source) or the manifest URL (HTTP source). */
  source: string;
  /** `file` adds the NoExecute toleration and hashes the node name into the UID; `url` does neither. */
  kind: 'file' | 'url';
  nodeName: string;
}

/**
 * Returns the pod with the defaults the API server's decoder and the kubelet's applyDefaults give
 * a static pod: API defaults (restartPolicy, dnsPolicy, grace period, scheduler, container pull
 * policy and termination message), then a UID from an md5 of the origin and the defaulted pod
 * unless one is set, the name suffixed with `-<lowercased node name>`, namespace `default` when
 * empty, spec.nodeName, the config.hash annotation (= the UID), for files a NoExecute toleration,
 * and phase Pending. The input is not modified.
 * @param input a decoded Pod
 * @param origin where it came from
 * @returns the defaulted copy
 */
export function applyStaticPodDefaults(input: Pod, origin: StaticPodOrigin): Pod {
  const pod = structuredClone(input);
  applyApiDefaults(pod);
  pod.metadata ??= {};
  const metadata = pod.metadata;
  if (!metadata.uid) {
    const hash = createHash('md5');
    if (origin.kind === 'file') hash.update(`host:${origin.nodeName}file:${origin.source}`);
    else hash.update(`url:${origin.source}`);
    hash.update(canonicalJson(pod));
    metadata.uid = hash.digest('hex');
  }
  metadata.name = staticPodName(metadata.name ?? '', origin.nodeName);
  if (!metadata.namespace) metadata.namespace = 'default';
  pod.spec ??= {};
  const spec = pod.spec;
  spec.nodeName = origin.nodeName;
  metadata.annotations = { ...metadata.annotations, [CONFIG_HASH_ANNOTATION]: metadata.uid };
  if (origin.kind === 'file') {
    const tolerations = spec.tolerations ?? [];
    const i = tolerations.findIndex((t) => !t.key && t.operator === 'Exists' && t.effect === 'NoExecute');
    const toleration = { operator: 'Exists', effect: 'NoExecute' };
    spec.tolerations =
      i >= 0 ? tolerations.map((t, j) => (j === i ? toleration : t)) : [...tolerations, toleration];
  }
  pod.status = { ...pod.status, phase: 'Pending' };
  return pod;
}

/** The kubelet's generatePodName: `<name>-<lowercased node name>`. */
export function staticPodName(name: string, nodeName: string): string {
  return `${name}-${nodeName.toLowerCase()}`;
}

function applyApiDefaults(pod: Pod): void {
  pod.spec ??= {};
  const spec = pod.spec;
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  spec.securityContext ??= {};
  for (const list of [spec.containers, spec.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (const container of list) if (container && typeof container === 'object') defaultContainer(container);
  }
}

function defaultContainer(container: Container): void {
  container.terminationMessagePath ??= '/dev/termination-log';
  container.terminationMessagePolicy ??= 'File';
  if (!container.imagePullPolicy && typeof container.image === 'string') {
    const lastPart = container.image.split('/').pop() ?? '';
    const tag = lastPart.includes('@') ? undefined : lastPart.split(':')[1];
    container.imagePullPolicy =
      lastPart.includes('@') || (tag && tag !== 'latest') ? 'IfNotPresent' : 'Always';
  }
}

/** JSON with object keys sorted, so equal pods hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
