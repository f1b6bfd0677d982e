// validatePod: a Pod's spec as upstream's ValidatePodCreate/Update check it (the metadata is the generic object validation's).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { validatePodSpec } from './pod-spec-validation.ts';

/**
 * @param pod the pod about to be stored
 * @returns the causes of its spec, empty when valid
 */
export function validatePod(pod: KubeObject): StatusCause[] {
  return validatePodSpec((pod as { spec?: unknown }).spec, 'spec');
}
