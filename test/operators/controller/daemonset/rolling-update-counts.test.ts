// Tests of rollingUpdateCounts: upstream's TestGetUnavailableNumbers in our words — desired nodes, maxUnavailable and maxSurge scaled and rounded up, the impossible 0/0 made 1.
import { describe, expect, it } from 'vitest';
import type { IntOrPercent } from '../../../../operators/controller/daemonset/daemon-set-types.ts';
import { rollingUpdateCounts } from '../../../../operators/controller/daemonset/rolling-update-counts.ts';
import { InvalidInputError } from '../../../../operators/errors.ts';
import { daemonSet, node } from './daemon-set-world.ts';

const nodes = (n: number) => Array.from({ length: n }, (_, i) => node(`node-${i}`));
const ds = (maxUnavailable?: IntOrPercent, maxSurge?: IntOrPercent) =>
  daemonSet({
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
        ...(maxSurge !== undefined ? { maxSurge } : {}),
      },
    },
  });

describe('rollingUpdateCounts', () => {
  it.each<[string, number, IntOrPercent | undefined, IntOrPercent | undefined, [number, number, number]]>([
    ['no nodes, maxUnavailable 0', 0, 0, undefined, [0, 0, 0]],
    ['two nodes, maxUnavailable 1', 2, 1, undefined, [2, 0, 1]],
    ['two nodes, 0 and 0 is impossible: maxUnavailable becomes 1', 2, 0, undefined, [2, 0, 1]],
    ['two nodes, surge 1', 2, 0, 1, [2, 1, 0]],
    ['defaults: maxUnavailable 1, maxSurge 0', 3, undefined, undefined, [3, 0, 1]],
    ['50% of two nodes', 2, '50%', undefined, [2, 0, 1]],
    ['25% of five nodes rounds up to 2', 5, '25%', undefined, [5, 0, 2]],
    ['surge 50% of three rounds up to 2', 3, 0, '50%', [3, 2, 0]],
    ['0% and 0% on nodes: maxUnavailable becomes 1', 4, '0%', '0%', [4, 0, 1]],
  ])('%s', (_name, n, unavailable, surge, [desired, maxSurge, maxUnavailable]) => {
    expect(rollingUpdateCounts(ds(unavailable, surge), nodes(n))).toEqual({
      desired,
      maxSurge,
      maxUnavailable,
    });
  });

  it('counts only the nodes that should run a pod', () => {
    const d = ds(1);
    d.spec.template!.spec!.nodeSelector = { role: 'agent' };
    expect(rollingUpdateCounts(d, [node('a', { labels: { role: 'agent' } }), node('b')]).desired).toBe(1);
  });

  it('names the field of a value that is not a percentage', () => {
    expect(() => rollingUpdateCounts(ds('two'), nodes(2))).toThrow(InvalidInputError);
    expect(() => rollingUpdateCounts(ds('two'), nodes(2))).toThrow(
      'daemonset (spec.updateStrategy.rollingUpdate.maxUnavailable)',
    );
    expect(() => rollingUpdateCounts(ds(1, 'lots'), nodes(2))).toThrow(
      'daemonset (spec.updateStrategy.rollingUpdate.maxSurge)',
    );
  });
});
