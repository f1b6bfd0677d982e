// intOrPercent: upstream's checks on an IntOrString count-or-percent field (maxSurge, maxUnavailable), printed as Go prints it.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { shape } from './json-shape.ts';

/** `intstr.IntOrString{...}` as Go's %#v prints it, which upstream's messages show for these fields. */
function printed(value: unknown): string {
  return typeof value === 'string'
    ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(value)}}`
    : `intstr.IntOrString{Type:0, IntVal:${Number(value ?? 0)}, StrVal:""}`;
}

/** Checks on a count-or-percent value. */
export const intOrPercent = {
  printed,
  /** getIntOrPercentValue: the percent's number, or the integer (a string that is neither reads as 0). */
  value(value: unknown): number {
    if (typeof value === 'number') return value;
    const text = shape.text(value ?? '');
    const percent = /^(\d+)%$/.exec(text);
    if (percent) return Number(percent[1]);
    return /^[+-]?\d+$/.test(text) ? Number(text) : 0;
  },
  /** ValidatePositiveIntOrPercent: a non-negative integer or a percent string. */
  positive(value: unknown, field: string): StatusCause[] {
    if (typeof value === 'string')
      return formatErrors.percent(value).map((m) => fieldError.invalidPrinted(field, printed(value), m));
    if (typeof value === 'number' && value < 0)
      return [fieldError.invalid(field, value, 'must be greater than or equal to 0')];
    return [];
  },
  /** IsNotMoreThan100Percent */
  notOver100(value: unknown, field: string): StatusCause[] {
    const percent = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
    return percent && Number(percent[1]) > 100
      ? [fieldError.invalidPrinted(field, printed(value), 'must not be greater than 100%')]
      : [];
  },
} as const;
