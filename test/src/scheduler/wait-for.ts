// Test helper for the scheduler's real-I/O tests: retries an async assertion until it passes or a real deadline passes.
/**
 * Runs `check` every 25 ms until it resolves; after `ms` real milliseconds rethrows its last error, so the
 * failure reads as the assertion that never came true.
 */
export async function waitFor<T>(check: () => Promise<T>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
