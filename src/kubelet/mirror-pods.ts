// mirrorPodClient: creates and deletes the API server's mirror pods of static pods (tryReconcileMirrorPods).
import { firstValueFrom } from 'rxjs';
import type { Node, Pod } from '../../operators/api/core-v1.ts';
import { ApiError } from '../../operators/errors.ts';
import { isMirrorPodOf } from '../../operators/kubelet/pod-manager.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { PODS } from '../../streams/resources.ts';

const CONFIG_MIRROR = 'kubernetes.io/config.mirror';
const CONFIG_HASH = 'kubernetes.io/config.hash';

/** Creates and deletes mirror pods. */
export interface MirrorPodClient {
  /** Creates the mirror of a static pod; an existing mirror with the same hash counts as success. */
  createMirrorPod(pod: Pod, node: Node | undefined): Promise<void>;
  /** Deletes a mirror pod (grace 0, UID precondition); not found is fine. */
  deleteMirrorPod(mirror: Pod): Promise<void>;
  /**
   * tryReconcileMirrorPods: deletes a mirror that is being deleted or belongs to another static pod,
   * then creates one if there is none (and the node exists and is not being deleted).
   */
  reconcile(pod: Pod, mirror: Pod | undefined, node: Node | undefined): Promise<void>;
}

/** The mirror pod of a static pod: its metadata and spec, the mirror annotation, owned by the Node. */
export function mirrorPodOf(pod: Pod, node: Node | undefined): Pod {
  const hash = pod.metadata.annotations?.[CONFIG_HASH] ?? pod.metadata.uid ?? '';
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, ...metadata } = pod.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...metadata,
      annotations: { ...(pod.metadata.annotations ?? {}), [CONFIG_MIRROR]: hash },
      ...(node?.metadata.uid
        ? {
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'Node',
                name: node.metadata.name ?? '',
                uid: node.metadata.uid,
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: pod.spec,
  };
}

/**
 * A mirror pod client over the API server.
 *
 * @param client the API client
 * @param logger where failures are logged
 * @returns the client
 */
export function mirrorPodClient(client: ApiClient, logger: Logger = silentLogger): MirrorPodClient {
  const self: MirrorPodClient = {
    async createMirrorPod(pod, node) {
      const mirror = mirrorPodOf(pod, node);
      const namespace = pod.metadata.namespace ?? 'default';
      try {
        await firstValueFrom(client.create<Pod>(PODS, mirror, { namespace }));
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 409) throw error;
        const existing = await firstValueFrom(client.get<Pod>(PODS, pod.metadata.name ?? '', { namespace }));
        if (!isMirrorPodOf(existing, pod)) throw error;
      }
    },
    async deleteMirrorPod(mirror) {
      try {
        await firstValueFrom(
          client.delete(PODS, mirror.metadata.name ?? '', {
            namespace: mirror.metadata.namespace,
            gracePeriodSeconds: 0,
            ...(mirror.metadata.uid ? { preconditions: { uid: mirror.metadata.uid } } : {}),
          }),
        );
      } catch (error) {
        if (error instanceof ApiError && (error.statusCode === 404 || error.statusCode === 409)) return;
        throw error;
      }
    },
    async reconcile(pod, mirror, node) {
      let current = mirror;
      if (current && (current.metadata.deletionTimestamp || !isMirrorPodOf(current, pod))) {
        logger.info(
          { pod: `${pod.metadata.namespace}/${pod.metadata.name}` },
          'Deleting mirror pod because it is outdated',
        );
        await self.deleteMirrorPod(current);
        current = undefined;
      }
      if (current) return;
      if (!node || node.metadata.deletionTimestamp) return;
      logger.info(
        { pod: `${pod.metadata.namespace}/${pod.metadata.name}` },
        'Creating a mirror pod for static pod',
      );
      await self.createMirrorPod(pod, node);
    },
  };
  return self;
}
