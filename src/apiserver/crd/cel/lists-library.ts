// Kubernetes' CEL list library: isSorted, sum, min, max, indexOf, lastIndexOf on lists.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { celEqual } from './cel-equal.ts';

const DURATION = 'google.protobuf.Duration';
const TIMESTAMP = 'google.protobuf.Timestamp';
/** The element types that have an order: min, max and isSorted are defined on lists of them only. */
const COMPARABLE = ['int', 'uint', 'double', 'string', 'bool', 'bytes', DURATION, TIMESTAMP];
/** The element types that add up. */
const SUMMABLE = ['int', 'uint', 'double', DURATION];

const NANOS = 1_000_000_000n;
const nanosOf = (d: Duration) => BigInt(d.seconds) * NANOS + BigInt(d.nanos);

/** Negative, zero or positive as a is before, with or after b (values of one comparable type). */
function compare(a: unknown, b: unknown): number {
  if (a instanceof Duration && b instanceof Duration) return Number(nanosOf(a) - nanosOf(b));
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  const x = a as bigint | number | string | boolean;
  const y = b as bigint | number | string | boolean;
  return x < y ? -1 : x > y ? 1 : 0;
}

function extreme(list: unknown[], name: 'min' | 'max'): unknown {
  if (list.length === 0) throw new EvaluationError(`${name} called on empty list`);
  let best = list[0];
  for (const x of list) if (name === 'min' ? compare(x, best) < 0 : compare(x, best) > 0) best = x;
  return best;
}

function sum(list: unknown[]): unknown {
  if (list.length === 0) return 0n;
  if (list[0] instanceof Duration) {
    const total = (list as Duration[]).reduce((acc, d) => acc + nanosOf(d), 0n);
    return new Duration(total / NANOS, Number(total % NANOS));
  }
  if (typeof list[0] === 'bigint') return (list as bigint[]).reduce((a, b) => a + b, 0n);
  return (list as number[]).reduce((a, b) => a + Number(b), 0);
}

/**
 * Registers the list functions of k8s.io/apiserver/pkg/cel/library (lists.go) on an environment:
 * `isSorted()`, `min()`, `max()` on lists of a comparable type (numbers, strings, booleans, bytes,
 * durations, timestamps), `sum()` on lists of numbers and durations (0 for an empty list),
 * `indexOf(x)` and `lastIndexOf(x)` (deep equality) on any list; `min`/`max` of an empty list are
 * errors. Other element types do not compile (`found no matching overload`).
 * @param env the environment (not yet cloned)
 */
export function registerListsLibrary(env: Environment): void {
  for (const t of COMPARABLE)
    env
      .registerFunction(`list<${t}>.isSorted(): bool`, (l: unknown[]) =>
        l.every((x, i) => i === 0 || compare(l[i - 1], x) <= 0),
      )
      .registerFunction(`list<${t}>.min(): ${t}`, (l: unknown[]) => extreme(l, 'min'))
      .registerFunction(`list<${t}>.max(): ${t}`, (l: unknown[]) => extreme(l, 'max'));
  for (const t of SUMMABLE) env.registerFunction(`list<${t}>.sum(): ${t}`, sum);
  env
    .registerFunction('list<A>.indexOf(A): int', (l: unknown[], x: unknown) =>
      BigInt(l.findIndex((y) => celEqual(x, y))),
    )
    .registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], x: unknown) =>
      BigInt(l.findLastIndex((y) => celEqual(x, y))),
    );
}
