// Property of NodeVolumeLimits: a pod passes Filter exactly when, per driver, the distinct CSI volumes of the node's pods and its own stay within the limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { CycleState } from '../../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { NodeVolumeLimits } from '../../../../../operators/scheduling/plugins/node-volume-limits/node-volume-limits.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
} from '../../../../../operators/scheduling/plugins/volume-lookups.ts';

const DRIVERS = ['a.csi', 'b.csi'];
const VOLUMES = Array.from({ length: 8 }, (_, i) => ({
  claim: `c${i}`,
  driver: DRIVERS[i % 2]!,
  handle: `h${i}`,
}));

const claims: PersistentVolumeClaim[] = VOLUMES.map((v) => ({
  metadata: { name: v.claim, namespace: 'default' },
  spec: { volumeName: `pv-${v.claim}` },
}));
const pvs: PersistentVolume[] = VOLUMES.map((v) => ({
  metadata: { name: `pv-${v.claim}` },
  spec: { csi: { driver: v.driver, volumeHandle: v.handle } },
}));

const podUsing = (name: string, idx: number[]): Pod => ({
  metadata: { name, namespace: 'default', uid: name },
  spec: {
    containers: [{ name: 'c', image: 'pause' }],
    nodeName: 'n',
    volumes: idx.map((i, k) => ({ name: `v${k}`, persistentVolumeClaim: { claimName: VOLUMES[i]!.claim } })),
  },
});

describe('NodeVolumeLimits (property)', () => {
  it('passes exactly when every driver stays within its limit, shared volumes counted once', () => {
    const idx = fc.subarray([0, 1, 2, 3, 4, 5, 6, 7]);
    fc.assert(
      fc.property(
        fc.array(idx, { maxLength: 4 }),
        idx,
        fc.record({ a: fc.integer({ min: 0, max: 5 }), b: fc.integer({ min: 0, max: 5 }) }),
        (existing, mine, limit) => {
          const plugin = new NodeVolumeLimits(
            {
              persistentVolumeClaim: (ns, n) =>
                claims.find((c) => c.metadata?.name === n && ns === 'default'),
              persistentVolume: (n) => pvs.find((p) => p.metadata?.name === n),
              storageClass: () => undefined,
              csiNode: () => ({
                metadata: { name: 'n' },
                spec: {
                  drivers: [
                    { name: 'a.csi', allocatable: { count: limit.a } },
                    { name: 'b.csi', allocatable: { count: limit.b } },
                  ],
                },
              }),
            },
            { randomVolumeIdPrefix: 'r' },
          );
          const nodeInfo = new NodeInfo(
            { metadata: { name: 'n' }, status: { allocatable: { pods: '110' } } } as Node,
            existing.map((e, i) => podUsing(`e${i}`, e)),
          );
          const pod = podUsing('new', mine);
          const state = new CycleState();
          const pre = plugin.preFilter(state, pod);
          const got = pre?.status ? undefined : plugin.filter(state, pod, nodeInfo);
          const onNode = new Set(existing.flat());
          const newOnes = new Set(mine.filter((i) => !onNode.has(i)));
          const count = (driver: string, set: Set<number>) =>
            [...set].filter((i) => VOLUMES[i]!.driver === driver).length;
          const over = (driver: string, max: number) => {
            const adding = count(driver, newOnes);
            return adding > 0 && count(driver, onNode) + adding > max;
          };
          const want = over('a.csi', limit.a) || over('b.csi', limit.b);
          expect(got?.code === 'Unschedulable').toBe(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});
