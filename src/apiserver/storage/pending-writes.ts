// The writes a request made that a remote store has not acknowledged yet, carried along its async context.
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What an acknowledged write reports: the resourceVersion the cache gave it, and the one the store
 * gave it (they differ when another client wrote to the store in between).
 */
export interface AcknowledgedWrite {
  readonly predictedRv: number;
  readonly storedRv: number;
}

/**
 * Inside a request run with `pendingWrites.run(list, ...)`, a journal that confirms later pushes one
 * promise per commit onto `list`; the response waits for them (see {@link holdUntilDurable}).
 */
export const pendingWrites = new AsyncLocalStorage<Promise<AcknowledgedWrite>[]>();
