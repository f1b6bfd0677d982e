// Tests of graceful shutdown signals: the first asks to stop, the second exits at once.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../operators/logger.ts';
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

  it('resolves `requested` on the first signal and logs which signal came, first at info, second at warn', async () => {
    const source = new EventEmitter();
    const logged: [string, unknown, string | undefined][] = [];
    const log = (level: string) => (o: unknown, msg?: string) => logged.push([level, o, msg]);
    const logger = { ...silentLogger, info: log('info'), warn: log('warn') };
    const { requested, dispose } = shutdownSignal(source, () => {}, logger);
    let resolved = false;
    void requested.then(() => {
      resolved = true;
    });
    await Promise.resolve();
    expect(resolved).toBe(false);
    source.emit('SIGTERM');
    await requested;
    source.emit('SIGINT');
    dispose();
    expect(logged).toEqual([
      ['info', { signal: 'SIGTERM' }, 'stopping'],
      ['warn', { signal: 'SIGINT' }, 'second signal: exiting at once'],
    ]);
  });
});
