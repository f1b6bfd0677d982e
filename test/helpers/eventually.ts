// Test helper for real-I/O tests: retries an assertion until it passes or a deadline in real time passes.
/**
 * Runs `check` every 20 ms until it stops throwing; after `ms` without a pass, rethrows its last error,
 * so the failure reads as the assertion that never came true.
 *
 * @param check an assertion (e.g. a block of `expect` calls), or an async one (awaited each time)
 * @param ms how long to keep trying, in real milliseconds
 */
export async function eventually(check: () => void | Promise<void>, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
