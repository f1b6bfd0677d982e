// Tests of the shared flag parsers: accepted values, and usage errors that name the flag.
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { featureGatesFlag, portFlag, positiveNumberFlag } from '../../../src/cli/flag-parsers.ts';

describe('portFlag', () => {
  it.each([
    ['0', 0],
    ['6443', 6443],
    ['65535', 65535],
  ])('accepts %s', (text, port) => {
    expect(portFlag('--port')(text)).toBe(port);
  });
  it.each(['65536', '-1', '80.5', 'eighty', ''])('refuses %j naming the flag', (text) => {
    expect(() => portFlag('--health-port')(text)).toThrow(InvalidArgumentError);
    expect(() => portFlag('--health-port')(text)).toThrow(/^--health-port: not a port number/);
  });
});

describe('positiveNumberFlag', () => {
  it.each([
    ['5', 5],
    ['0.5', 0.5],
  ])('accepts %s', (text, n) => {
    expect(positiveNumberFlag('--kube-api-qps')(text)).toBe(n);
  });
  it.each(['0', '-3', 'fast'])('refuses %j naming the flag', (text) => {
    expect(() => positiveNumberFlag('--kube-api-burst')(text)).toThrow(
      /^--kube-api-burst: must be a number > 0/,
    );
  });
});

describe('featureGatesFlag (component-base --feature-gates)', () => {
  const parse = featureGatesFlag('--feature-gates', { CoordinatedLeaderElection: false, Other: true });
  it.each<[string, Record<string, boolean>]>([
    ['CoordinatedLeaderElection=true', { CoordinatedLeaderElection: true }],
    ['CoordinatedLeaderElection=1, Other=F', { CoordinatedLeaderElection: true, Other: false }],
    ['', {}],
  ])('%j', (text, gates) => expect(parse(text)).toEqual(gates));

  it('adds to an earlier occurrence of the flag', () => {
    expect(parse('Other=false', { CoordinatedLeaderElection: true })).toEqual({
      CoordinatedLeaderElection: true,
      Other: false,
    });
  });

  it.each([
    ['Nope=true', '--feature-gates: unrecognized feature gate: Nope'],
    ['Other', '--feature-gates: missing bool value for Other'],
    [
      'Other=yes',
      '--feature-gates: invalid value of Other=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    ],
  ])("refuses %j with the components' words", (text, message) => {
    expect(() => parse(text)).toThrow(message);
  });
});
