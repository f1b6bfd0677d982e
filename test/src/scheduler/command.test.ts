// `kube-rx scheduler`'s command line: registered in the CLI, with kube-scheduler's flag names and defaults.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.ts';
import { schedulerCommand } from '../../../src/scheduler/command.ts';

describe('kube-rx scheduler', () => {
  it('is one of the CLI’s commands', () => {
    expect(buildProgram().commands.map((c) => c.name())).toContain('scheduler');
  });

  it.each([
    ['--config', undefined],
    ['--write-config-to', undefined],
    ['--kubeconfig', undefined],
    ['--master', undefined],
    ['--leader-elect', true],
    ['--leader-elect-lease-duration', undefined],
    ['--leader-elect-renew-deadline', undefined],
    ['--leader-elect-retry-period', undefined],
    ['--leader-elect-resource-namespace', undefined],
    ['--leader-elect-resource-name', undefined],
    ['--secure-port', 10259],
    ['--bind-address', '0.0.0.0'],
    ['--authorization-always-allow-paths', '/healthz,/readyz,/livez'],
  ])('has upstream’s %s flag (default %s)', (flag, value) => {
    const option = schedulerCommand().options.find((o) => o.long === flag);
    expect(option).toBeDefined();
    expect(option!.defaultValue).toEqual(value);
  });

  it.each([
    [['--leader-elect=false'], false],
    [['--leader-elect', 'true'], true],
    [['--leader-elect'], true],
  ])('reads %j as leaderElect %s', (args, value) => {
    const command = schedulerCommand().exitOverride();
    command.action(() => {});
    command.parse(args, { from: 'user' });
    expect(command.opts().leaderElect).toBe(value);
  });

  it.each([
    [['--leader-elect=maybe'], '--leader-elect: not a boolean: maybe'],
    [['--secure-port', 'https'], '--secure-port: not a port number: https'],
    [['--leader-elect-lease-duration', '15'], '--leader-elect-lease-duration: not a duration'],
  ])('refuses %j naming the flag', (args, message) => {
    const command = schedulerCommand()
      .exitOverride()
      .configureOutput({ writeErr: () => {} });
    command.action(() => {});
    expect(() => command.parse(args, { from: 'user' })).toThrow(message);
  });
});
