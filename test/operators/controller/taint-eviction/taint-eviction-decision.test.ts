// taintEvictionDecision: upstream's taint eviction cases (TestCreatePod, TestUpdateNode, TestGetMinTolerationTime) in our own words.
import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../../../../operators/api/core-v1.ts';
import { taintEvictionDecision } from '../../../../operators/controller/taint-eviction/taint-eviction-decision.ts';

const noExecute = (key: string, value?: string): Taint => ({
  key,
  effect: 'NoExecute',
  ...(value ? { value } : {}),
});
const tol = (key: string, seconds?: number, extra: Partial<Toleration> = {}): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
  ...extra,
});

describe('taintEvictionDecision', () => {
  it.each<{ case: string; taints?: Taint[]; tolerations?: Toleration[]; want: unknown }>([
    { case: 'no taints: keep', taints: undefined, want: { kind: 'keep' } },
    {
      case: 'only a NoSchedule taint: keep',
      taints: [{ key: 'a', effect: 'NoSchedule' }],
      want: { kind: 'keep' },
    },
    {
      case: 'an untolerated NoExecute taint: delete now',
      taints: [noExecute('a')],
      want: { kind: 'delete-now' },
    },
    {
      case: 'a toleration for another key: delete now',
      taints: [noExecute('a')],
      tolerations: [tol('b')],
      want: { kind: 'delete-now' },
    },
    {
      case: 'tolerated without tolerationSeconds: keep forever',
      taints: [noExecute('a')],
      tolerations: [tol('a')],
      want: { kind: 'keep' },
    },
    {
      case: 'tolerated for 1 s: delete after 1 s',
      taints: [noExecute('node.kubernetes.io/unreachable')],
      tolerations: [tol('node.kubernetes.io/unreachable', 1)],
      want: { kind: 'delete-after', afterMs: 1000 },
    },
    {
      case: 'two taints tolerated for 10 s and 5 s: the shorter wins',
      taints: [noExecute('a'), noExecute('b')],
      tolerations: [tol('a', 10), tol('b', 5)],
      want: { kind: 'delete-after', afterMs: 5000 },
    },
    {
      case: 'one forever and one for 7 s: 7 s',
      taints: [noExecute('a'), noExecute('b')],
      tolerations: [tol('a'), tol('b', 7)],
      want: { kind: 'delete-after', afterMs: 7000 },
    },
    {
      case: 'a negative tolerationSeconds counts as 0',
      taints: [noExecute('a')],
      tolerations: [tol('a', -5)],
      want: { kind: 'delete-after', afterMs: 0 },
    },
    {
      case: 'one taint tolerated, the other not: delete now',
      taints: [noExecute('a'), noExecute('b')],
      tolerations: [tol('a', 100)],
      want: { kind: 'delete-now' },
    },
    {
      case: 'Equal with a different value does not tolerate',
      taints: [noExecute('a', 'x')],
      tolerations: [{ key: 'a', operator: 'Equal', value: 'y', effect: 'NoExecute' }],
      want: { kind: 'delete-now' },
    },
    {
      case: 'an empty-key Exists toleration tolerates every taint forever',
      taints: [noExecute('a'), noExecute('b')],
      tolerations: [{ operator: 'Exists' }],
      want: { kind: 'keep' },
    },
    {
      case: 'the first matching toleration is the one used',
      taints: [noExecute('a')],
      tolerations: [tol('a', 30), tol('a', 3)],
      want: { kind: 'delete-after', afterMs: 30_000 },
    },
  ])('$case', ({ taints, tolerations, want }) => {
    expect(taintEvictionDecision(taints, tolerations)).toEqual(want);
  });
});
