// validatePodTemplate: a workload's pod template (labels, spec) with the restart policies its controller allows.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';
import { type PodSpecOptions, validatePodSpec } from './pod-spec-validation.ts';

/** What the owning controller requires of its template. */
export interface PodTemplateOptions extends PodSpecOptions {
  /**
   * The owning kind of a replica-keeping controller, as upstream names it in the activeDeadlineSeconds
   * message (`ReplicaSet`, `DaemonSet`, ...): its template's pods may not have a deadline.
   */
  readonly owner?: string;
  /**
   * Restart policies the controller runs: `['Always']` for replica-keeping controllers,
   * `['OnFailure', 'Never']` for Jobs, undefined for no restriction. A template's restartPolicy defaults
   * to Always.
   */
  readonly restartPolicies?: readonly string[];
}

/**
 * A pod template: its labels and its spec, a restartPolicy the controller supports (a Job's template must
 * name OnFailure or Never), and for replica-keeping controllers no activeDeadlineSeconds.
 * @param template the `template` object
 * @param path its field path, e.g. `spec.template`
 * @param options see PodTemplateOptions
 * @returns the causes, empty when valid
 */
export function validatePodTemplate(
  template: unknown,
  path: string,
  options: PodTemplateOptions,
): StatusCause[] {
  if (template === undefined || template === null) return [];
  const t = shape.obj(template);
  const spec = shape.obj(t.spec);
  const out = [
    ...validateLabels(shape.obj(t.metadata).labels, `${path}.metadata.labels`),
    ...validatePodSpec(spec, `${path}.spec`, options),
  ];
  const policy = shape.defaulted(spec.restartPolicy, 'Always');
  const at = `${path}.spec.restartPolicy`;
  const allowed = options.restartPolicies;
  if (options.owner && spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null)
    out.push(
      fieldError.forbidden(
        `${path}.spec.activeDeadlineSeconds`,
        `activeDeadlineSeconds in ${options.owner} is not Supported`,
      ),
    );
  if (!allowed) return out;
  if (!allowed.includes('Always') && (policy === 'Always' || policy === ''))
    out.push(fieldError.required(at, `valid values: ${allowed.map((p) => JSON.stringify(p)).join(', ')}`));
  else if (!allowed.includes(shape.text(policy))) out.push(fieldError.notSupported(at, policy, allowed));
  return out;
}
