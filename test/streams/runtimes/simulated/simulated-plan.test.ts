// How the simulated runtime reads command lines: sleeps, exits, echo lines, shell scripts and unknown commands.
import { describe, expect, it } from 'vitest';
import { simulatedPlan } from '../../../../streams/runtimes/simulated/simulated-plan.ts';

describe('simulatedPlan', () => {
  it.each([
    ['sleep N', ['sleep', '5'], [{ kind: 'sleep', ms: 5000 }], 0, true],
    ['a fractional sleep by path', ['/bin/sleep', '0.25'], [{ kind: 'sleep', ms: 250 }], 0, true],
    ['sleep infinity', ['sleep', 'infinity'], [{ kind: 'forever' }], 0, true],
    ['true', ['true'], [], 0, true],
    ['false', ['false'], [], 1, true],
    ['echo', ['echo', 'hello', 'world'], [{ kind: 'echo', stream: 'stdout', text: 'hello world' }], 0, true],
    [
      'a script with echo, sleep and exit',
      ['sh', '-c', 'echo start; sleep 2 && echo "to err" >&2; exit 3; echo never'],
      [
        { kind: 'echo', stream: 'stdout', text: 'start' },
        { kind: 'sleep', ms: 2000 },
        { kind: 'echo', stream: 'stderr', text: 'to err' },
      ],
      3,
      true,
    ],
    ['a script ending in false', ['/bin/bash', '-c', 'true\nfalse'], [], 1, true],
    ['a script with an unknown command that succeeds', ['sh', '-c', 'false; cat /etc/hosts'], [], 0, true],
    [
      'a script that never ends',
      ['sh', '-c', 'echo up; sleep infinity; exit 1'],
      [{ kind: 'echo', stream: 'stdout', text: 'up' }, { kind: 'forever' }],
      0,
      true,
    ],
    ['exit codes wrap at 256', ['sh', '-c', 'exit 257'], [], 1, true],
    ['an unknown command', ['nginx', '-g', 'daemon off;'], [], 0, false],
    ['an invalid sleep', ['sleep', 'soon'], [], 0, false],
    ['nothing', [], [], 0, false],
  ] as const)('%s', (_name, argv, steps, exitCode, recognised) => {
    expect(simulatedPlan([...argv])).toEqual({ steps, exitCode, recognised });
  });
});
