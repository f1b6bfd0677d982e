// Tests reentryGuard: re-entrant calls become extra passes of the running call, never nested ones.
import { describe, expect, it } from 'vitest';
import { reentryGuard } from '../../operators/reentry-guard.ts';

describe('reentryGuard', () => {
  it('runs one pass per outer call and reports that it ran', () => {
    let passes = 0;
    const run = reentryGuard(() => {
      passes++;
    });
    expect(run()).toBe(true);
    expect(run()).toBe(true);
    expect(passes).toBe(2);
  });

  it('turns calls from inside a pass into further passes of the running call, never nested', () => {
    const log: string[] = [];
    let depth = 0;
    let requests = 2;
    const run: () => boolean = reentryGuard(() => {
      depth++;
      log.push(`pass at depth ${depth}`);
      if (requests-- > 0) log.push(`inner call returned ${run()}`);
      depth--;
    });
    expect(run()).toBe(true);
    expect(log).toEqual([
      'pass at depth 1',
      'inner call returned false',
      'pass at depth 1',
      'inner call returned false',
      'pass at depth 1',
    ]);
  });

  it('coalesces several requests made during one pass into one further pass', () => {
    let passes = 0;
    const run: () => boolean = reentryGuard(() => {
      passes++;
      if (passes === 1) {
        run();
        run();
        run();
      }
    });
    run();
    expect(passes).toBe(2);
  });

  it('skips requested passes once `more()` says no', () => {
    let passes = 0;
    let closed = false;
    const run: () => boolean = reentryGuard(
      () => {
        passes++;
        closed = true;
        run();
      },
      () => !closed,
    );
    run();
    expect(passes).toBe(1);
  });

  it('is usable again after a pass throws', () => {
    let fail = true;
    let passes = 0;
    const run = reentryGuard(() => {
      passes++;
      if (fail) throw new Error('boom');
    });
    expect(() => run()).toThrow('boom');
    fail = false;
    expect(run()).toBe(true);
    expect(passes).toBe(2);
  });
});
