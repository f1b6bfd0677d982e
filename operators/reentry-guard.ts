// reentryGuard: runs a draining loop so that a call made from inside it asks for another pass instead of nesting.

/**
 * Wraps `pass` (one sweep of a drain loop) so it never nests: a call made while a pass runs (e.g. from a
 * callback the pass triggered synchronously) only asks the running call for one more pass and returns
 * `false`. The running call repeats `pass` while asked and `more()` holds, then returns `true`.
 *
 * @example
 * const drain = reentryGuard(() => { while (queue.length) handle(queue.shift()); }, () => !closed);
 * if (drain()) maybeComplete(); // only the outermost call goes on
 * @param pass one sweep; it decides itself when to stop
 * @param more whether a requested further pass may run (e.g. not after teardown); default always
 * @returns a function running the passes: `true` when this call ran them, `false` when it was re-entrant
 */
export function reentryGuard(pass: () => void, more: () => boolean = () => true): () => boolean {
  let running = false;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return false;
    }
    running = true;
    try {
      do {
        again = false;
        pass();
      } while (again && more());
    } finally {
      running = false;
    }
    return true;
  };
}
