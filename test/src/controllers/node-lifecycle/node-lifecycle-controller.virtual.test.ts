// nodeLifecycleController in virtual time over in-memory informers: the grace period, the Lease, the taints a pass later, recovery.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Node, NodeCondition, Pod } from '../../../../operators/api/core-v1.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import type { NodeLifecyclePass } from '../../../../src/controllers/node-lifecycle/node-lifecycle-controller.ts';
import type { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import {
  at,
  lease,
  readyAt,
  type VirtualNodeLifecycle,
  virtualNodeLifecycle,
  type Write,
} from './virtual-node-lifecycle.ts';

const node = (ready: NodeCondition, taints: Node['spec'] = {}, name = 'n1'): Node => ({
  metadata: { name, creationTimestamp: at(0) },
  spec: taints,
  status: { conditions: [ready] },
});
const pod: Pod = {
  metadata: { name: 'p', namespace: 'default' },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
};

describe('nodeLifecycleController (virtual time)', () => {
  let h: VirtualNodeLifecycle;
  let writes: Write[];
  let passes: NodeLifecyclePass[];
  let clock: VirtualClock;

  beforeEach(() => {
    // n2 stays healthy (its kubelet renews its Lease) unless a test says otherwise, so the zone is not fully disrupted
    h = virtualNodeLifecycle([node(readyAt(0)), node(readyAt(0), {}, 'n2')], [pod]);
    h.alive.add('n2');
    ({ passes, clock } = h);
    writes = h.writes;
  });
  afterEach(() => h.stop());

  const run = (ms: number) => h.run(ms);
  const readyOf = (n: Node) => n.status?.conditions?.find((c) => c.type === 'Ready');

  it('sets Ready Unknown on the first pass past the grace period, taints NoExecute on the next, marks the pod not ready', async () => {
    await run(40_000);
    expect(writes).toEqual([]);
    await run(5_000);
    const status = writes.filter((w) => w.verb === 'updateStatus nodes');
    expect(status.map((w) => w.at)).toEqual([45_000]);
    expect(readyOf(status[0]!.object as Node)).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      lastHeartbeatTime: at(0),
      lastTransitionTime: at(45_000),
    });
    const notReady = writes.find((w) => w.verb === 'updateStatus pods')?.object as Pod | undefined;
    expect(notReady?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    const taintsAt = (w: { object: KubeObject }) =>
      ((w.object as Node).spec?.taints ?? []).map((t) => `${t.key.split('/')[1]}:${t.effect}`);
    const taintWrites = writes.filter((w) => w.verb === 'update nodes');
    expect(taintWrites.map((w) => [w.at, taintsAt(w)])).toEqual([[45_000, ['unreachable:NoSchedule']]]);
    await run(5_000);
    expect(writes.filter((w) => w.verb === 'update nodes').map((w) => [w.at, taintsAt(w)])).toEqual([
      [45_000, ['unreachable:NoSchedule']],
      [50_000, ['unreachable:NoSchedule', 'unreachable:NoExecute']],
    ]);
    expect(passes.flatMap((p) => p.podsNotReady)).toEqual(['default/p']);
    expect(passes.flatMap((p) => p.errors)).toEqual([]);
  });

  it('keeps the node Ready while its Lease is renewed, whatever the age of its status', async () => {
    for (let t = 10_000; t <= 120_000; t += 10_000) {
      h.leases$.next({ type: 'Updated', object: lease(t) });
      await run(10_000);
    }
    expect(writes).toEqual([]);
  });

  it('removes the taints once the kubelet posts Ready again', async () => {
    await run(50_000);
    expect(writes.some((w) => w.verb === 'update nodes')).toBe(true);
    const tainted = writes.filter((w) => w.verb === 'update nodes').at(-1)!.object as Node;
    h.nodes$.next({
      type: 'Updated',
      object: { ...tainted, status: { conditions: [readyAt(clock.now())] } },
    });
    writes.length = 0;
    await run(5_000);
    expect(writes.map((w) => [w.verb, (w.object as Node).spec?.taints])).toEqual([['update nodes', []]]);
  });

  it('when every node is unheard (all zones fully disrupted) adds no NoExecute taint until a node is back', async () => {
    h.alive.delete('n2');
    await run(50_000);
    const statusWrites = writes
      .filter((w) => w.verb === 'updateStatus nodes')
      .map((w) => w.object.metadata?.name);
    expect(statusWrites.sort()).toEqual(['n1', 'n2']);
    const effects = writes
      .filter((w) => w.verb === 'update nodes')
      .flatMap((w) => ((w.object as Node).spec?.taints ?? []).map((t) => t.effect));
    expect(effects).not.toContain('NoExecute');
    expect(effects).toContain('NoSchedule');
    // n1's kubelet comes back: disruption mode ends; n2, still unheard, is queued, and its zone's limiter
    // (swapped from 0 to 0.1/s, starting empty as upstream's drained bucket) releases it 10 s later
    const n1 = writes.filter((w) => w.object.metadata?.name === 'n1').at(-1)!.object as Node;
    h.nodes$.next({ type: 'Updated', object: { ...n1, status: { conditions: [readyAt(clock.now())] } } });
    writes.length = 0;
    const back = clock.now() + 5_000;
    await run(15_000);
    const tainted = writes
      .filter((w) => w.verb === 'update nodes')
      .map((w) => [
        w.at - back,
        w.object.metadata?.name,
        ((w.object as Node).spec?.taints ?? []).map((t) => t.effect).sort(),
      ]);
    expect(tainted).toEqual([
      [0, 'n1', []],
      [10_000, 'n2', ['NoExecute', 'NoSchedule']],
    ]);
    expect(passes.at(-1)?.zoneStates).toEqual({ '': 'Normal' });
  });
});
