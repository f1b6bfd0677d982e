// Runs a client test body in virtual time, handing it the TestScheduler (as the client's scheduler) and the marble helpers.
import type { TestScheduler } from 'rxjs/testing';
import { testScheduler } from '../../../src/testing/marbles.ts';

type RunHelpers = Parameters<Parameters<TestScheduler['run']>[0]>[0];

/** Runs `fn` inside `TestScheduler.run`, with the scheduler itself for `kubeApiClient({ scheduler })`. */
export function inVirtualTime(fn: (ts: TestScheduler, helpers: RunHelpers) => void): void {
  const ts = testScheduler();
  ts.run((helpers) => fn(ts, helpers));
}
