// isControllerEnabled and resolveControllersFlag: kube-controller-manager's --controllers rules, as upstream's helper and options tests state them.
import { describe, expect, it } from 'vitest';
import { isControllerEnabled } from '../../../operators/controller-manager/is-controller-enabled.ts';
import { resolveControllersFlag } from '../../../operators/controller-manager/resolve-controllers-flag.ts';
import { InvalidConfigError } from '../../../operators/errors.ts';

describe('isControllerEnabled', () => {
  // upstream's table: disabled by default = {delta, echo}
  const off = new Set(['delta', 'echo']);
  it.each([
    ['alpha', ['alpha', 'bravo', '-charlie'], true],
    ['bravo', ['alpha', 'bravo', '-charlie'], true],
    ['charlie', ['alpha', 'bravo', '-charlie'], false],
    ['foxtrot', ['alpha', 'bravo', '-charlie'], false],
    ['alpha', ['*'], true],
    ['delta', ['*'], false],
    ['delta', ['*', 'delta'], true],
    ['alpha', ['*', '-charlie'], true],
    ['charlie', ['*', '-charlie'], false],
    ['charlie', ['-charlie', '*', 'charlie'], false],
    ['charlie', ['charlie', '-charlie'], true],
    ['alpha', [], false],
  ])('%s under %j → %s', (name, list, expected) => {
    expect(isControllerEnabled(name, off, list)).toBe(expected);
  });
});

describe('resolveControllersFlag', () => {
  const known = {
    names: new Set(['job-controller', 'ttl-controller', 'daemonset-controller']),
    aliases: new Map([
      ['job', 'job-controller'],
      ['ttl', 'ttl-controller'],
      ['daemonset', 'daemonset-controller'],
    ]),
    built: new Set(['job-controller', 'ttl-controller']),
  };

  it('keeps *, translates aliases to canonical names (the minus kept) and drops blanks', () => {
    expect(resolveControllersFlag(['*', '-job', ' ttl ', ''], known)).toEqual([
      '*',
      '-job-controller',
      'ttl-controller',
    ]);
  });

  it('lets a controller that is not built be disabled, but not named to run', () => {
    expect(resolveControllersFlag(['*', '-daemonset'], known)).toEqual(['*', '-daemonset-controller']);
    expect(() => resolveControllersFlag(['daemonset'], known)).toThrow(
      '--controllers: "daemonset-controller" is not built in kube-rx yet',
    );
  });

  it('refuses unknown names with upstream words, naming the flag and every bad entry', () => {
    let error: unknown;
    try {
      resolveControllersFlag(['*', 'foo', '-bar'], known);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).field).toBe('--controllers');
    expect((error as Error).message).toBe(
      '--controllers: "foo" is not in the list of known controllers, "bar" is not in the list of known controllers',
    );
  });
});
