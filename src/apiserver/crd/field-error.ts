// Field errors as apimachinery's field package words them, turned into Status causes.
import type { StatusCause } from '../api-status.ts';

/** A value as Go's field errors print it: strings quoted, numbers and booleans bare, the rest as JSON. */
export function shownValue(value: unknown): string {
  if (value === undefined || value === null) return '"null"';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const withDetail = (head: string, detail: string) => (detail ? `${head}: ${detail}` : head);

/** The field error constructors, each giving a Status cause (`field`, `type`, `message`). */
export const fieldError = {
  required: (field: string, detail = ''): StatusCause => ({
    type: 'FieldValueRequired',
    message: withDetail('Required value', detail),
    field,
  }),
  invalid: (field: string, value: unknown, detail: string): StatusCause => ({
    type: 'FieldValueInvalid',
    message: withDetail(`Invalid value: ${shownValue(value)}`, detail),
    field,
  }),
  typeInvalid: (field: string, value: unknown, detail: string): StatusCause => ({
    type: 'FieldValueTypeInvalid',
    message: withDetail(`Invalid value: ${shownValue(value)}`, detail),
    field,
  }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): StatusCause => ({
    type: 'FieldValueNotSupported',
    message: withDetail(
      `Unsupported value: ${shownValue(value)}`,
      supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
    ),
    field,
  }),
  forbidden: (field: string, detail: string): StatusCause => ({
    type: 'FieldValueForbidden',
    message: withDetail('Forbidden', detail),
    field,
  }),
  tooLong: (field: string, max: number): StatusCause => ({
    type: 'FieldValueTooLong',
    message: `Too long: may not be longer than ${max}`,
    field,
  }),
  tooMany: (field: string, actual: number, max: number): StatusCause => ({
    type: 'FieldValueTooMany',
    message: `Too many: ${actual}: must have at most ${max} items`,
    field,
  }),
  duplicate: (field: string, value: unknown): StatusCause => ({
    type: 'FieldValueDuplicate',
    message: `Duplicate value: ${shownValue(value)}`,
    field,
  }),
};

/** `parent.child`, or `child` at the root. */
export function childPath(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}
