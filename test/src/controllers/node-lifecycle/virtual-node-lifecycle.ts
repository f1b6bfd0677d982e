// Test harness: nodeLifecycleController in virtual time over in-memory informers, its writes landing back in them as the API server's watch would deliver them.
import { of, Subject } from 'rxjs';
import type { Node, NodeCondition, Pod } from '../../../../operators/api/core-v1.ts';
import type { Lease } from '../../../../operators/leader-election-record.ts';
import type { KubeObject, ReflectorEvent } from '../../../../operators/types.ts';
import {
  type NodeLifecycleConfig,
  type NodeLifecyclePass,
  nodeLifecycleController,
} from '../../../../src/controllers/node-lifecycle/node-lifecycle-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';

export const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const readyAt = (ms: number): NodeCondition => ({
  type: 'Ready',
  status: 'True',
  lastHeartbeatTime: at(ms),
  lastTransitionTime: at(0),
});
export const lease = (ms: number, name = 'n1'): Lease => ({
  metadata: { name, namespace: 'kube-node-lease' },
  spec: { renewTime: new Date(ms).toISOString() },
});

/** One recorded write: the verb and resource (`update nodes`), the object sent, the virtual time. */
export interface Write {
  verb: string;
  object: KubeObject;
  at: number;
}

/** A running controller on a virtual clock. */
export interface VirtualNodeLifecycle {
  clock: VirtualClock;
  nodes$: Subject<ReflectorEvent<Node>>;
  leases$: Subject<ReflectorEvent<Lease>>;
  pods$: Subject<ReflectorEvent<Pod>>;
  writes: Write[];
  passes: NodeLifecyclePass[];
  /** Names of the nodes whose kubelet renews its Lease at every step of {@link run}. */
  alive: Set<string>;
  /** Advances by `ms` in 100 ms steps, renewing the live nodes' Leases every 5 s and letting each pass finish. */
  run(ms: number): Promise<void>;
  stop(): void;
}

/**
 * Starts the controller (monitor period 5 s, grace period 40 s unless `config` says otherwise) on the given
 * nodes and pods, every node's Lease renewed at time 0.
 */
export function virtualNodeLifecycle(
  nodes: Node[],
  pods: Pod[],
  config: Partial<NodeLifecycleConfig> = {},
): VirtualNodeLifecycle {
  const clock = new VirtualClock();
  const nodes$ = new Subject<ReflectorEvent<Node>>();
  const leases$ = new Subject<ReflectorEvent<Lease>>();
  const pods$ = new Subject<ReflectorEvent<Pod>>();
  const writes: Write[] = [];
  const passes: NodeLifecyclePass[] = [];
  const informers = {
    nodes: sharedInformer<Node>({ source: nodes$, scheduler: clock.scheduler }),
    leases: sharedInformer<Lease>({ source: leases$, scheduler: clock.scheduler }),
    pods: sharedInformer<Pod>({ source: pods$, scheduler: clock.scheduler }),
  };
  const factory = {
    forResource: (r: ResourceDescriptor) => informers[r.plural as keyof typeof informers],
  } as unknown as InformerFactory;
  const write = (verb: string) => (r: ResourceDescriptor, object: KubeObject) => {
    writes.push({ verb: `${verb} ${r.plural}`, object, at: clock.now() });
    if (r.plural === 'nodes') nodes$.next({ type: 'Updated', object: object as Node });
    if (r.plural === 'pods') pods$.next({ type: 'Updated', object: object as Pod });
    return of(object);
  };
  const client = {
    updateStatus: write('updateStatus'),
    update: write('update'),
    create: (_r: ResourceDescriptor, o: KubeObject) => of(o),
  } as unknown as ApiClient;
  const sub = nodeLifecycleController({
    client,
    informerFactory: factory,
    nodeMonitorPeriodMs: 5_000,
    nodeMonitorGracePeriodMs: 40_000,
    scheduler: clock.scheduler,
    ...config,
  }).subscribe((p) => passes.push(p));
  const holds = Object.values(informers).map((i) => i.start());
  nodes$.next({ type: 'Replace', items: nodes, resourceVersion: '1' });
  const names = nodes.map((n) => n.metadata.name ?? '');
  leases$.next({ type: 'Replace', items: names.map((n) => lease(0, n)), resourceVersion: '1' });
  pods$.next({ type: 'Replace', items: pods, resourceVersion: '1' });
  const flush = async () => {
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  };
  const alive = new Set<string>();
  return {
    clock,
    nodes$,
    leases$,
    pods$,
    writes,
    passes,
    alive,
    async run(ms) {
      // 100 ms steps (upstream's NodeEvictionPeriod), so each tainting pass can finish before the next tick;
      // the live nodes renew their Leases at every 5 s boundary
      await flush();
      const end = clock.now() + ms;
      while (clock.now() < end) {
        if (clock.now() % 5_000 === 0) {
          for (const name of alive) leases$.next({ type: 'Updated', object: lease(clock.now(), name) });
        }
        await flush();
        clock.advance(Math.min(100, end - clock.now()));
        await flush();
      }
    },
    stop() {
      sub.unsubscribe();
      for (const h of holds) h.unsubscribe();
    },
  };
}
