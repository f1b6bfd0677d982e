// Kubernetes' CEL list library: isSorted, sum, min, max, indexOf, lastIndexOf on lists.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';
import { celEqual } from './cel-equal.ts';

type Item = bigint | number | string | boolean;

const less = (a: Item, b: Item) => a < b;

function extreme(list: Item[], name: 'min' | 'max'): Item {
  if (list.length === 0) throw new EvaluationError(`${name} called on empty list`);
  let best = list[0]!;
  for (const x of list) if (name === 'min' ? less(x, best) : less(best, x)) best = x;
  return best;
}

/**
 * Registers the list functions of k8s.io/apiserver/pkg/cel/library (lists.go) on an environment:
 * `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(x)`, `lastIndexOf(x)`; `min`/`max` of an empty
 * list are errors, `sum` of an empty list is 0.
 * @param env the environment (not yet cloned)
 */
export function registerListsLibrary(env: Environment): void {
  env
    .registerFunction('list<A>.isSorted(): bool', (l: Item[]) =>
      l.every((x, i) => i === 0 || !less(x, l[i - 1]!)),
    )
    .registerFunction('list<A>.sum(): A', (l: Item[]) => {
      if (l.length === 0) return 0n;
      if (l.every((x) => typeof x === 'bigint')) return (l as bigint[]).reduce((a, b) => a + b, 0n);
      return l.reduce((a: number, b) => a + Number(b), 0);
    })
    .registerFunction('list<A>.min(): A', (l: Item[]) => extreme(l, 'min'))
    .registerFunction('list<A>.max(): A', (l: Item[]) => extreme(l, 'max'))
    .registerFunction('list<A>.indexOf(A): int', (l: unknown[], x: unknown) =>
      BigInt(l.findIndex((y) => celEqual(x, y))),
    )
    .registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], x: unknown) =>
      BigInt(l.findLastIndex((y) => celEqual(x, y))),
    );
}
