// nodeLifecycleController's per-zone eviction rates in virtual time: one node per token in a zone down beside a live one, none in a small partially disrupted zone, the secondary rate in a large one, exclusion from disruption checks.
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { Node } from '../../../../operators/api/core-v1.ts';
import { EXCLUDE_DISRUPTION_LABEL } from '../../../../src/controllers/node-lifecycle/node-lifecycle-controller.ts';
import { at, readyAt, type VirtualNodeLifecycle, virtualNodeLifecycle } from './virtual-node-lifecycle.ts';

const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const node = (name: string, zone: string, extra: Record<string, string> = {}): Node => ({
  metadata: { name, creationTimestamp: at(0), labels: { [REGION]: 'region1', [ZONE]: zone, ...extra } },
  spec: {},
  status: { conditions: [readyAt(0)] },
});
const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('nodeLifecycleController per-zone eviction rates (virtual time)', () => {
  let h: VirtualNodeLifecycle;
  afterEach(() => h.stop());

  /** NoExecute taint writes: [seconds after the first, node]. */
  const noExecuteWrites = () => {
    const ws = h.writes.filter(
      (w) =>
        w.verb === 'update nodes' &&
        ((w.object as Node).spec?.taints ?? []).some((t) => t.effect === 'NoExecute'),
    );
    const first = ws[0]?.at ?? 0;
    return ws.map((w) => [(w.at - first) / 1000, w.object.metadata?.name]);
  };

  it('a zone down beside a live one: its nodes are tainted one per 10 s (--node-eviction-rate 0.1)', async () => {
    h = virtualNodeLifecycle([...names('a', 3).map((n) => node(n, 'zone-a')), node('b0', 'zone-b')], []);
    h.alive.add('b0');
    await h.run(100_000);
    expect(noExecuteWrites()).toEqual([
      [0, 'a0'],
      [10, 'a1'],
      [20, 'a2'],
    ]);
    expect(h.passes.at(-1)?.zoneStates).toEqual({
      'region1:\u0000:zone-a': 'FullDisruption',
      'region1:\u0000:zone-b': 'Normal',
    });
    expect(h.passes.flatMap((p) => p.evicted).sort()).toEqual(['a0', 'a1', 'a2']);
  });

  it('counts evictions and reports each zone in upstream’s node_collector metrics', async () => {
    const registry = new Registry();
    h = virtualNodeLifecycle([...names('a', 3).map((n) => node(n, 'zone-a')), node('b0', 'zone-b')], [], {
      metricsRegistry: registry,
    });
    h.alive.add('b0');
    await h.run(100_000);
    const values = async (name: string) =>
      Object.fromEntries(
        (await registry.getSingleMetric(name)!.get()).values.map((v) => [String(v.labels.zone), v.value]),
      );
    const a = 'region1:\u0000:zone-a';
    const b = 'region1:\u0000:zone-b';
    expect(await values('node_collector_evictions_total')).toEqual({ [a]: 3 });
    expect(await values('node_collector_zone_size')).toEqual({ [a]: 3, [b]: 1 });
    expect(await values('node_collector_unhealthy_nodes_in_zone')).toEqual({ [a]: 3, [b]: 0 });
    expect(await values('node_collector_zone_health')).toEqual({ [a]: 0, [b]: 100 });
  });

  it('--node-eviction-rate 1: one per second', async () => {
    h = virtualNodeLifecycle([...names('a', 3).map((n) => node(n, 'zone-a')), node('b0', 'zone-b')], [], {
      nodeEvictionRate: 1,
    });
    h.alive.add('b0');
    await h.run(60_000);
    expect(noExecuteWrites()).toEqual([
      [0, 'a0'],
      [1, 'a1'],
      [2, 'a2'],
    ]);
  });

  it('a small zone partially disrupted (3 of 4 down): nobody is tainted NoExecute there', async () => {
    h = virtualNodeLifecycle([...names('a', 4).map((n) => node(n, 'zone-a')), node('b0', 'zone-b')], []);
    h.alive.add('a3').add('b0');
    await h.run(120_000);
    expect(noExecuteWrites()).toEqual([]);
    expect(h.passes.at(-1)?.zoneStates['region1:\u0000:zone-a']).toBe('PartialDisruption');
    // they do get the NoSchedule taint at once
    const noSchedule = h.writes
      .filter((w) => w.verb === 'update nodes')
      .map((w) => w.object.metadata?.name)
      .sort();
    expect(noSchedule).toEqual(['a0', 'a1', 'a2']);
  });

  it('a large zone partially disrupted: --secondary-node-eviction-rate', async () => {
    h = virtualNodeLifecycle([...names('a', 5).map((n) => node(n, 'zone-a')), node('b0', 'zone-b')], [], {
      largeClusterSizeThreshold: 3,
      secondaryNodeEvictionRate: 0.05,
    });
    h.alive.add('a3').add('a4').add('b0');
    await h.run(100_000);
    // the first goes with the token the zone's limiter held, when the zone was still Normal; then one per 20 s
    const got = noExecuteWrites();
    expect(got.map(([, n]) => n)).toEqual(['a0', 'a1', 'a2']);
    expect(got.map(([s]) => s)).toEqual([0, 20, 40]);
  });

  it('a zone whose only live node is excluded from disruption checks counts as down: no evictions anywhere', async () => {
    h = virtualNodeLifecycle(
      [node('a0', 'zone-a'), node('a1', 'zone-a', { [EXCLUDE_DISRUPTION_LABEL]: '' })],
      [],
    );
    h.alive.add('a1');
    await h.run(100_000);
    expect(noExecuteWrites()).toEqual([]);
    expect(h.passes.at(-1)?.zoneStates).toEqual({ 'region1:\u0000:zone-a': 'FullDisruption' });
  });

  it('a node that comes back leaves the queue before its turn', async () => {
    h = virtualNodeLifecycle([...names('a', 3).map((n) => node(n, 'zone-a')), node('b0', 'zone-b')], []);
    h.alive.add('b0');
    await h.run(50_000); // a0 tainted at 50 s; a1 and a2 queued
    const a1 = h.writes.filter((w) => w.object.metadata?.name === 'a1').at(-1)?.object as Node;
    h.nodes$.next({ type: 'Updated', object: { ...a1, status: { conditions: [readyAt(h.clock.now())] } } });
    h.alive.add('a1');
    await h.run(60_000);
    expect(noExecuteWrites().map(([, n]) => n)).toEqual(['a0', 'a2']);
  });

  it('a node tainted not-ready that goes Unknown has the taint swapped for unreachable at once, without a token', async () => {
    const notReady = {
      ...node('a0', 'zone-a'),
      status: { conditions: [{ ...readyAt(0), status: 'False' as const }] },
    };
    h = virtualNodeLifecycle([notReady, node('b0', 'zone-b')], [], { nodeEvictionRate: 0.01 });
    h.alive.add('a0').add('b0');
    await h.run(10_000);
    expect(noExecuteWrites()).toEqual([[0, 'a0']]);
    const keys = () =>
      (h.writes.filter((w) => w.verb === 'update nodes').at(-1)?.object as Node | undefined)?.spec?.taints
        ?.filter((t) => t.effect === 'NoExecute')
        .map((t) => t.key);
    expect(keys()).toEqual(['node.kubernetes.io/not-ready']);
    h.alive.delete('a0'); // its kubelet stops: 40 s later Unknown, and the next pass swaps the taint
    await h.run(60_000);
    const unknownAt = h.writes.find((w) => w.verb === 'updateStatus nodes')?.at ?? Number.NaN;
    const swappedAt = h.writes.filter((w) => w.verb === 'update nodes').at(-1)?.at ?? Number.NaN;
    expect(keys()).toEqual(['node.kubernetes.io/unreachable']);
    // the zone's limiter (one per 100 s) had no token: the swap did not wait for one
    expect(swappedAt - unknownAt).toBe(5_000);
  });
});
