// Tests: proportional scaling of a Deployment's sets (upstream's TestScale table, in our words).
import { describe, expect, it } from 'vitest';
import { setReplicasAnnotations } from '../../../../operators/controller/deployment/deployment-revision.ts';
import type { Deployment } from '../../../../operators/controller/deployment/deployment-types.ts';
import {
  getProportion,
  proportionalScale,
} from '../../../../operators/controller/deployment/proportional-scale.ts';
import { maxSurge } from '../../../../operators/controller/deployment/rolling-fenceposts.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { newDeployment, rs } from './fixtures.ts';

const NEW = 3;
const OLD = 2;
const OLDER = 1;

type Case = {
  name: string;
  d: Deployment;
  before: Deployment;
  newRS?: ReplicaSet;
  oldRSs: ReplicaSet[];
  want: Record<string, number>;
  desired?: Record<string, number>;
};

const cases: Case[] = [
  {
    name: '10 → 12, one set',
    d: newDeployment(12),
    before: newDeployment(10),
    newRS: rs('v1', 10, NEW),
    oldRSs: [],
    want: { v1: 12 },
  },
  {
    name: '10 → 5, one set',
    d: newDeployment(5),
    before: newDeployment(10),
    newRS: rs('v1', 10, NEW),
    oldRSs: [],
    want: { v1: 5 },
  },
  {
    name: '5 → 10',
    d: newDeployment(10),
    before: newDeployment(5),
    newRS: rs('v2', 2, NEW),
    oldRSs: [rs('v1', 3, OLD)],
    want: { v2: 4, v1: 6 },
  },
  {
    name: '5 → 3',
    d: newDeployment(3),
    before: newDeployment(5),
    newRS: rs('v2', 2, NEW),
    oldRSs: [rs('v1', 3, OLD)],
    want: { v2: 1, v1: 2 },
  },
  {
    name: '9 → 4',
    d: newDeployment(4),
    before: newDeployment(9),
    newRS: rs('v2', 8, NEW),
    oldRSs: [rs('v1', 1, OLD)],
    want: { v2: 4, v1: 0 },
  },
  {
    name: '7 → 10 over three sets',
    d: newDeployment(10),
    before: newDeployment(7),
    newRS: rs('v3', 2, NEW),
    oldRSs: [rs('v2', 3, OLD), rs('v1', 2, OLDER)],
    want: { v3: 3, v2: 4, v1: 3 },
  },
  {
    name: '13 → 8 over three sets',
    d: newDeployment(8),
    before: newDeployment(13),
    newRS: rs('v3', 2, NEW),
    oldRSs: [rs('v2', 8, OLD), rs('v1', 3, OLDER)],
    want: { v3: 1, v2: 5, v1: 2 },
  },
  {
    name: 'leftover 3 → 4 goes to the newest',
    d: newDeployment(4),
    before: newDeployment(3),
    newRS: rs('v3', 1, NEW),
    oldRSs: [rs('v2', 1, OLD), rs('v1', 1, OLDER)],
    want: { v3: 2, v2: 1, v1: 1 },
  },
  {
    name: 'leftover 3 → 2 comes from the oldest',
    d: newDeployment(2),
    before: newDeployment(3),
    newRS: rs('v3', 1, NEW),
    oldRSs: [rs('v2', 1, OLD), rs('v1', 1, OLDER)],
    want: { v3: 1, v2: 1, v1: 0 },
  },
  {
    name: 'no new set, 4 → 5: the newest old one grows',
    d: newDeployment(5),
    before: newDeployment(4),
    oldRSs: [rs('v2', 2, OLD), rs('v1', 2, OLDER)],
    want: { v2: 3, v1: 2 },
  },
  {
    name: '6 → 0',
    d: newDeployment(0),
    before: newDeployment(6),
    newRS: rs('v3', 3, NEW),
    oldRSs: [rs('v2', 2, OLD), rs('v1', 1, OLDER)],
    want: { v3: 0, v2: 0, v1: 0 },
  },
  {
    name: '0 → 6 with every set empty: the new one gets all',
    d: newDeployment(6),
    before: newDeployment(6),
    newRS: rs('v3', 0, NEW),
    oldRSs: [rs('v2', 0, OLD), rs('v1', 0, OLDER)],
    want: { v3: 6, v2: 0, v1: 0 },
  },
  {
    name: 'a set that missed the last update (desired 3) catches up',
    d: newDeployment(5),
    before: newDeployment(5),
    newRS: rs('v3', 2, NEW),
    oldRSs: [rs('v2', 1, OLD), rs('v1', 1, OLDER)],
    desired: { v2: 3 },
    want: { v3: 2, v2: 2, v1: 1 },
  },
  {
    name: 'surge 2, 10 → 20',
    d: newDeployment(20, { maxSurge: 2 }),
    before: newDeployment(10, { maxSurge: 2 }),
    newRS: rs('v2', 6, NEW),
    oldRSs: [rs('v1', 6, OLD)],
    want: { v2: 11, v1: 11 },
  },
  {
    name: 'surge 3 → 6 and size 10 → 50',
    d: newDeployment(50, { maxSurge: 6 }),
    before: newDeployment(10, { maxSurge: 3 }),
    newRS: rs('v2', 5, NEW),
    oldRSs: [rs('v1', 8, OLD)],
    want: { v2: 22, v1: 34 },
  },
  {
    name: 'size and template change together (no new set yet)',
    d: newDeployment(14),
    before: newDeployment(10),
    oldRSs: [rs('v2', 7, NEW), rs('v1', 3, OLD)],
    want: { v2: 10, v1: 4 },
  },
  {
    name: 'a saturated but unavailable new set leaves the old pods alone',
    d: newDeployment(2, { maxSurge: 1, maxUnavailable: 1 }),
    before: newDeployment(2, { maxSurge: 1, maxUnavailable: 1 }),
    newRS: rs('v2', 2, NEW, { availableReplicas: 0 }),
    oldRSs: [rs('v1', 1, OLD)],
    want: { v2: 2, v1: 1 },
  },
];

