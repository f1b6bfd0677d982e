// Tests `kube-rx leader-elect`: change lines on stdout, release on the first signal, exit at once on the second.
import { EventEmitter } from 'node:events';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../operators/logger.ts';
import { goDurationFlag } from '../../../src/cli/flag-parsers.ts';
import { leaderElectCommand } from '../../../src/leader-election/command.ts';
import { inMemoryLeases } from '../../../src/leader-election/in-memory-leases.ts';

const until = async (p: () => boolean) => {
  const start = Date.now();
  while (!p()) {
    if (Date.now() - start > 3_000) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

function program(deps: Parameters<typeof leaderElectCommand>[0]) {
  const p = new Command('kube-rx').exitOverride();
  p.addCommand(leaderElectCommand(deps).exitOverride());
  return p;
}

describe('leader-elect command', () => {
  it('prints leadership changes, then releases and returns on SIGTERM', async () => {
    const leases = inMemoryLeases();
    const lines: string[] = [];
    const signals = new EventEmitter();
    const done = program({
      client: leases.client({ latency: 2 }),
      out: { write: (l: string) => lines.push(l) },
      signals,
      logger: silentLogger,
    }).parseAsync(
      [
        'leader-elect',
        '--lease-name',
        'lock',
        '--lease-namespace',
        'ns',
        '--identity',
        'me',
        '--retry-period',
        '100ms',
        '--renew-deadline',
        '1s',
        '--lease-duration',
        '2s',
      ],
      { from: 'user' },
    );
    await until(() => lines.length === 2);
    signals.emit('SIGTERM', 'SIGTERM');
    await done;
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { leading: false, identity: 'me', lease: 'ns/lock' },
      { leading: true, identity: 'me', lease: 'ns/lock' },
      { leading: false, identity: 'me', lease: 'ns/lock' },
    ]);
    expect(leases.get('ns', 'lock')?.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    expect(signals.listenerCount('SIGTERM')).toBe(0);
  });

  it('a second signal exits at once', async () => {
    const leases = inMemoryLeases();
    const signals = new EventEmitter();
    let exited = 0;
    const hung = leases.client();
    const done = program({
      client: hung,
      out: { write: () => {} },
      signals,
      exitNow: () => {
        exited += 1;
      },
      logger: silentLogger,
    }).parseAsync(
      [
        'leader-elect',
        '--lease-name',
        'lock',
        '--identity',
        'me',
        '--retry-period',
        '100ms',
        '--renew-deadline',
        '1s',
        '--lease-duration',
        '2s',
      ],
      {
        from: 'user',
      },
    );
    await until(() => leases.get('kube-system', 'lock') !== undefined);
    hung.partition('hang');
    signals.emit('SIGINT', 'SIGINT');
    signals.emit('SIGINT', 'SIGINT');
    expect(exited).toBe(1);
    await done; // the release is bounded by the renew deadline
  });

  it.each([
    ['15s', 15_000],
    ['500ms', 500],
    ['1m', 60_000],
    ['1.5s', 1_500],
    ['1m30s', 90_000],
    ['0', 0],
  ])('parses the Go duration %s', (text, ms) => {
    expect(goDurationFlag('--x')(text)).toBe(ms);
  });

  it.each(['soon', '250', '15 s', ''])(
    'rejects %j naming the flag (a bare number has no unit, as in Go)',
    (text) => {
      expect(() => goDurationFlag('--lease-duration')(text)).toThrow(/--lease-duration/);
    },
  );
});
