// podVolumes: materialises a pod's emptyDir, configMap, secret, downwardAPI, projected and hostPath volumes under its pod directory.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Container, KeyToPath, Pod, Volume } from '../../../operators/api/core-v1.ts';
import { type FieldContext, podFieldValue } from '../../../operators/kubelet/field-path.ts';
import type { KeyValueSource } from '../../../operators/kubelet/make-environment-variables.ts';
import { resourceFieldValue } from '../../../operators/kubelet/resource-field-value.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { Mount } from '../../../streams/runtimes/runtime.ts';
import type { KubeObjectReader } from '../kube-objects.ts';

/** Settings of {@link podVolumes}. */
export interface PodVolumesConfig {
  /** The kubelet's root directory (`--root-dir`); volumes go to `<rootDir>/pods/<uid>/volumes/`. */
  rootDir: string;
  reader: KubeObjectReader;
  logger?: Logger;
}

/** Mounts and unmounts the volumes of pods. */
export interface PodVolumes {
  /**
   * Writes every volume of the pod (again: contents follow their ConfigMaps and Secrets) and returns
   * the host path of each by volume name, or the error that keeps the pod from starting.
   */
  mount(pod: Pod, context: FieldContext): Promise<{ paths: Map<string, string> } | { error: string }>;
  /** Removes the pod's directory `<rootDir>/pods/<uid>`. */
  remove(uid: string): Promise<void>;
  /** The pod's directory. */
  podDir(uid: string): string;
}

const PLUGIN_DIRS: Record<string, string> = {
  emptyDir: 'kubernetes.io~empty-dir',
  configMap: 'kubernetes.io~configmap',
  secret: 'kubernetes.io~secret',
  downwardAPI: 'kubernetes.io~downward-api',
  projected: 'kubernetes.io~projected',
};

function pluginOf(volume: Volume): string | undefined {
  return Object.keys(PLUGIN_DIRS).find((k) => volume[k] !== undefined);
}

function filesFromKeys(
  source: KeyValueSource | undefined,
  items: KeyToPath[] | undefined,
  what: string,
  optional: boolean | undefined,
): { files: Map<string, { data: string; mode?: number }> } | { error: string } {
  const files = new Map<string, { data: string; mode?: number }>();
  if (!source) {
    if (optional) return { files };
    return { error: `${what} not found` };
  }
  if (!items || items.length === 0) {
    for (const [k, v] of Object.entries(source.data)) files.set(k, { data: v });
    return { files };
  }
  for (const item of items) {
    const value = source.data[item.key];
    if (value === undefined) {
      if (optional) continue;
      return { error: `configured key ${item.key} not found in ${what}` };
    }
    files.set(item.path, { data: value, mode: item.mode });
  }
  return { files };
}

/**
 * The kubelet's volume manager, reduced to what a host-process runtime needs: each volume is a
 * directory under `<rootDir>/pods/<uid>/volumes/<plugin>/<name>`, written before the containers start
 * and handed to the runtime as mounts. `hostPath` volumes are used as they are; PVCs are refused.
 * The projected service-account token cannot be minted here (no TokenRequest): the `token` file is
 * left out, `ca.crt` and `namespace` are written, and this is logged once per pod.
 *
 * @param config the root directory and the API reader
 * @returns the volume manager
 */
