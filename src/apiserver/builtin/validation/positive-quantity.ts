// positiveQuantity: upstream's ValidatePositiveQuantityValue, a quantity that parses and is above zero (a claim's storage request, a volume's capacity).
import { isQuantity, quantityMilliValue } from '../../../../operators/api/quantity.ts';
import type { StatusCause } from '../../api-status.ts';
import { canonicalQuantity } from './canonical-quantity.ts';
import { fieldError } from './field-error.ts';

/** The decoder's words for a quantity that does not parse. */
export const QUANTITY_SYNTAX =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The quantity in milli units when it parses. */
export function quantityMilli(value: unknown): number | undefined {
  return (typeof value === 'string' || typeof value === 'number') && isQuantity(value)
    ? quantityMilliValue(value)
    : undefined;
}

/**
 * A quantity that parses (else the decoder's words) and is greater than zero, printed canonically.
 * @param value the quantity as sent
 * @param field its field path, e.g. `spec.resources[storage]`
 * @returns the causes, empty when valid
 */
export function positiveQuantity(value: unknown, field: string): StatusCause[] {
  const milli = quantityMilli(value);
  if (milli === undefined) return [fieldError.invalid(field, value, QUANTITY_SYNTAX)];
  return milli > 0
    ? []
    : [fieldError.invalid(field, canonicalQuantity(value as string | number), 'must be greater than zero')];
}
