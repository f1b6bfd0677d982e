// validatePod: a Pod's spec as upstream's ValidatePodCreate/Update check it (the metadata is the generic object validation's).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { shape } from './json-shape.ts';
import { validatePodSpec } from './pod-spec-validation.ts';

/**
 * @param pod the pod about to be stored
 * @param old the stored pod, on updates: ephemeral containers may only be added later (through their subresource)
 * @returns the causes of its spec, empty when valid
 */
export function validatePod(pod: KubeObject, old?: KubeObject): StatusCause[] {
  const spec = shape.obj((pod as { spec?: unknown }).spec);
  const out = validatePodSpec(spec, 'spec');
  if (!old && !shape.empty(spec.ephemeralContainers))
    out.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  return out;
}
