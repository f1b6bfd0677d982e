// Tests: the pods' graceful-termination estimate of a terminating namespace (upstream's estimateGracefulTermination).
import { describe, expect, it } from 'vitest';
import { gracefulTerminationEstimate } from '../../../../operators/controller/namespace/graceful-termination-estimate.ts';

const pod = (grace: number | undefined, phase = 'Running') => ({
  spec: { containers: [], ...(grace === undefined ? {} : { terminationGracePeriodSeconds: grace }) },
  status: { phase },
});
const DELETED = Date.parse('2026-01-01T00:00:00Z');

describe('gracefulTerminationEstimate', () => {
  it.each([
    ['no pods', [], 0, 0],
    ['the longest grace period among running pods', [pod(10), pod(30), pod(5)], 1_000, 30],
    ['terminal pods do not count', [pod(60, 'Succeeded'), pod(60, 'Failed'), pod(3)], 0, 3],
    ['pods without a grace period do not count', [pod(undefined)], 0, 0],
    ['0 once the longest grace has passed since the deletion', [pod(30)], 30_000, 0],
    ['still the estimate just before it passes', [pod(30)], 29_999, 30],
  ])('%s', (_name, pods, elapsedMs, want) => {
    expect(gracefulTerminationEstimate(pods, DELETED, DELETED + elapsedMs)).toBe(want);
  });
});
