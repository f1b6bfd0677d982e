// Tests of the shared flag parsers: accepted values, and usage errors that name the flag.
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { portFlag, positiveNumberFlag } from '../../../src/cli/flag-parsers.ts';

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
