// The quantities and durations the metrics API writes, in their canonical Kubernetes and Go forms.
import { describe, expect, it } from 'vitest';
import {
  cpuQuantity,
  goDuration,
  memoryQuantity,
} from '../../../../src/apiserver/metrics-api/metrics-quantity.ts';

describe('quantities and durations', () => {
  it.each([
    [0, '0'],
    [2e9, '2'],
    [250e6, '250m'],
    [1500, '1500n'],
    [3000, '3u'],
    [123456789, '123456789n'],
  ])('cpuQuantity(%d) = %s', (n, q) => {
    expect(cpuQuantity(n)).toBe(q);
  });

  it.each([
    [0, '0'],
    [1000, '1000'],
    [1024, '1Ki'],
    [1536 * 1024, '1536Ki'],
    [3 * 1024 ** 3, '3Gi'],
  ])('memoryQuantity(%d) = %s', (n, q) => {
    expect(memoryQuantity(n)).toBe(q);
  });

  it.each([
    [0, '0s'],
    [750, '750ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [15_000, '15s'],
    [60_250, '1m0.25s'],
    [3_723_000, '1h2m3s'],
  ])('goDuration(%d) = %s', (ms, text) => {
    expect(goDuration(ms)).toBe(text);
  });
});
