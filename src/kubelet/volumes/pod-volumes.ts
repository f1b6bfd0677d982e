// podVolumes: materialises a pod's emptyDir, configMap, secret, downwardAPI, projected and hostPath volumes under its pod directory.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Container, KeyToPath, Pod, Volume } from '../../../operators/api/core-v1.ts';
import { type FieldContext, podFieldValue } from '../../../operators/kubelet/field-path.ts';
import type { KeyValueSource } from '../../../operators/kubelet/make-environment-variables.ts';
import { resourceFieldValue } from '../../../operators/kubelet/resource-field-value.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { Mount } from '../../../streams/runtimes/runtime.ts';
import type { KubeObjectReader } from '../kube-objects.ts';
import type { TokenManager } from '../token/token-manager.ts';
import { atomicWrite, type FileProjection } from './atomic-writer.ts';

/** Settings of {@link podVolumes}. */
export interface PodVolumesConfig {
  /** The kubelet's root directory (`--root-dir`); volumes go to `<rootDir>/pods/<uid>/volumes/`. */
  rootDir: string;
  reader: KubeObjectReader;
  /**
   * Mints the projected `serviceAccountToken` files (TokenRequest through the token manager). Without
   * it the `token` file is left out, logged once per pod.
   */
  tokens?: TokenManager;
  /**
   * Whether a missing `kube-root-ca.crt` fails the projected volume, as upstream (the
   * root-ca-cert-publisher controller must then run). Default false: the volume goes on without `ca.crt`.
   */
  requireRootCA?: boolean;
  /** Wall clock in ms, for the names of the timestamped data directories; default `Date.now`. */
  now?: () => number;
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

/** The kubelet's words for a volume that could not be set up. */
function setUpFailed(volume: Volume, reason: string): { error: string } {
  return { error: `MountVolume.SetUp failed for volume "${volume.name}" : ${reason}` };
}

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
 * configMap, secret, downwardAPI and projected volumes are written with {@link atomicWrite} (the
 * `..data` symlink swap), and again on every mount, so a refreshed token or a changed ConfigMap
 * replaces the old files at once. A projected `serviceAccountToken` source asks the token manager
 * for a token bound to the pod (audience, expirationSeconds, boundObjectRef); `remove` drops the
 * pod's tokens.
 *
 * @param config the root directory and the API reader
 * @returns the volume manager
 */
export function podVolumes(config: PodVolumesConfig): PodVolumes {
  const logger = config.logger ?? silentLogger;
  const warnedToken = new Set<string>();
  const podDir = (uid: string) => join(config.rootDir, 'pods', uid);

  const now = config.now ?? Date.now;
  const writeFiles = async (
    dir: string,
    files: Map<string, { data: string; mode?: number }>,
    defaultMode?: number,
  ) => {
    const payload = new Map<string, FileProjection>();
    for (const [path, file] of files)
      payload.set(path, { data: file.data, mode: file.mode ?? defaultMode ?? 0o644 });
    try {
      await atomicWrite(dir, payload, now);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };

  const serviceAccountToken = async (
    pod: Pod,
    source: { path: string; audience?: string; expirationSeconds?: number },
  ): Promise<{ files: Map<string, { data: string; mode?: number }> } | { error: string }> => {
    const tokens = config.tokens;
    const ns = pod.metadata.namespace ?? 'default';
    const uid = pod.metadata.uid ?? '';
    if (!tokens) {
      if (!warnedToken.has(uid)) {
        warnedToken.add(uid);
        logger.warn(
          { pod: `${ns}/${pod.metadata.name}`, path: source.path },
          'no token manager: the token file is left out of the projected volume',
        );
      }
      return { files: new Map() };
    }
    try {
      const tr = await tokens.getServiceAccountToken(ns, pod.spec.serviceAccountName ?? 'default', {
        spec: {
          ...(source.audience ? { audiences: [source.audience] } : {}),
          expirationSeconds: source.expirationSeconds ?? 3600,
          boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid },
        },
      });
      return { files: new Map([[source.path, { data: tr.status?.token ?? '' }]]) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
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
      config.tokens?.deleteServiceAccountToken(uid);
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
          if ('error' in r) return setUpFailed(volume, r.error);
          const failed = await writeFiles(dir, r.files, defaultMode);
          if (failed) return setUpFailed(volume, failed);
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
          if ('error' in r) return setUpFailed(volume, r.error);
          const failed = await writeFiles(dir, r.files, defaultMode);
          if (failed) return setUpFailed(volume, failed);
          continue;
        }
        if (plugin === 'downwardAPI' && volume.downwardAPI) {
          const r = downwardFiles(pod, volume.downwardAPI.items, context);
          if ('error' in r) return setUpFailed(volume, r.error);
          const failed = await writeFiles(dir, r.files, volume.downwardAPI.defaultMode);
          if (failed) return setUpFailed(volume, failed);
          continue;
        }
        if (plugin === 'projected' && volume.projected) {
          const files = new Map<string, { data: string; mode?: number }>();
          for (const source of volume.projected.sources ?? []) {
            const s = source as {
              configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
              secret?: { name: string; items?: KeyToPath[]; optional?: boolean };
              downwardAPI?: { items?: NonNullable<Volume['downwardAPI']>['items'] };
              serviceAccountToken?: { path: string; audience?: string; expirationSeconds?: number };
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
            else if (s.serviceAccountToken) r = await serviceAccountToken(pod, s.serviceAccountToken);
            if ('error' in r) {
              // without the root-ca-cert-publisher the ConfigMap never comes: go on without ca.crt unless told
              if (s.configMap?.name === 'kube-root-ca.crt' && !config.requireRootCA) continue;
              return setUpFailed(volume, r.error);
            }
            for (const [k, v] of r.files) files.set(k, v);
          }
          const failed = await writeFiles(dir, files, volume.projected.defaultMode);
          if (failed) return setUpFailed(volume, failed);
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
