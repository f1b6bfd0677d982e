// makeEnvironmentVariables: a container's environment from env and envFrom, with valueFrom resolved and `$(VAR)` expanded.
import type { Container, Pod, ResourceList } from '../api/core-v1.ts';
import { expandEnvReferences } from './expand-env-references.ts';
import { type FieldContext, podFieldValue } from './field-path.ts';
import { resourceFieldValue } from './resource-field-value.ts';

/** A ConfigMap or Secret as the kubelet reads it: string data (Secrets decoded from base64 by the caller). */
export interface KeyValueSource {
  data: Readonly<Record<string, string>>;
}

/** The objects a pod's env refers to; `undefined` for a name the API server does not have. */
export interface EnvSources {
  configMaps: ReadonlyMap<string, KeyValueSource | undefined>;
  secrets: ReadonlyMap<string, KeyValueSource | undefined>;
}

/** The names of the ConfigMaps and Secrets a container's env and envFrom refer to. */
export function envReferences(container: Container): { configMaps: Set<string>; secrets: Set<string> } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef?.name) configMaps.add(from.configMapRef.name);
    if (from.secretRef?.name) secrets.add(from.secretRef.name);
  }
  for (const env of container.env ?? []) {
    if (env.valueFrom?.configMapKeyRef?.name) configMaps.add(env.valueFrom.configMapKeyRef.name);
    if (env.valueFrom?.secretKeyRef?.name) secrets.add(env.valueFrom.secretKeyRef.name);
  }
  return { configMaps, secrets };
}

/**
 * The container's environment in order (makeEnvironmentVariables): every envFrom source (keys with
 * its prefix), then every env entry: `value` with `$(VAR)` expanded against what precedes it,
 * `valueFrom` resolved (fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef). A missing
 * object or key fails with the kubelet's message unless marked optional, in which case it is
 * skipped. A later name replaces an earlier value in its first position.
 *
 * @param pod the pod
 * @param container the container
 * @param sources the ConfigMaps and Secrets fetched for it
 * @param context pod and host IPs, and the node's allocatable (default limits)
 * @returns the variables, or the error that keeps the container from starting (CreateContainerConfigError)
 */
export function makeEnvironmentVariables(
  pod: Pod,
  container: Container,
  sources: EnvSources,
  context: FieldContext & { allocatable?: ResourceList } = {},
): { env: { key: string; value: string }[] } | { error: string } {
  const ns = pod.metadata.namespace ?? '';
  const env = new Map<string, string>();
  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    if (from.configMapRef) {
      const { name, optional } = from.configMapRef;
      const cm = sources.configMaps.get(name);
      if (!cm) {
        if (optional) continue;
        return { error: `configmap "${name}" not found` };
      }
      for (const [k, v] of Object.entries(cm.data)) env.set(prefix + k, v);
    }
    if (from.secretRef) {
      const { name, optional } = from.secretRef;
      const secret = sources.secrets.get(name);
      if (!secret) {
        if (optional) continue;
        return { error: `secret "${name}" not found` };
      }
      for (const [k, v] of Object.entries(secret.data)) env.set(prefix + k, v);
    }
  }
  const lookup = (name: string) => env.get(name);
  for (const variable of container.env ?? []) {
    let value = '';
    const from = variable.valueFrom;
    if (variable.value !== undefined && variable.value !== '') {
      value = expandEnvReferences(variable.value, lookup);
    } else if (from?.fieldRef) {
      const result = podFieldValue(pod, from.fieldRef.fieldPath, context);
      if ('error' in result) return result;
      value = result.value;
    } else if (from?.resourceFieldRef) {
      const target = from.resourceFieldRef.containerName
        ? [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find(
            (c) => c.name === from.resourceFieldRef?.containerName,
          )
        : container;
      const result = resourceFieldValue(from.resourceFieldRef, target, context.allocatable);
      if ('error' in result) return result;
      value = result.value;
    } else if (from?.configMapKeyRef) {
      const { name, key, optional } = from.configMapKeyRef;
      const cm = sources.configMaps.get(name);
      if (!cm) {
        if (optional) continue;
        return { error: `configmap "${name}" not found` };
      }
      if (!(key in cm.data)) {
        if (optional) continue;
        return { error: `couldn't find key ${key} in ConfigMap ${ns}/${name}` };
      }
      value = cm.data[key] ?? '';
    } else if (from?.secretKeyRef) {
      const { name, key, optional } = from.secretKeyRef;
      const secret = sources.secrets.get(name);
      if (!secret) {
        if (optional) continue;
        return { error: `secret "${name}" not found` };
      }
      if (!(key in secret.data)) {
        if (optional) continue;
        return { error: `couldn't find key ${key} in Secret ${ns}/${name}` };
      }
      value = secret.data[key] ?? '';
    }
    env.set(variable.name, value);
  }
  return { env: [...env].map(([key, value]) => ({ key, value })) };
}

/** The container's command and args with `$(VAR)` expanded against its environment. */
export function expandContainerCommand(
  container: Container,
  env: readonly { key: string; value: string }[],
): { command: string[]; args: string[] } {
  const map = new Map(env.map((e) => [e.key, e.value]));
  const lookup = (name: string) => map.get(name);
  return {
    command: (container.command ?? []).map((c) => expandEnvReferences(c, lookup)),
    args: (container.args ?? []).map((a) => expandEnvReferences(a, lookup)),
  };
}
