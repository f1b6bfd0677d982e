// downwardApiFieldCauses: a downward-API fieldRef or resourceFieldRef (env var or volume file) as upstream validates it.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { shape } from './json-shape.ts';

/** Field paths ConvertDownwardAPIFieldLabel knows for pods. */
const CONVERTIBLE = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
  'spec.host',
]);

const ENV_FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
].sort();
const VOLUME_FIELDS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];
const RESOURCE_FIELDS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
const SUBSCRIPTED = /^(.+)\['(.*)'\]$/;

function fieldRefCauses(ref: unknown, path: string, target: 'env' | 'volume'): StatusCause[] {
  const r = shape.obj(ref);
  const apiVersion = shape.defaulted(r.apiVersion, 'v1');
  const fieldPath = shape.str(r.fieldPath) ?? '';
  if (fieldPath === '') return [fieldError.required(`${path}.fieldPath`)];
  const sub = SUBSCRIPTED.exec(fieldPath);
  const converted = apiVersion !== 'v1' ? `unsupported pod version: ${shape.text(apiVersion)}` : undefined;
  if (
    converted ||
    (!sub && !CONVERTIBLE.has(fieldPath)) ||
    (sub && !/^metadata\.(labels|annotations)$/.test(sub[1]!))
  ) {
    const why =
      converted ??
      (sub
        ? `field label does not support subscript: ${fieldPath}`
        : `field label not supported: ${fieldPath}`);
    return [fieldError.invalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${why}`)];
  }
  if (sub) {
    const key = sub[1] === 'metadata.annotations' ? sub[2]!.toLowerCase() : sub[2]!;
    return formatErrors.qualifiedName(key).map((m) => fieldError.invalid(path, key, m));
  }
  const allowed = target === 'env' ? ENV_FIELDS : VOLUME_FIELDS;
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  return allowed.includes(internal) ? [] : [fieldError.notSupported(`${path}.fieldPath`, internal, allowed)];
}

function resourceFieldRefCauses(ref: unknown, path: string, target: 'env' | 'volume'): StatusCause[] {
  const r = shape.obj(ref);
  if (target === 'volume' && shape.empty(r.containerName))
    return [fieldError.required(`${path}.containerName`)];
  const resource = shape.str(r.resource) ?? '';
  if (resource === '') return [fieldError.required(`${path}.resource`)];
  if (RESOURCE_FIELDS.includes(resource) || /^(requests|limits)\.hugepages-/.test(resource)) return [];
  return [fieldError.notSupported(`${path}.resource`, resource, RESOURCE_FIELDS)];
}

/**
 * A downward-API reference: `fieldRef` (apiVersion v1, a field path the target may expose, subscripted
 * labels/annotations with a qualified key) or `resourceFieldRef` (a container resource).
 * @param kind which reference
 * @param ref the reference object
 * @param path its field path
 * @param target env vars and volume files expose different pod fields
 * @returns the causes, empty when valid
 */
export function downwardApiFieldCauses(
  kind: 'fieldRef' | 'resourceFieldRef',
  ref: unknown,
  path: string,
  target: 'env' | 'volume',
): StatusCause[] {
  return kind === 'fieldRef' ? fieldRefCauses(ref, path, target) : resourceFieldRefCauses(ref, path, target);
}
