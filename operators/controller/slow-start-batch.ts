// slowStartBatch: kube-controller-manager's creation and deletion in doubling batches, stopping at the first batch with an error.

/** What {@link slowStartBatch} did: the calls that succeeded, and the first error (if a batch failed). */
export interface SlowStartResult {
  successes: number;
  error?: unknown;
}

/**
 * Calls `fn` `count` times in batches of `initialBatchSize`, then twice the last, ... (each capped at what
 * remains); the calls of one batch run at once. After a batch with any failure no further batch starts, so
 * once a quota is exhausted a sync makes one doomed call, not hundreds (upstream's slowStartBatch).
 *
 * @example
 * const { successes, error } = await slowStartBatch(5, 1, () => createPod());  // batches 1, 2, 2
 * @param count how many calls in all
 * @param initialBatchSize the first batch (upstream's SlowStartInitialBatchSize is 1)
 * @param fn one call; a rejection is a failure
 * @returns the successes and the first error
 */
export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: (index: number) => Promise<unknown>,
): Promise<SlowStartResult> {
  let remaining = count;
  let successes = 0;
  let next = 0;
  for (let size = Math.min(remaining, initialBatchSize); size > 0; size = Math.min(2 * size, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: size }, () => fn(next++)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.length - results.filter((r) => r.status === 'rejected').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= size;
  }
  return { successes };
}
