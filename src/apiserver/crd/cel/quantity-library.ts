// Kubernetes' CEL quantity library: quantity(), isQuantity() and exact arithmetic and comparison on Quantity values.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const NANO = 10n ** 9n;

/** A resource quantity as a CEL value: its amount in billionths (finer amounts round up, as upstream's do). */
export class Quantity {
  readonly nanos: bigint;
  constructor(nanos: bigint) {
    this.nanos = nanos;
  }
}

function parse(text: string): Quantity | undefined {
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const [, sign, number, suffix = ''] = m;
  const [whole = '', fraction = ''] = number!.split('.');
  let n = BigInt(`${whole || '0'}${fraction}`) * NANO;
  let scale = 10n ** BigInt(fraction.length);
  if (suffix in BINARY) n *= BINARY[suffix]!;
  else {
    const exponent = suffix in DECIMAL ? DECIMAL[suffix]! : Number(suffix.slice(1));
    if (exponent >= 0) n *= 10n ** BigInt(exponent);
    else scale *= 10n ** BigInt(-exponent);
  }
  const q = n / scale + (n % scale === 0n ? 0n : 1n);
  return new Quantity(sign === '-' ? -q : q);
}

function quantity(text: string): Quantity {
  const q = parse(text);
  if (!q) throw new EvaluationError('quantities must match the regular expression');
  return q;
}

const nanosOf = (x: Quantity | bigint) => (x instanceof Quantity ? x.nanos : x * NANO);
const compare = (a: Quantity, b: Quantity) => (a.nanos < b.nanos ? -1n : a.nanos > b.nanos ? 1n : 0n);

/**
 * Registers the quantity functions of k8s.io/apiserver/pkg/cel/library (quantity.go): `quantity(s)`,
 * `isQuantity(s)`, and on a Quantity `isInteger()`, `asInteger()`, `asApproximateFloat()`, `sign()`,
 * `add(q|int)`, `sub(q|int)`, `compareTo(q)`, `isGreaterThan(q)`, `isLessThan(q)`.
 * @param env the environment (not yet cloned)
 */
export function registerQuantityLibrary(env: Environment): void {
  env.registerType('Quantity', Quantity);
  env
    .registerFunction('quantity(string): Quantity', quantity)
    .registerFunction('isQuantity(string): bool', (s: string) => parse(s) !== undefined)
    .registerFunction('Quantity.isInteger(): bool', (q: Quantity) => q.nanos % NANO === 0n)
    .registerFunction('Quantity.asInteger(): int', (q: Quantity) => {
      if (q.nanos % NANO !== 0n) throw new EvaluationError('cannot convert value to integer');
      return q.nanos / NANO;
    })
    .registerFunction('Quantity.asApproximateFloat(): double', (q: Quantity) => Number(q.nanos) / 1e9)
    .registerFunction('Quantity.sign(): int', (q: Quantity) => (q.nanos > 0n ? 1n : q.nanos < 0n ? -1n : 0n))
    .registerFunction(
      'Quantity.add(Quantity): Quantity',
      (a: Quantity, b: Quantity) => new Quantity(a.nanos + nanosOf(b)),
    )
    .registerFunction(
      'Quantity.add(int): Quantity',
      (a: Quantity, b: bigint) => new Quantity(a.nanos + nanosOf(b)),
    )
    .registerFunction(
      'Quantity.sub(Quantity): Quantity',
      (a: Quantity, b: Quantity) => new Quantity(a.nanos - nanosOf(b)),
    )
    .registerFunction(
      'Quantity.sub(int): Quantity',
      (a: Quantity, b: bigint) => new Quantity(a.nanos - nanosOf(b)),
    )
    .registerFunction('Quantity.compareTo(Quantity): int', compare)
    .registerFunction(
      'Quantity.isGreaterThan(Quantity): bool',
      (a: Quantity, b: Quantity) => compare(a, b) > 0n,
    )
    .registerFunction('Quantity.isLessThan(Quantity): bool', (a: Quantity, b: Quantity) => compare(a, b) < 0n)
    .registerOperator('Quantity == Quantity', (a: Quantity, b: Quantity) => a.nanos === b.nanos);
}
