// newJobPod: the pod a Job creates from its template — tracking finalizer, controller reference, and for Indexed jobs the index everywhere.
import type { Container, Pod } from '../../api/core-v1.ts';
import { newControllerRef } from '../controller-ref.ts';
import {
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_COMPLETION_INDEX_ENV,
  JOB_CONTROLLER_UID_LABEL,
  JOB_NAME_LABEL,
  JOB_TRACKING_FINALIZER,
  type Job,
} from './job-types.ts';

/** The Job's group/version/kind, as its pods' controller reference names it. */
export const JOB_GVK = { apiVersion: 'batch/v1', kind: 'Job' } as const;

/** Longest generateName prefix that leaves room for the server's 5-character suffix in a 63-character name. */
const MAX_GENERATE_NAME_PREFIX = 58;

/** The container with env JOB_COMPLETION_INDEX from the index label (PodIndexLabel) or annotation; one already there is kept. */
function withIndexEnv(c: Container, fromLabel: boolean): Container {
  if (c.env?.some((e) => e.name === JOB_COMPLETION_INDEX_ENV)) return c;
  const field = fromLabel ? 'labels' : 'annotations';
  const env = [...(c.env ?? [])];
  env.push({
    name: JOB_COMPLETION_INDEX_ENV,
    valueFrom: { fieldRef: { fieldPath: `metadata.${field}['${JOB_COMPLETION_INDEX_ANNOTATION}']` } },
  } as NonNullable<Container['env']>[number]);
  return { ...c, env };
}

/**
 * A new pod for `job` (not yet created): the template's labels and annotations, plus the job's
 * `batch.kubernetes.io/controller-uid` and `job-name` labels (which the API server normally puts on the
 * template), the `batch.kubernetes.io/job-tracking` finalizer and a controller reference. For an Indexed
 * job: the index annotation (and label with PodIndexLabel), env `JOB_COMPLETION_INDEX` on every container,
 * hostname `<job>-<index>` and generateName `<job>-<index>-`; otherwise generateName `<job>-`.
 *
 * @param job the job
 * @param index the completion index (Indexed jobs)
 * @param podIndexLabel whether the index is also a label (PodIndexLabel, on by default)
 * @param extraAnnotations more annotations (backoffLimitPerIndex's failure counts)
 */
export function newJobPod(
  job: Job,
  index?: number,
  podIndexLabel = true,
  extraAnnotations: Record<string, string> = {},
): Pod {
  const name = job.metadata.name ?? 'job';
  const template = structuredClone(job.spec.template);
  const labels: Record<string, string> = { ...(template.metadata?.labels ?? {}) };
  labels[JOB_CONTROLLER_UID_LABEL] ??= job.metadata.uid ?? '';
  labels[JOB_NAME_LABEL] ??= name;
  const annotations: Record<string, string> = {
    ...(template.metadata?.annotations ?? {}),
    ...extraAnnotations,
  };
  const spec = template.spec;
  let prefix = `${name}-`;
  if (index !== undefined) {
    annotations[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
    if (podIndexLabel) labels[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
    spec.hostname ??= `${name}-${index}`;
    spec.containers = spec.containers.map((c) => withIndexEnv(c, podIndexLabel));
    if (spec.initContainers)
      spec.initContainers = spec.initContainers.map((c) => withIndexEnv(c, podIndexLabel));
    const suffix = `-${index}-`;
    prefix = `${name.slice(0, Math.max(0, MAX_GENERATE_NAME_PREFIX - suffix.length))}${suffix}`;
  } else if (prefix.length > MAX_GENERATE_NAME_PREFIX) {
    prefix = `${name.slice(0, MAX_GENERATE_NAME_PREFIX - 1)}-`;
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: prefix,
      namespace: job.metadata.namespace,
      labels,
      annotations,
      finalizers: [...(template.metadata?.finalizers ?? []), JOB_TRACKING_FINALIZER],
      ownerReferences: [newControllerRef(job, JOB_GVK)],
    },
    spec,
  };
}
