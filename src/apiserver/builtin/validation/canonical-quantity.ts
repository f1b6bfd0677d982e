// canonicalQuantity: a quantity printed as resource.Quantity.String() prints it ("0.2" → "200m", "1536Ki" → "1536Ki", "2048Ki" → "2Mi").
import { quantityMilliValue } from '../../../../operators/api/quantity.ts';

const BINARY = ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'] as const;
const DECIMAL = [
  ['E', 18],
  ['P', 15],
  ['T', 12],
  ['G', 9],
  ['M', 6],
  ['k', 3],
] as const;

function decimal(milli: bigint): string {
  if (milli % 1000n !== 0n) return `${milli}m`;
  const value = milli / 1000n;
  if (value === 0n) return '0';
  for (const [suffix, exponent] of DECIMAL) {
    const unit = 10n ** BigInt(exponent);
    if (value % unit === 0n) return `${value / unit}${suffix}`;
  }
  return `${value}`;
}

/**
 * The canonical text of a quantity: binary suffixes stay binary when the value is a whole multiple of
 * 1024, otherwise the largest decimal suffix that keeps an integer (down to milli units).
 * @param quantity a quantity that parses (see `isQuantity`)
 * @returns its canonical text, e.g. "1.5" → "1500m", "1000" → "1k", "2048Ki" → "2Mi"
 */
export function canonicalQuantity(quantity: string | number): string {
  const milli = BigInt(quantityMilliValue(quantity));
  if (typeof quantity === 'string' && /[KMGTPE]i$/.test(quantity.trim()) && milli % 1000n === 0n) {
    const value = milli / 1000n;
    const sign = value < 0n ? '-' : '';
    const abs = value < 0n ? -value : value;
    if (abs === 0n) return '0';
    for (const [i, suffix] of BINARY.entries()) {
      const unit = 1n << BigInt(10 * (BINARY.length - i));
      if (abs % unit === 0n) return `${sign}${abs / unit}${suffix}`;
    }
    return `${value}`;
  }
  return decimal(milli);
}
