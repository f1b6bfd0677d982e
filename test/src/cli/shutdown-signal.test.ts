// Tests of graceful shutdown signals: the first asks to stop, the second exits at once.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { shutdownSignal } from '../../../src/cli/shutdown-signal.ts';

describe('shutdownSignal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('aborts on the first %s and exits on the second', (name) => {
    const source = new EventEmitter();
    let exits = 0;
    const { signal, dispose } = shutdownSignal(source, () => exits++);
    expect(signal.aborted).toBe(false);
    source.emit(name);
    expect(signal.aborted).toBe(true);
    expect(exits).toBe(0);
    source.emit(name === 'SIGTERM' ? 'SIGINT' : 'SIGTERM');
    expect(exits).toBe(1);
    dispose();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });
});
