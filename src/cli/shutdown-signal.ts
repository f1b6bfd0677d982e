// Graceful shutdown for long-running commands: the first SIGINT/SIGTERM asks to stop, a second one exits at once.
import type { Logger } from '../../operators/logger.ts';

/** Where signals come from; `process` by default, a fake emitter in tests. */
export interface SignalSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/** A pending graceful shutdown: its AbortSignal, a promise of the first signal, and how to stop listening. */
export interface ShutdownSignal {
  /** Aborted on the first SIGINT/SIGTERM. */
  signal: AbortSignal;
  /** Resolves when `signal` aborts (at once when it already has). */
  requested: Promise<void>;
  /** Removes the listeners; call it once the command has finished stopping, not before. */
  dispose(): void;
}

const NAMES = ['SIGINT', 'SIGTERM'] as const;

/**
 * An AbortSignal that aborts on the first SIGINT or SIGTERM; a second signal calls `exitNow` (default:
 * exit with code 1 at once). Keep it until the command has stopped, so a stop that hangs can be cut short.
 *
 * @param source where signals come from
 * @param exitNow what a second signal does
 * @param logger told which signal arrived, at info for the first and warn for the second
 * @returns the signal, a promise of it, and `dispose()` to remove the listeners
 */
export function shutdownSignal(
  source: SignalSource = process,
  exitNow: () => void = () => process.exit(1),
  logger?: Logger,
): ShutdownSignal {
  const controller = new AbortController();
  const listeners = NAMES.map((name) => {
    const listener = () => {
      if (controller.signal.aborted) {
        logger?.warn({ signal: name }, 'second signal: exiting at once');
        exitNow();
      } else {
        logger?.info({ signal: name }, 'stopping');
        controller.abort();
      }
    };
    source.on(name, listener);
    return [name, listener] as const;
  });
  const requested = new Promise<void>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  return {
    signal: controller.signal,
    requested,
    dispose() {
      for (const [name, listener] of listeners) source.off(name, listener);
    },
  };
}
