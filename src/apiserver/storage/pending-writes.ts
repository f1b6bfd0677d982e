// The writes a request made that a remote store has not acknowledged yet, carried along its async context.
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Inside a request run with `pendingWrites.run(list, ...)`, a journal that confirms later pushes one
 * promise per commit onto `list`; the response waits for them (see {@link holdUntilDurable}).
 */
export const pendingWrites = new AsyncLocalStorage<Promise<void>[]>();
