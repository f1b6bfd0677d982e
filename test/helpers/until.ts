// Test helper for real-I/O tests: waits until a condition holds, failing with what it waited for.
/**
 * Polls `check` every 10 ms; rejects with "timed out waiting for <what>" after `ms` real milliseconds.
 *
 * @param check the condition
 * @param what what the condition means, for the failure message
 * @param ms how long to wait
 */
export async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
