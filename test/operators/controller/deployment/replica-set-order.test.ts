// Tests: the new, old and active ReplicaSets of a Deployment and their orders (upstream's TestFindNewReplicaSet, TestFindOldReplicaSets, FindActiveOrLatest), in our words.
import { describe, expect, it } from 'vitest';
import {
  byRevision,
  bySizeNewer,
  bySizeOlder,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
} from '../../../../operators/controller/deployment/replica-set-order.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { newDeployment, rs } from './fixtures.ts';

const d = newDeployment(3);
const same = (name: string, created: number) =>
  rs(
    name,
    1,
    created,
    {},
    { metadata: { labels: { foo: 'bar', 'pod-template-hash': name } }, spec: d.spec.template?.spec },
  );
const other = (name: string, created: number, replicas = 1) => rs(name, replicas, created);
const names = (sets: readonly (ReplicaSet | undefined)[]) => sets.map((s) => s?.metadata.name);

describe('findNewReplicaSet / findOldReplicaSets', () => {
  it.each([
    ['the one with the template', [other('old', 1), same('new', 2)], 'new', ['old']],
    [
      'the oldest of two with the template',
      [same('newer', 3), same('older', 2), other('old', 1)],
      'older',
      ['old', 'newer'],
    ],
    ['none with the template', [other('a', 1), other('b', 2)], undefined, ['a', 'b']],
  ])('%s', (_name, sets, want, olds) => {
    expect(findNewReplicaSet(d, sets)?.metadata.name).toBe(want);
    expect(names(findOldReplicaSets(d, sets))).toEqual(olds);
  });
});

describe('findActiveOrLatest', () => {
  it.each([
    ['nothing', undefined, [], undefined],
    ['the only active one (new)', other('new', 3), [other('a', 1, 0)], 'new'],
    ['the only active one (old)', other('new', 3, 0), [other('a', 1, 2)], 'a'],
    ['none active: the new one', other('new', 3, 0), [other('a', 1, 0)], 'new'],
    ['none active and no new one: the newest old one', undefined, [other('a', 1, 0), other('b', 2, 0)], 'b'],
    ['several active: none (proportional scaling)', other('new', 3, 1), [other('a', 1, 1)], undefined],
  ])('%s', (_name, newRS, olds, want) => {
    expect(findActiveOrLatest(newRS, olds)?.metadata.name).toBe(want);
  });
});

describe('orders', () => {
  const big = other('big', 1, 5);
  const oldSmall = other('old-small', 1, 2);
  const newSmall = other('new-small', 2, 2);
  it('by size, ties newer first when growing and older first when shrinking', () => {
    expect(names([oldSmall, newSmall, big].sort(bySizeNewer))).toEqual(['big', 'new-small', 'old-small']);
    expect(names([newSmall, oldSmall, big].sort(bySizeOlder))).toEqual(['big', 'old-small', 'new-small']);
  });

  it('by revision, ties by creation time', () => {
    const r = (name: string, revision: string, created: number) => {
      const out = other(name, created);
      out.metadata.annotations = { 'deployment.kubernetes.io/revision': revision };
      return out;
    };
    expect(
      names([r('c', '3', 0), r('b2', '2', 5), r('b1', '2', 4), r('a', '1', 9)].sort(byRevision)),
    ).toEqual(['a', 'b1', 'b2', 'c']);
  });
});