describe('proportionalScale', () => {
  it.each(cases)('$name', ({ d, before, newRS, oldRSs, want, desired }) => {
    for (const set of [newRS, ...oldRSs]) {
      if (!set) continue;
      const n = desired?.[set.metadata.name ?? ''] ?? before.spec.replicas ?? 0;
      setReplicasAnnotations(set, n, n + maxSurge(before));
    }
    const sizes: Record<string, number> = {};
    for (const set of [newRS, ...oldRSs]) if (set) sizes[set.metadata.name ?? ''] = set.spec.replicas ?? 0;
    for (const s of proportionalScale(d, newRS, oldRSs).steps)
      sizes[s.replicaSet.metadata.name ?? ''] = s.replicas;
    expect(sizes).toEqual(want);
  });

  it('scales a saturated, available new set old sets to 0', () => {
    const d = newDeployment(3, { maxSurge: 1 });
    const newRS = rs('v2', 3, NEW, { availableReplicas: 3 });
    setReplicasAnnotations(newRS, 3, 4);
    const old = rs('v1', 1, OLD);
    expect(
      proportionalScale(d, newRS, [old]).steps.map((s) => [s.replicaSet.metadata.name, s.replicas]),
    ).toEqual([['v1', 0]]);
  });
});

describe('getProportion', () => {
  const withMax = (name: string, replicas: number, max?: number) => {
    const out = rs(name, replicas);
    if (max !== undefined)
      out.metadata.annotations = { 'deployment.kubernetes.io/max-replicas': String(max) };
    return out;
  };
  it.each([
    ['an empty set gets nothing', withMax('a', 0, 10), newDeployment(20), 10, 0, 0],
    ['nothing to add', withMax('a', 5, 10), newDeployment(20), 0, 0, 0],
    ['all added already', withMax('a', 5, 10), newDeployment(20), 4, 4, 0],
    ['its share when growing: 5 of 10 → 10 of 20', withMax('a', 5, 10), newDeployment(20), 10, 0, 5],
    ['capped by what is left to add', withMax('a', 5, 10), newDeployment(20), 10, 8, 2],
    [
      'its share when shrinking: 5 of 10 → 3 of 5 (2.5 rounds away from zero)',
      withMax('a', 5, 10),
      newDeployment(5),
      -5,
      0,
      -2,
    ],
    ['bounded by what is left to remove', withMax('a', 6, 10), newDeployment(5), -5, -4, -1],
    ['to zero replicas: all of it', withMax('a', 4, 10), newDeployment(0), -10, 0, -4],
    [
      'no annotation: the Deployment status replicas as its base',
      withMax('a', 5),
      { ...newDeployment(20), status: { replicas: 10 } },
      10,
      0,
      5,
    ],
  ])('%s', (_name, set, dep, toAdd, added, want) => {
    expect(getProportion(set, dep, toAdd, added)).toBe(want);
  });
});
