// validateStaticPod: the checks of the API server's pod validation and the kubelet's static-pod rules that a manifest must pass.
import type { Container, Pod } from './types.ts';

/** One validation failure, naming the field as the API server does (`spec.containers[0].image`). */
export interface FieldError {
  field: string;
  message: string;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

/**
 * Validates a defaulted static pod: name (a DNS-1123 subdomain of at most 253 characters),
 * namespace (a DNS-1123 label), at least one container, every container named (a unique DNS-1123
 * label) with a non-empty image, unique DNS-1123 volume names, known restart, DNS and pull
 * policies, and no reference to API objects (secrets, configmaps, service accounts, persistent
 * volume claims, cluster trust bundles, resource claims), which static pods may not have.
 * @param pod the pod after `applyStaticPodDefaults`
 * @returns the failures, empty when the pod is valid
 */
export function validateStaticPod(pod: Pod): FieldError[] {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  const name = pod.metadata?.name;
  if (!name) fail('metadata.name', 'name is required');
  else if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    fail('metadata.name', `${JSON.stringify(name)} is not a lowercase RFC 1123 subdomain`);
  }
  const namespace = pod.metadata?.namespace;
  if (!namespace || namespace.length > 63 || !DNS1123_LABEL.test(namespace)) {
    fail('metadata.namespace', `${JSON.stringify(namespace ?? '')} is not a lowercase RFC 1123 label`);
  }
  const spec = pod.spec;
  if (!spec || typeof spec !== 'object') {
    fail('spec', 'spec is required');
    return errors;
  }
  if (!Array.isArray(spec.containers) || spec.containers.length === 0) {
    fail('spec.containers', 'at least one container is required');
  }
  const containerNames = new Set<string>();
  const checkContainers = (list: unknown, path: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) {
      fail(path, 'must be a list');
      return;
    }
    list.forEach((c: Container, i) => {
      const at = `${path}[${i}]`;
      if (!c || typeof c !== 'object') {
        fail(at, 'must be an object');
        return;
      }
      if (!c.name) fail(`${at}.name`, 'name is required');
      else if (typeof c.name !== 'string' || c.name.length > 63 || !DNS1123_LABEL.test(c.name)) {
        fail(`${at}.name`, `${JSON.stringify(c.name)} is not a lowercase RFC 1123 label`);
      } else if (containerNames.has(c.name))
        fail(`${at}.name`, `duplicate container name ${JSON.stringify(c.name)}`);
      else containerNames.add(c.name);
      if (typeof c.image !== 'string' || c.image.trim() === '') fail(`${at}.image`, 'image is required');
      else if (c.image !== c.image.trim())
        fail(`${at}.image`, 'must not have leading or trailing whitespace');
      if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy)) {
        fail(`${at}.imagePullPolicy`, `unsupported value ${JSON.stringify(c.imagePullPolicy)}`);
      }
      const refs = containerReferences(c);
      if (refs) fail(at, `static pods may not reference ${refs}`);
    });
  };
  checkContainers(spec.initContainers, 'spec.initContainers');
  checkContainers(spec.containers, 'spec.containers');
  const volumeNames = new Set<string>();
  if (spec.volumes !== undefined) {
    if (!Array.isArray(spec.volumes)) fail('spec.volumes', 'must be a list');
    else
      spec.volumes.forEach((v, i) => {
        const at = `spec.volumes[${i}]`;
        const vname = v?.name;
        if (!vname) fail(`${at}.name`, 'name is required');
        else if (vname.length > 63 || !DNS1123_LABEL.test(vname)) {
          fail(`${at}.name`, `${JSON.stringify(vname)} is not a lowercase RFC 1123 label`);
        } else if (volumeNames.has(vname))
          fail(`${at}.name`, `duplicate volume name ${JSON.stringify(vname)}`);
        else volumeNames.add(vname);
        const refs = v ? volumeReferences(v) : undefined;
        if (refs) fail(at, `static pods may not reference ${refs}`);
      });
  }
  if (typeof spec.restartPolicy === 'string' && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    fail('spec.restartPolicy', `unsupported value ${JSON.stringify(spec.restartPolicy)}`);
  }
  if (typeof spec.dnsPolicy === 'string' && !DNS_POLICIES.includes(spec.dnsPolicy)) {
    fail('spec.dnsPolicy', `unsupported value ${JSON.stringify(spec.dnsPolicy)}`);
  }
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '') {
    fail('spec.serviceAccountName', 'static pods may not reference serviceaccounts');
  }
  if (Array.isArray(spec.resourceClaims) && spec.resourceClaims.length > 0) {
    fail('spec.resourceClaims', 'static pods may not reference resourceclaims');
  }
  return errors;
}

function volumeReferences(v: Record<string, unknown>): string | undefined {
  if (v.secret) return 'secrets';
  if (v.configMap) return 'configmaps';
  if (v.persistentVolumeClaim) return 'persistentvolumeclaims';
  if (v.ephemeral) return 'persistentvolumeclaims';
  const projected = v.projected as { sources?: Record<string, unknown>[] } | undefined;
  for (const s of projected?.sources ?? []) {
    if (s?.secret) return 'secrets';
    if (s?.configMap) return 'configmaps';
    if (s?.serviceAccountToken) return 'serviceaccounts';
    if (s?.clusterTrustBundle) return 'clustertrustbundles';
  }
  return undefined;
}

function containerReferences(c: Container): string | undefined {
  const env = Array.isArray(c.env) ? (c.env as { valueFrom?: Record<string, unknown> }[]) : [];
  for (const e of env) {
    if (e?.valueFrom?.secretKeyRef) return 'secrets';
    if (e?.valueFrom?.configMapKeyRef) return 'configmaps';
  }
  const envFrom = Array.isArray(c.envFrom) ? (c.envFrom as Record<string, unknown>[]) : [];
  for (const e of envFrom) {
    if (e?.secretRef) return 'secrets';
    if (e?.configMapRef) return 'configmaps';
  }
  return undefined;
}
