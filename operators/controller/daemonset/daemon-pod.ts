// daemonPod: the pod a daemon set creates for one node — its template with the revision labels, the automatic tolerations, a node affinity on metadata.name and a controller reference.
import type { Pod } from '../../api/core-v1.ts';
import { newControllerRef } from '../controller-ref.ts';
import { podNamePrefix } from '../replicaset/replica-pod.ts';
import { replaceDaemonPodNodeNameAffinity } from './daemon-pod-node-affinity.ts';
import { daemonPodTolerations } from './daemon-pod-tolerations.ts';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  DAEMON_SET_GVK,
  type DaemonSet,
  POD_TEMPLATE_GENERATION_LABEL,
} from './daemon-set-types.ts';

/**
 * The pod for `nodeName` (upstream's CreatePodTemplate then ReplaceDaemonSetPodNodeNameNodeAffinity): the
 * template's labels plus `pod-template-generation` and `controller-revision-hash`, generateName
 * `<ds>-`, the automatic daemon tolerations, and a required node affinity naming the node so that the
 * scheduler binds it there (spec.nodeName stays empty).
 *
 * @param ds the daemon set
 * @param nodeName the node the pod is for
 * @param hash the current revision's hash
 */
export function daemonPod(ds: DaemonSet, nodeName: string, hash: string): Pod {
  const t = ds.spec.template ?? {};
  const meta = t.metadata ?? {};
  const spec = structuredClone(t.spec ?? { containers: [] });
  spec.tolerations = daemonPodTolerations(spec);
  spec.affinity = replaceDaemonPodNodeNameAffinity(spec.affinity, nodeName);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: podNamePrefix(ds.metadata.name ?? ''),
      namespace: ds.metadata.namespace ?? 'default',
      labels: {
        ...(meta.labels ?? {}),
        ...(ds.metadata.generation !== undefined
          ? { [POD_TEMPLATE_GENERATION_LABEL]: String(ds.metadata.generation) }
          : {}),
        ...(hash ? { [CONTROLLER_REVISION_HASH_LABEL]: hash } : {}),
      },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [newControllerRef(ds, DAEMON_SET_GVK)],
    },
    spec,
  };
}