export function podVolumes(config: PodVolumesConfig): PodVolumes {
  const logger = config.logger ?? silentLogger;
  const warnedToken = new Set<string>();
  const podDir = (uid: string) => join(config.rootDir, 'pods', uid);

  const writeFiles = async (
    dir: string,
    files: Map<string, { data: string; mode?: number }>,
    defaultMode?: number,
  ) => {
    await mkdir(dir, { recursive: true });
    for (const [path, file] of files) {
      const target = join(dir, path);
      if (!target.startsWith(dir)) continue;
      await mkdir(join(target, '..'), { recursive: true });
      await writeFile(target, file.data, { mode: file.mode ?? defaultMode ?? 0o644 });
    }
  };

  const downwardFiles = (
    pod: Pod,
    items: NonNullable<Volume['downwardAPI']>['items'],
    context: FieldContext,
  ): { files: Map<string, { data: string; mode?: number }> } | { error: string } => {
    const files = new Map<string, { data: string; mode?: number }>();
    for (const item of items ?? []) {
      if (item.fieldRef) {
        const r = podFieldValue(pod, item.fieldRef.fieldPath, context);
        if ('error' in r) return r;
        files.set(item.path, { data: r.value });
      } else if (item.resourceFieldRef) {
        const name = item.resourceFieldRef.containerName;
        const container = pod.spec.containers.find((c) => c.name === name);
        const r = resourceFieldValue(item.resourceFieldRef, container);
        if ('error' in r) return r;
        files.set(item.path, { data: r.value });
      }
    }
    return { files };
  };

  return {
    podDir,
    async remove(uid) {
      warnedToken.delete(uid);
      await rm(podDir(uid), { recursive: true, force: true });
    },
    async mount(pod, context) {
      const uid = pod.metadata.uid ?? '';
      const ns = pod.metadata.namespace ?? 'default';
      const paths = new Map<string, string>();
      for (const volume of pod.spec.volumes ?? []) {
        if (volume.hostPath) {
          paths.set(volume.name, volume.hostPath.path);
          continue;
        }
        if (volume.persistentVolumeClaim) {
          return {
            error: `volume ${volume.name}: persistentVolumeClaim volumes are not supported by this kubelet`,
          };
        }
        const plugin = pluginOf(volume);
        if (!plugin) return { error: `volume ${volume.name}: unsupported volume type` };
        const dir = join(podDir(uid), 'volumes', PLUGIN_DIRS[plugin] as string, volume.name);
        paths.set(volume.name, dir);
        if (plugin === 'emptyDir') {
          await mkdir(dir, { recursive: true });
          continue;
        }
        if (plugin === 'configMap' && volume.configMap) {
          const { name, items, optional, defaultMode } = volume.configMap;
          const r = filesFromKeys(
            await config.reader.configMap(ns, name),
            items,
            `configmap "${name}"`,
            optional,
          );
          if ('error' in r)
            return { error: `MountVolume.SetUp failed for volume "${volume.name}" : ${r.error}` };
          await writeFiles(dir, r.files, defaultMode);
          continue;
        }
        if (plugin === 'secret' && volume.secret) {
          const { secretName, items, optional, defaultMode } = volume.secret;
          const r = filesFromKeys(
            await config.reader.secret(ns, secretName),
            items,
            `secret "${secretName}"`,
            optional,
          );
          if ('error' in r)
            return { error: `MountVolume.SetUp failed for volume "${volume.name}" : ${r.error}` };
          await writeFiles(dir, r.files, defaultMode);
          continue;
        }
        if (plugin === 'downwardAPI' && volume.downwardAPI) {
          const r = downwardFiles(pod, volume.downwardAPI.items, context);
          if ('error' in r)
            return { error: `MountVolume.SetUp failed for volume "${volume.name}" : ${r.error}` };
          await writeFiles(dir, r.files, volume.downwardAPI.defaultMode);
          continue;
        }
        if (plugin === 'projected' && volume.projected) {
          const files = new Map<string, { data: string; mode?: number }>();
          for (const source of volume.projected.sources ?? []) {
            const s = source as {
              configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
              secret?: { name: string; items?: KeyToPath[]; optional?: boolean };
              downwardAPI?: { items?: NonNullable<Volume['downwardAPI']>['items'] };
              serviceAccountToken?: { path: string };
            };
            let r: { files: Map<string, { data: string; mode?: number }> } | { error: string } = {
              files: new Map(),
            };
            if (s.configMap)
              r = filesFromKeys(
                await config.reader.configMap(ns, s.configMap.name),
                s.configMap.items,
                `configmap "${s.configMap.name}"`,
                s.configMap.optional,
              );
            else if (s.secret)
              r = filesFromKeys(
                await config.reader.secret(ns, s.secret.name),
                s.secret.items,
                `secret "${s.secret.name}"`,
                s.secret.optional,
              );
            else if (s.downwardAPI) r = downwardFiles(pod, s.downwardAPI.items, context);
            else if (s.serviceAccountToken && !warnedToken.has(uid)) {
              warnedToken.add(uid);
              logger.warn(
                { pod: `${ns}/${pod.metadata.name}`, volume: volume.name, path: s.serviceAccountToken.path },
                'cannot mint a service account token (no TokenRequest here); the token file is left out of the projected volume',
              );
            }
            if ('error' in r) {
              // kube-root-ca.crt may not exist on a bare API server: the projected volume goes on without it
              if (s.configMap?.name === 'kube-root-ca.crt') continue;
              return { error: `MountVolume.SetUp failed for volume "${volume.name}" : ${r.error}` };
            }
            for (const [k, v] of r.files) files.set(k, v);
          }
          await writeFiles(dir, files, volume.projected.defaultMode);
        }
      }
      return { paths };
    },
  };
}

/**
 * The runtime mounts of a container: each volumeMount's host directory (with its subPath) at its
 * mountPath. Mounts of unknown volumes are left out (the pod would not have been admitted upstream).
 */
export function containerMounts(container: Container, paths: ReadonlyMap<string, string>): Mount[] {
  const mounts: Mount[] = [];
  for (const m of container.volumeMounts ?? []) {
    const host = paths.get(m.name);
    if (!host) continue;
    mounts.push({
      hostPath: m.subPath ? join(host, m.subPath) : host,
      containerPath: m.mountPath,
      readonly: m.readOnly ?? false,
    });
  }
  return mounts;
}
