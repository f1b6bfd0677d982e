// selectorCauses: a workload's selector is not empty and selects its own template's labels.
import { type LabelSelectorObject, labelSelectorFromObject } from '../../../../operators/label-selector.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { shape } from './json-shape.ts';

/** Whether a metav1.LabelSelector selects the labels; undefined when the selector does not parse. */
function selects(selector: unknown, labels: Record<string, string>): boolean | undefined {
  try {
    return labelSelectorFromObject(selector as LabelSelectorObject).matches(labels);
  } catch {
    return undefined;
  }
}

/**
 * The selector of a workload: not empty (`empty selector is invalid for <kind>`), and matching the
 * template's labels. `matchLabelsChecked` skips the mismatch cause when the generic object validation
 * already reports it (a matchLabels mismatch in an apps workload), so it is reported once.
 * @param spec the workload's spec (its `selector` and `template`)
 * @param path the spec's field path, e.g. `spec`
 * @param kind how upstream names the kind in the empty-selector message, or undefined to allow an empty one
 * @param matchLabelsChecked whether matchLabels mismatches are reported elsewhere
 * @returns the causes, empty when valid
 */
export function selectorCauses(
  spec: Record<string, unknown>,
  path: string,
  kind: string | undefined,
  matchLabelsChecked: boolean,
): StatusCause[] {
  const selector = spec.selector;
  if (selector === undefined || selector === null) return [];
  const s = shape.obj(selector);
  const out: StatusCause[] = [];
  if (kind && Object.keys(shape.obj(s.matchLabels)).length + shape.list(s.matchExpressions).length === 0)
    out.push(fieldError.invalid(`${path}.selector`, selector, `empty selector is invalid for ${kind}`));
  const labels = shape.obj(shape.obj(shape.obj(spec.template).metadata).labels) as Record<string, string>;
  const byLabels = Object.entries(shape.obj(s.matchLabels)).every(([k, v]) => labels[k] === v);
  if (matchLabelsChecked && !byLabels) return out;
  if (spec.template !== undefined && selects(selector, labels) === false)
    out.push(
      fieldError.invalid(
        `${path}.template.metadata.labels`,
        labels,
        '`selector` does not match template `labels`',
      ),
    );
  return out;
}
