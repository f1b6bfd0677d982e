// serviceSelects: whether a Service's selector (a plain label map) selects an object's labels.
import type { Service } from './endpoint-slice-types.ts';

/** True when the Service has a selector and every key of it has the same value in `labels`. */
export function serviceSelects(service: Service, labels: Record<string, string> | undefined): boolean {
  const selector = service.spec.selector;
  if (!selector) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}
