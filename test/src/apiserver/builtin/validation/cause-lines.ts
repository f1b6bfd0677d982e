// Test helper: validation causes as the one-line `field: message` form kubectl prints.
import type { StatusCause } from '../../../../../src/apiserver/api-status.ts';

/** Each cause as `field: message`, in order. */
export function causeLines(causes: readonly StatusCause[]): string[] {
  return causes.map((c) => `${c.field}: ${c.message}`);
}
