// fieldError: the causes of an Invalid answer as apimachinery's field.Error types word them (Required, Invalid, NotSupported, ...).
import type { StatusCause } from '../../api-status.ts';

/** A value as an upstream message prints it: strings quoted, numbers and booleans bare, null as null, the rest as JSON. */
export function printValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const cause = (type: string, field: string, message: string): StatusCause => ({ type, field, message });
const withDetail = (head: string, detail?: string) => (detail ? `${head}: ${detail}` : head);

/**
 * Constructors for one field error each, with upstream's type, field path and message shape
 * (`spec.replicas: Invalid value: -1: must be greater than or equal to 0`).
 */
export const fieldError = {
  /** `Required value[: detail]` */
  required: (field: string, detail?: string): StatusCause =>
    cause('FieldValueRequired', field, withDetail('Required value', detail)),
  /** `Invalid value: <value>: detail` */
  invalid: (field: string, value: unknown, detail: string): StatusCause =>
    cause('FieldValueInvalid', field, `Invalid value: ${printValue(value)}: ${detail}`),
  /** `Invalid value: <printed>: detail`, the value already printed as upstream prints it (e.g. a Go struct literal). */
  invalidPrinted: (field: string, printed: string, detail: string): StatusCause =>
    cause('FieldValueInvalid', field, `Invalid value: ${printed}: ${detail}`),
  /** `Invalid value: detail`, for errors that name no value (upstream's OmitValueType). */
  invalidOmitValue: (field: string, detail: string): StatusCause =>
    cause('FieldValueInvalid', field, `Invalid value: ${detail}`),
  /** `Unsupported value: <value>: supported values: "a", "b"` */
  notSupported: (field: string, value: unknown, supported: readonly string[]): StatusCause =>
    cause(
      'FieldValueNotSupported',
      field,
      `Unsupported value: ${printValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
    ),
  /** `Duplicate value: <value>[: detail]` */
  duplicate: (field: string, value: unknown, detail?: string): StatusCause =>
    cause('FieldValueDuplicate', field, withDetail(`Duplicate value: ${printValue(value)}`, detail)),
  /** `Not found: <value>` */
  notFound: (field: string, value: unknown): StatusCause =>
    cause('FieldValueNotFound', field, `Not found: ${printValue(value)}`),
  /** `Forbidden: detail` */
  forbidden: (field: string, detail: string): StatusCause =>
    cause('FieldValueForbidden', field, `Forbidden: ${detail}`),
  /** `Too long: may not be more than N bytes` */
  tooLong: (field: string, max: number): StatusCause =>
    cause(
      'FieldValueTooLong',
      field,
      `Too long: may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`,
    ),
  /** `Too many: N: must have at most M items` */
  tooMany: (field: string, actual: number, max: number): StatusCause =>
    cause('FieldValueTooMany', field, `Too many: ${actual}: must have at most ${max} items`),
  /** upstream's ValidateNonnegativeField: nothing when the value is absent or ≥ 0 */
  nonNegative: (field: string, value: unknown): StatusCause[] =>
    typeof value === 'number' && value < 0
      ? [cause('FieldValueInvalid', field, `Invalid value: ${value}: must be greater than or equal to 0`)]
      : [],
} as const;
