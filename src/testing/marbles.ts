// Marble testing bound to vitest: a TestScheduler whose assertions are vitest's `expect(...).toEqual`.
import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';

type RunHelpers = Parameters<Parameters<TestScheduler['run']>[0]>[0];

/**
 * A fresh TestScheduler that compares with vitest's deep equality.
 * @returns the scheduler; call `.run(helpers => ...)` on it
 */
export function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => {
    expect(actual).toEqual(expected);
  });
}

/**
 * Runs `fn` in virtual time with the marble helpers (`cold`, `hot`, `expectObservable`, `flush`, ...).
 *
 * @example
 * marbles(({ cold, expectObservable }) => {
 *   expectObservable(cold('a-b|').pipe(map(up))).toBe('A-B|');
 * });
 * @param fn the test body
 * @returns what `fn` returns
 */
export function marbles<R>(fn: (helpers: RunHelpers) => R): R {
  return testScheduler().run(fn);
}
