// Resource quantities ("100m", "500Mi", "1.5Gi", "2e3") parsed exactly, rounded up as Quantity.Value/MilliValue do.
import { InvalidInputError } from '../errors.ts';

const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL_EXPONENT: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** An exact quantity: value = numerator / 10^scale (numerator may be negative). */
interface Exact {
  numerator: bigint;
  scale: number;
}

function parseExact(input: string, field: string | undefined): Exact {
  const text = String(input).trim();
  const m = QUANTITY.exec(text);
  if (!m)
    throw new InvalidInputError(
      `quantity ${JSON.stringify(input)}`,
      field,
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  const [, sign, number, suffix = ''] = m;
  const [whole = '', fraction = ''] = number!.split('.');
  let numerator = BigInt(`${whole || '0'}${fraction}`);
  let scale = fraction.length;
  if (suffix in BINARY) numerator *= BINARY[suffix]!;
  else {
    const exponent = suffix in DECIMAL_EXPONENT ? DECIMAL_EXPONENT[suffix]! : Number(suffix.slice(1));
    if (exponent >= 0) {
      const shift = Math.min(exponent, scale);
      scale -= shift;
      numerator *= 10n ** BigInt(exponent - shift);
    } else scale -= exponent;
  }
  return { numerator: sign === '-' ? -numerator : numerator, scale };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/**
 * The quantity's value in whole base units, rounded up (`Quantity.Value()`): "500Mi" → 524288000, "1.5" → 2.
 * @throws InvalidInputError naming the quantity and `field` when it does not parse
 */
export function quantityValue(quantity: string | number, field?: string): number {
  if (typeof quantity === 'number') return Math.ceil(quantity);
  const { numerator, scale } = parseExact(quantity, field);
  return Number(ceilDiv(numerator, 10n ** BigInt(scale)));
}

/**
 * The quantity in thousandths, rounded up (`Quantity.MilliValue()`): "100m" → 100, "1.5" → 1500, "2" → 2000.
 * @throws InvalidInputError naming the quantity and `field` when it does not parse
 */
export function quantityMilliValue(quantity: string | number, field?: string): number {
  if (typeof quantity === 'number') return Math.ceil(quantity * 1000);
  const { numerator, scale } = parseExact(quantity, field);
  const milli = numerator * 1000n;
  return Number(ceilDiv(milli, 10n ** BigInt(scale)));
}

/** True when the text parses as a quantity. */
export function isQuantity(quantity: string | number): boolean {
  if (typeof quantity === 'number') return Number.isFinite(quantity);
  return QUANTITY.test(String(quantity).trim());
}
