// parseGoDuration: Go duration strings as the kubelet's flags take them.
import { describe, expect, it } from 'vitest';
import { parseGoDuration } from '../../../src/kubelet/go-duration.ts';

describe('parseGoDuration', () => {
  it.each([
    ['20s', 20_000],
    ['0', 0],
    ['1m30s', 90_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
    ['2us', 0.002],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseGoDuration('--x', text)).toBeCloseTo(ms);
  });

  it.each(['', '20', 's', '1d', '1m 30s', '-'])('refuses %j, naming the flag', (text) => {
    expect(() => parseGoDuration('--file-check-frequency', text)).toThrow(/--file-check-frequency/);
  });
});
