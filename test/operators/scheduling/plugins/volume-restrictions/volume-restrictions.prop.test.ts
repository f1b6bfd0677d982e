// Property of VolumeRestrictions' what-if extensions: after removing and re-adding scheduled pods the ReadWriteOncePod verdict follows the pods present.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { CycleState, type FrameworkHandle } from '../../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo, newPodInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import type { PersistentVolumeClaim } from '../../../../../operators/scheduling/plugins/volume-lookups.ts';
import { VolumeRestrictions } from '../../../../../operators/scheduling/plugins/volume-restrictions/volume-restrictions.ts';
import { FakeLister } from '../../framework/fixtures.ts';

const CLAIMS = ['c0', 'c1', 'c2', 'c3'];
const pvcs: PersistentVolumeClaim[] = CLAIMS.map((c, i) => ({
  metadata: { name: c, namespace: 'default' },
  spec: { accessModes: [i % 2 === 0 ? 'ReadWriteOncePod' : 'ReadWriteOnce'] },
}));
const podUsing = (name: string, claims: string[], node?: string): Pod => ({
  metadata: { name, namespace: 'default', uid: name },
  spec: {
    containers: [{ name: 'c', image: 'pause' }],
    ...(node ? { nodeName: node } : {}),
    volumes: claims.map((c, k) => ({ name: `v${k}`, persistentVolumeClaim: { claimName: c } })),
  },
});

describe('VolumeRestrictions what-ifs (property)', () => {
  it('the verdict is Unschedulable exactly while another pod mounts one of its ReadWriteOncePod claims', () => {
    fc.assert(
      fc.property(
        fc.array(fc.subarray(CLAIMS), { maxLength: 4 }),
        fc.subarray(CLAIMS, { minLength: 1 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        (scheduled, mine, removals) => {
          // A ReadWriteOncePod claim is mounted by one pod at most (the API and kubelet enforce it).
          const taken = new Set<string>();
          const existing = scheduled.map((claims, i) => {
            const allowed = claims.filter((c) => CLAIMS.indexOf(c) % 2 === 1 || !taken.has(c));
            for (const c of allowed) taken.add(c);
            return podUsing(`e${i}`, allowed, 'n');
          });
          const nodeInfo = new NodeInfo({ metadata: { name: 'n' } } as Node, existing);
          const handle = { snapshot: () => new FakeLister([nodeInfo]) } as unknown as FrameworkHandle;
          const plugin = new VolumeRestrictions(handle, {
            persistentVolumeClaim: (_ns, n) => pvcs.find((p) => p.metadata?.name === n),
          });
          const pod = podUsing('new', mine);
          const state = new CycleState();
          const pre = plugin.preFilter(state, pod);
          const rwop = new Set(mine.filter((c) => CLAIMS.indexOf(c) % 2 === 0));
          const verdict = (present: Pod[]) =>
            present.some((p) =>
              (p.spec.volumes ?? []).some((v) => rwop.has(v.persistentVolumeClaim!.claimName)),
            );
          if (pre?.status) {
            expect(pre.status.code).toBe('Skip');
            expect(verdict(existing)).toBe(false);
            return;
          }
          const present = [...existing];
          const what = state.clone();
          const ext = plugin.preFilterExtensions();
          for (const r of removals) {
            if (present.length === 0) break;
            const [gone] = present.splice(r % present.length, 1);
            ext.removePod(what, pod, newPodInfo(gone!), nodeInfo);
            expect(
              plugin.filter(what, pod, new NodeInfo({ metadata: { name: 'n' } } as Node))?.code ===
                'Unschedulable',
            ).toBe(verdict(present));
          }
          for (const p of existing.filter((e) => !present.includes(e)))
            ext.addPod(what, pod, newPodInfo(p), nodeInfo);
          expect(
            plugin.filter(what, pod, new NodeInfo({ metadata: { name: 'n' } } as Node))?.code ===
              'Unschedulable',
          ).toBe(verdict(existing));
        },
      ),
      { numRuns: 300 },
    );
  });
});
