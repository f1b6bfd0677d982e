// statefulPod: a stateful set's pod for one ordinal — its stable name, labels, hostname, subdomain and claims — and the checks that a pod still has them.
import type { Pod, Volume } from '../../api/core-v1.ts';
import { newControllerRef } from '../controller-ref.ts';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  type PersistentVolumeClaimObject,
  POD_INDEX_LABEL,
  STATEFUL_SET_GVK,
  STATEFUL_SET_POD_NAME_LABEL,
  type StatefulSet,
} from './stateful-set-types.ts';

/** `<set>-<ordinal>`. */
export const statefulPodName = (set: StatefulSet, ordinal: number): string =>
  `${set.metadata.name ?? ''}-${ordinal}`;

/** `<template>-<set>-<ordinal>`: the claim a pod of that ordinal mounts for that template. */
export const statefulClaimName = (set: StatefulSet, template: string, ordinal: number): string =>
  `${template}-${set.metadata.name ?? ''}-${ordinal}`;

/** The parent's name and the ordinal of a pod named `<parent>-<n>`; ordinal -1 when the name has no such form. */
export function parentAndOrdinal(pod: Pod): { parent: string; ordinal: number } {
  const m = /^(.*)-([0-9]+)$/.exec(pod.metadata.name ?? '');
  if (!m) return { parent: '', ordinal: -1 };
  const ordinal = Number(m[2]);
  return Number.isSafeInteger(ordinal) && ordinal <= 2_147_483_647
    ? { parent: m[1] ?? '', ordinal }
    : { parent: '', ordinal: -1 };
}

/** Whether the pod's name says it belongs to `set` (upstream's isMemberOf). */
export const isMemberOf = (set: StatefulSet, pod: Pod): boolean =>
  parentAndOrdinal(pod).parent === set.metadata.name;

/** The revision a pod was made from (its controller-revision-hash label), '' when unlabelled. */
export const podRevision = (pod: Pod): string => pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';

/** The claims `set` wants for the pod of `ordinal`: each template named for it, in the set's namespace, with the selector's labels. */
export function statefulClaims(set: StatefulSet, ordinal: number): PersistentVolumeClaimObject[] {
  const matchLabels = set.spec.selector?.matchLabels ?? {};
  return (set.spec.volumeClaimTemplates ?? []).map((t) => {
    const c = structuredClone(t);
    c.apiVersion = 'v1';
    c.kind = 'PersistentVolumeClaim';
    const labels = { ...(c.metadata.labels ?? {}), ...matchLabels };
    c.metadata = {
      ...c.metadata,
      name: statefulClaimName(set, t.metadata.name ?? '', ordinal),
      namespace: set.metadata.namespace ?? 'default',
      ...(Object.keys(labels).length ? { labels } : {}),
    };
    delete c.status;
    return c;
  });
}

/** Whether the pod has its stable name, namespace and identity labels (upstream's identityMatches). */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    parent === set.metadata.name &&
    pod.metadata.name === statefulPodName(set, ordinal) &&
    (pod.metadata.namespace ?? '') === (set.metadata.namespace ?? '') &&
    pod.metadata.labels?.[STATEFUL_SET_POD_NAME_LABEL] === pod.metadata.name &&
    pod.metadata.labels?.[POD_INDEX_LABEL] === String(ordinal)
  );
}

/** Whether every claim template is mounted from the pod's own claim (upstream's storageMatches). */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const { ordinal } = parentAndOrdinal(pod);
  if (ordinal < 0) return false;
  const byName = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  return (set.spec.volumeClaimTemplates ?? []).every((t) => {
    const v = byName.get(t.metadata.name ?? '');
    return v?.persistentVolumeClaim?.claimName === statefulClaimName(set, t.metadata.name ?? '', ordinal);
  });
}

/** The pod with its identity labels (and name and namespace) set again, as upstream's updateIdentity. */
export function withIdentity(set: StatefulSet, pod: Pod): Pod {
  const { ordinal } = parentAndOrdinal(pod);
  const name = statefulPodName(set, ordinal);
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      name,
      namespace: set.metadata.namespace ?? 'default',
      labels: {
        ...(pod.metadata.labels ?? {}),
        [STATEFUL_SET_POD_NAME_LABEL]: name,
        [POD_INDEX_LABEL]: String(ordinal),
      },
    },
  };
}

/** The pod's volumes with each claim template's volume pointing at the pod's own claim (upstream's updateStorage). */
export function withStorage(set: StatefulSet, pod: Pod): Pod {
  const { ordinal } = parentAndOrdinal(pod);
  const templates = set.spec.volumeClaimTemplates ?? [];
  if (templates.length === 0) return pod;
  const claimVolumes: Volume[] = templates.map((t) => ({
    name: t.metadata.name ?? '',
    persistentVolumeClaim: { claimName: statefulClaimName(set, t.metadata.name ?? '', ordinal) },
  }));
  const names = new Set(claimVolumes.map((v) => v.name));
  const others = (pod.spec?.volumes ?? []).filter((v) => !names.has(v.name));
  return {
    ...pod,
    spec: { ...pod.spec, containers: pod.spec?.containers ?? [], volumes: [...claimVolumes, ...others] },
  };
}

/**
 * The pod of `ordinal` made from `set`'s template (upstream's newStatefulSetPod plus setPodRevision): named
 * `<set>-<ordinal>`, the template's labels and annotations with the pod-name, pod-index and
 * controller-revision-hash labels, hostname its name, subdomain spec.serviceName, one volume per claim
 * template mounting `<template>-<set>-<ordinal>`, and the set as controller.
 *
 * @param set the set whose template to use (the current or the update revision's)
 * @param ordinal the pod's ordinal
 * @param revision the ControllerRevision's name the template came from
 */
export function newStatefulPod(set: StatefulSet, ordinal: number, revision: string): Pod {
  const t = set.spec.template ?? {};
  const meta = t.metadata ?? {};
  const name = statefulPodName(set, ordinal);
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace ?? 'default',
      labels: { ...(meta.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: revision },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [newControllerRef(set, STATEFUL_SET_GVK)],
    },
    spec: {
      ...structuredClone(t.spec ?? { containers: [] }),
      hostname: name,
      ...(set.spec.serviceName ? { subdomain: set.spec.serviceName } : {}),
    },
  };
  return withStorage(set, withIdentity(set, pod));
}
