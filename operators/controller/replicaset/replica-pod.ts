// replicaPod: the pod a replicaset (or replicationcontroller) creates from its template, named `<owner>-` plus a random suffix, with its controllerRef.
import type { Pod } from '../../api/core-v1.ts';
import { newControllerRef } from '../controller-ref.ts';
import type { ReplicaSet } from './replica-set-types.ts';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Upstream's getPodsPrefix: `<name>-` when that (plus a suffix) is a valid name, else the name alone. */
export function podNamePrefix(ownerName: string): string {
  const prefix = `${ownerName}-`;
  // a generated name adds 5 characters; the whole stays within 253
  return prefix.length + 5 <= 253 && DNS1123_SUBDOMAIN.test(`${prefix}a`) ? prefix : ownerName;
}

/**
 * A pod from `rs`'s template (upstream's GetPodFromTemplate): the template's labels, annotations, finalizers
 * and spec, generateName {@link podNamePrefix}, the owner's namespace, and a controller reference
 * (controller and blockOwnerDeletion true).
 *
 * @param rs the owner
 * @param gvk the owner's apiVersion and kind (apps/v1 ReplicaSet or v1 ReplicationController)
 */
export function replicaPod(rs: ReplicaSet, gvk: { apiVersion: string; kind: string }): Pod {
  const t = rs.spec.template ?? {};
  const meta = t.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: podNamePrefix(rs.metadata.name ?? ''),
      namespace: rs.metadata.namespace ?? 'default',
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [newControllerRef(rs, gvk)],
    },
    spec: structuredClone(t.spec ?? { containers: [] }),
  };
}
