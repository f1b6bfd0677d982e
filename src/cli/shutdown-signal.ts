// Graceful shutdown for long-running commands: the first SIGINT/SIGTERM asks to stop, a second one exits at once.

/** Where signals come from; `process` by default, a fake emitter in tests. */
export interface SignalSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/**
 * An AbortSignal that aborts on the first SIGINT or SIGTERM; a second signal calls `exitNow` (default:
 * exit with code 1 at once). `dispose()` removes the listeners.
 */
export function shutdownSignal(
  source: SignalSource = process,
  exitNow: () => void = () => process.exit(1),
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) exitNow();
    else controller.abort();
  };
  source.on('SIGINT', onSignal);
  source.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      source.off('SIGINT', onSignal);
      source.off('SIGTERM', onSignal);
    },
  };
}
