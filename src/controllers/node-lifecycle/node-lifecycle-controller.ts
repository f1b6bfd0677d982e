// nodeLifecycleController: kube-controller-manager's node lifecycle controller — unresponsive nodes go Unknown, get the node-controller taints (NoExecute rate-limited per zone), their pods not ready.

import type { Registry } from 'prom-client';
import {
  asyncScheduler,
  combineLatest,
  EMPTY,
  exhaustMap,
  filter,
  first,
  firstValueFrom,
  from,
  map,
  merge,
  type Observable,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import type { Node, NodeCondition, Pod, Taint } from '../../../operators/api/core-v1.ts';
import {
  nodeControllerTaints,
  noExecuteTaintKey,
  swapNoExecuteTaint,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
} from '../../../operators/controller/node-lifecycle/node-controller-taints.ts';
import {
  type NodeHealth,
  type NodeHealthStep,
  observeNodeHealth,
} from '../../../operators/controller/node-lifecycle/node-health.ts';
import {
  DEFAULT_ZONE_EVICTION_RATES,
  type KnownZoneState,
  planZoneDisruption,
} from '../../../operators/controller/node-lifecycle/plan-zone-disruption.ts';
import { RateLimitedTimedQueue } from '../../../operators/controller/node-lifecycle/rate-limited-timed-queue.ts';
import { computeZoneState, zoneKey } from '../../../operators/controller/node-lifecycle/zone-state.ts';
import { ApiError } from '../../../operators/errors.ts';
import type { Lease } from '../../../operators/leader-election-record.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { LEASES, NODES, PODS } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';
import { nodeLifecycleMetrics } from './node-lifecycle-metrics.ts';

/** The controller's name in `--controllers`. */
export const NODE_LIFECYCLE_CONTROLLER_NAME = 'node-lifecycle-controller';

/** Nodes with this label are left out of the zones' disruption states. */
export const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

/** The namespace of the kubelets' heartbeat Leases. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** How often the NoExecute tainters are tried (upstream's NodeEvictionPeriod). */
export const NODE_EVICTION_PERIOD_MS = 100;

/** Settings of {@link nodeLifecycleController}; defaults are upstream's (grace period: kube-rx's 40 s). */
export interface NodeLifecycleConfig {
  client: ApiClient;
  /** The shared factory (nodes, leases, pods); the controller manager starts it. */
  informerFactory: InformerFactory;
  /** `--node-monitor-period`, default 5 s. */
  nodeMonitorPeriodMs?: number;
  /** `--node-monitor-grace-period`, default 40 s (upstream's later default 50 s). */
  nodeMonitorGracePeriodMs?: number;
  /** `--node-startup-grace-period`, default 1 m. */
  nodeStartupGracePeriodMs?: number;
  /** `--node-eviction-rate`: nodes NoExecute-tainted per second per healthy zone; default 0.1. */
  nodeEvictionRate?: number;
  /** `--secondary-node-eviction-rate`: per second in a partially disrupted large zone; default 0.01. */
  secondaryNodeEvictionRate?: number;
  /** `--large-cluster-size-threshold`: a zone of more nodes is large; default 50. */
  largeClusterSizeThreshold?: number;
  /** `--unhealthy-zone-threshold`: the not-Ready share that makes a zone PartialDisruption; default 0.55. */
  unhealthyZoneThreshold?: number;
  /** Where `node_collector_evictions_total{zone}` and the zone gauges are registered, if served. */
  metricsRegistry?: Registry;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** What one pass did, by node name. */
export interface NodeLifecyclePass {
  /** Nodes whose conditions were set Unknown. */
  readonly unknown: readonly string[];
  /** Nodes whose taints were rewritten by the monitor pass (NoSchedule, a not-ready ⇄ unreachable swap, removal). */
  readonly tainted: readonly string[];
  /** Nodes the rate-limited tainters gave a NoExecute taint (upstream's node_collector_evictions_total). */
  readonly evicted: readonly string[];
  /** Pods (ns/name) marked not ready. */
  readonly podsNotReady: readonly string[];
  /** Every zone's state after the pass (`Initial` before its first); empty for a tainting pass. */
  readonly zoneStates: Readonly<Record<string, KnownZoneState>>;
  readonly errors: readonly string[];
}

type Pass = {
  unknown: string[];
  tainted: string[];
  evicted: string[];
  podsNotReady: string[];
  zoneStates: Record<string, KnownZoneState>;
  errors: string[];
};
const newPass = (): Pass => ({
  unknown: [],
  tainted: [],
  evicted: [],
  podsNotReady: [],
  zoneStates: {},
  errors: [],
});
const TAINT_RETRIES = 5;
const conflict = (e: unknown) => e instanceof ApiError && e.statusCode === 409;
const hasNoExecute = (node: Node, key: string) =>
  (node.spec?.taints ?? []).some((t) => t.effect === 'NoExecute' && t.key === key);

/**
 * Runs the node lifecycle controller while subscribed: once the node, lease and pod caches have synced, a
 * pass every `nodeMonitorPeriodMs` ({@link observeNodeHealth} per node). A node not heard from (neither
 * a new Ready heartbeat nor a renewed Lease in kube-node-lease) for the grace period gets its Ready,
 * MemoryPressure, DiskPressure and PIDPressure conditions Unknown (a status update); on that transition
 * from Ready True the event NodeNotReady is recorded and its pods' Ready conditions are set False.
 *
 * Taints: each pass writes the NoSchedule taints by condition ({@link nodeControllerTaints}). NoExecute
 * follows the Ready condition the pass observed (so one pass after the status write, as upstream), through
 * a rate-limited queue per zone (upstream's zoneNoExecuteTainter): a not-Ready node is queued, and the queue
 * releases one node per token of its zone's limiter — `--node-eviction-rate` (0.1/s) while the zone is
 * Normal or FullDisruption, `--secondary-node-eviction-rate` (0.01/s) while PartialDisruption in a zone of
 * more than `--large-cluster-size-threshold` nodes, none in a smaller one ({@link planZoneDisruption}). The
 * queues are tried after each pass and every 100 ms. A node already NoExecute-tainted has not-ready and
 * unreachable swapped at once, and a Ready node has them removed at once (and leaves the queue). When every
 * zone is FullDisruption the controller assumes it, not the nodes, is cut off: it removes every NoExecute
 * taint and taints nothing more until a node is Ready again, when it resets every node's probe timestamp.
 * Nodes labelled node.kubernetes.io/exclude-disruption are left out of the zones' states. Events:
 * RegisteredNode, RemovingNode, NodeNotReady. Metrics (with `metricsRegistry`): node_collector_evictions_total,
 * node_collector_zone_health, node_collector_zone_size, node_collector_unhealthy_nodes_in_zone. Not done:
 * label reconciliation.
 * Passes never overlap; a failed write is retried on the next pass.
 *
 * Teardown: unsubscribing stops the timers and abandons the pass in flight.
 * @param config the client, the shared factory, the periods and the eviction rates
 * @returns one value per monitor pass, and one per tainting pass that tainted a node or failed
 */
export function nodeLifecycleController(config: NodeLifecycleConfig): Observable<NodeLifecyclePass> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const period = config.nodeMonitorPeriodMs ?? 5_000;
  const grace = {
    monitorGracePeriodMs: config.nodeMonitorGracePeriodMs ?? 40_000,
    startupGracePeriodMs: config.nodeStartupGracePeriodMs ?? 60_000,
  };
  const rates = {
    evictionQPS: config.nodeEvictionRate ?? DEFAULT_ZONE_EVICTION_RATES.evictionQPS,
    secondaryEvictionQPS:
      config.secondaryNodeEvictionRate ?? DEFAULT_ZONE_EVICTION_RATES.secondaryEvictionQPS,
    largeClusterThreshold:
      config.largeClusterSizeThreshold ?? DEFAULT_ZONE_EVICTION_RATES.largeClusterThreshold,
    unhealthyZoneThreshold:
      config.unhealthyZoneThreshold ?? DEFAULT_ZONE_EVICTION_RATES.unhealthyZoneThreshold,
  };
  const { client } = config;
  const nodes = config.informerFactory.forResource<Node>(NODES);
  const leases = config.informerFactory.forResource<Lease>(LEASES);
  const pods = config.informerFactory.forResource<Pod>(PODS);
  const record = controllerEventRecorder(client, 'node-controller', logger, () => scheduler.now());
  const metrics = nodeLifecycleMetrics(config.metricsRegistry);
  const healthByNode = new Map<string, NodeHealth>();
  const retryPods = new Set<string>();
  const knownNodes = new Map<string, Node>();
  let zoneStates: ReadonlyMap<string, KnownZoneState> = new Map();
  const tainters = new Map<string, RateLimitedTimedQueue>();
  // A pass reads the clock once, at its tick: its awaits may resume after the clock has moved on.
  let passTime: number | undefined;
  const now = () => passTime ?? scheduler.now();
  const timed =
    <T>(work: () => Promise<T>) =>
    async (): Promise<T> => {
      passTime = scheduler.now();
      try {
        return await work();
      } finally {
        passTime = undefined;
      }
    };
  const nodeRef = (node: Node) => ({ ...node, apiVersion: 'v1', kind: 'Node' });

  /** A zone seen for the first time (or again after it emptied) gets a fresh tainter at the eviction rate. */
  const ensureZone = (zone: string) => {
    if (zoneStates.has(zone)) return;
    zoneStates = new Map([...zoneStates, [zone, 'Initial']]);
    tainters.set(zone, new RateLimitedTimedQueue(rates.evictionQPS, now()));
  };
  const tainterOf = (node: Node) => {
    const zone = zoneKey(node);
    if (!tainters.has(zone)) ensureZone(zone);
    return tainters.get(zone) as RateLimitedTimedQueue;
  };

  /**
   * Rewrites a node's taints (`change` gives the new ones or undefined for none needed); on a conflict it
   * reads the node again and retries, as upstream's taint helpers do. Returns the node as written.
   */
  const updateTaints = async (
    node: Node,
    change: (n: Node) => Taint[] | undefined,
  ): Promise<Node | undefined> => {
    let current = node;
    for (let attempt = 1; ; attempt++) {
      const taints = change(current);
      if (!taints) return undefined;
      try {
        return await firstValueFrom(
          client.update<Node>(NODES, { ...current, spec: { ...current.spec, taints } }),
        );
      } catch (error) {
        if (!conflict(error) || attempt >= TAINT_RETRIES) throw error;
        current = await firstValueFrom(client.get<Node>(NODES, current.metadata.name ?? ''));
      }
    }
  };

  /** Upstream's markNodeAsReachable: the NoExecute taints go and the node leaves its zone's queue. */
  const markNodeAsReachable = async (node: Node, pass: Pass): Promise<Node> => {
    const written = await updateTaints(node, (n) => swapNoExecuteTaint(n.spec?.taints, undefined, now()));
    if (written) pass.tainted.push(node.metadata.name ?? '');
    tainterOf(node).remove(node.metadata.name ?? '');
    return written ?? node;
  };

  const markPodsNotReady = async (nodeName: string, out: string[], errors: string[]): Promise<boolean> => {
    let ok = true;
    const stamp = new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    for (const pod of (pods.getStore().list() as Pod[]).filter((p) => p.spec.nodeName === nodeName)) {
      const conditions = pod.status?.conditions ?? [];
      const ready = conditions.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
      const updated = conditions.map((c) =>
        c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: stamp } : c,
      );
      try {
        await firstValueFrom(
          client.updateStatus(PODS, { ...pod, status: { ...pod.status, conditions: updated } } as Pod, {
            namespace: pod.metadata.namespace ?? '',
          }),
        );
        record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'NodeNotReady', 'Node is not ready');
        out.push(key);
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 404) continue; // already gone
        ok = false;
        errors.push(`pod ${key}: ${String(error)}`);
      }
    }
    return ok;
  };

  /** Phase 1 of a node: its health, and the status write when it went unheard for the grace period. */
  const checkHealth = async (node: Node, pass: Pass) => {
    const name = node.metadata.name ?? '';
    const lease = leases.getStore().getByKey(`${NODE_LEASE_NAMESPACE}/${name}`) as Lease | undefined;
    const step = observeNodeHealth(healthByNode.get(name), node, lease?.spec?.renewTime, now(), grace);
    let latest = node;
    if (step.conditions) {
      latest = await firstValueFrom(
        client.updateStatus<Node>(NODES, {
          ...node,
          status: { ...node.status, conditions: step.conditions },
        }),
      );
      logger.info({ node: name }, 'Node is unresponsive; conditions set Unknown');
      pass.unknown.push(name);
    }
    healthByNode.set(name, step.health);
    return { node: latest, step };
  };

  /**
   * Phase 2 of a node: the NoSchedule taints, upstream's processTaintBaseEviction (an immediate not-ready ⇄
   * unreachable swap, queueing for the tainter, or removal when Ready) in one write, and on the transition
   * to not Ready its pods.
   */
  const applyTaints = async (latest: Node, step: NodeHealthStep, pass: Pass): Promise<Node> => {
    const name = latest.metadata.name ?? '';
    if (!step.currentReady) return latest;
    const observed = step.observedReady.status;
    const key = noExecuteTaintKey(observed);
    const opposite = key === TAINT_NODE_NOT_READY ? TAINT_NODE_UNREACHABLE : TAINT_NODE_NOT_READY;
    const swapNow = key !== undefined && hasNoExecute(latest, opposite);
    const withNoSchedule = (n: Node): Node => {
      const taints = nodeControllerTaints(n, step.observedReady, now(), 'keep');
      return taints ? { ...n, spec: { ...n.spec, taints } } : n;
    };
    const change = (n: Node) => {
      const base = withNoSchedule(n);
      const noExecute =
        key === undefined || swapNow ? swapNoExecuteTaint(base.spec?.taints, key, now()) : undefined;
      const taints = noExecute ?? base.spec?.taints ?? [];
      return base === n && !noExecute ? undefined : taints;
    };
    const written = await updateTaints(latest, change);
    if (written) pass.tainted.push(name);
    const node = written ?? latest;
    const tainter = tainterOf(node);
    if (key === undefined) tainter.remove(name);
    else if (!swapNow) {
      // queued again from the back unless the node already carries the wanted taint (upstream's markNodeForTainting)
      if (!hasNoExecute(node, key)) tainter.remove(name);
      tainter.add(name, node.metadata.uid ?? '', now());
    }
    const becameNotReady = step.currentReady.status !== 'True' && observed === 'True';
    if (becameNotReady)
      record(nodeRef(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    if (becameNotReady || (retryPods.has(name) && observed !== 'True')) {
      if (await markPodsNotReady(name, pass.podsNotReady, pass.errors)) retryPods.delete(name);
      else retryPods.add(name);
    } else retryPods.delete(name);
    return node;
  };

  /** Phase 3: zone states and their tainters' rates; every zone fully disrupted means the control plane is cut off. */
  const handleDisruption = async (checked: readonly { node: Node; step: NodeHealthStep }[], pass: Pass) => {
    const zones = new Map<string, (NodeCondition | undefined)[]>();
    for (const { node, step } of checked) {
      if (node.metadata.labels?.[EXCLUDE_DISRUPTION_LABEL] !== undefined) continue;
      const key = zoneKey(node);
      zones.set(key, [...(zones.get(key) ?? []), step.currentReady]);
    }
    const plan = planZoneDisruption(zoneStates, zones, rates);
    for (const [zone, conditions] of zones) {
      metrics.zone(
        zone,
        conditions.length,
        computeZoneState(conditions, rates.unhealthyZoneThreshold).unhealthy,
      );
    }
    for (const zone of zoneStates.keys()) if (!zones.has(zone)) metrics.zone(zone, 0, 0);
    if (plan.mode === 'enter') {
      logger.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const { node } of checked) {
        try {
          await markNodeAsReachable(node, pass);
        } catch (error) {
          pass.errors.push(`node ${node.metadata.name}: ${String(error)}`);
          logger.error({ node: node.metadata.name }, 'Failed to remove taints from Node');
        }
      }
    } else if (plan.mode === 'exit') {
      logger.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      const at = now();
      for (const [name, health] of healthByNode) {
        healthByNode.set(name, { ...health, probeTimestamp: at, readyTransitionTimestamp: at });
      }
    }
    for (const [zone, qps] of plan.limiters) {
      if (!plan.mode && zoneStates.get(zone) !== plan.states.get(zone)) {
        logger.info(
          { zone, newState: plan.states.get(zone) },
          'Controller detected that zone is now in new state',
        );
      }
      tainters.get(zone)?.swapLimiter(qps, now());
    }
    zoneStates = plan.states;
  };

  /** Upstream's doNoExecuteTaintingPass: each zone's queue releases the nodes its limiter allows. */
  const taintingPass = async (pass: Pass) => {
    for (const tainter of tainters.values()) {
      for (let value = tainter.next(now()); value; value = tainter.next(now())) {
        const node = nodes.getStore().getByKey(value.value) as Node | undefined;
        if (!node) {
          tainter.remove(value.value);
          continue;
        }
        const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
        if (!ready) {
          tainter.retryAt(value, now() + 50);
          continue;
        }
        const key = noExecuteTaintKey(ready.status);
        if (key === undefined) {
          tainter.done(value); // Ready again: no need to taint it
          continue;
        }
        try {
          await updateTaints(node, (n) => swapNoExecuteTaint(n.spec?.taints, key, now()));
          tainter.done(value);
          pass.evicted.push(value.value);
          metrics.evicted(zoneKey(node));
        } catch (error) {
          tainter.retryAt(value, now() + 1);
          pass.errors.push(`node ${value.value}: ${String(error)}`);
        }
      }
    }
  };

  /** Nodes new to the controller (RegisteredNode; their NoExecute taints go) and nodes gone (RemovingNode). */
  const classifyNodes = async (list: readonly Node[], pass: Pass) => {
    const present = new Set<string>();
    for (const node of list) {
      const name = node.metadata.name ?? '';
      present.add(name);
      if (knownNodes.has(name)) {
        ensureZone(zoneKey(node));
        continue;
      }
      logger.info({ node: name }, 'Controller observed a new Node');
      record(nodeRef(node), 'Normal', 'RegisteredNode', `Registered Node ${name} in Controller`);
      knownNodes.set(name, node);
      ensureZone(zoneKey(node));
      try {
        await markNodeAsReachable(node, pass);
      } catch (error) {
        pass.errors.push(`node ${name}: ${String(error)}`);
      }
    }
    for (const [name, node] of knownNodes) {
      if (present.has(name)) continue;
      logger.info({ node: name }, 'Controller observed a Node deletion');
      record(nodeRef(node), 'Normal', 'RemovingNode', `Removing Node ${name} from Controller`);
      knownNodes.delete(name);
      healthByNode.delete(name);
      retryPods.delete(name);
    }
  };

  const monitor = async (): Promise<NodeLifecyclePass> => {
    const pass = newPass();
    const list = nodes.getStore().list() as Node[];
    await classifyNodes(list, pass);
    const failed = (node: Node, error: unknown) => {
      pass.errors.push(`node ${node.metadata.name}: ${String(error)}`);
      logger.error({ node: node.metadata.name, err: String(error) }, 'Error updating node');
    };
    const checked: { node: Node; step: NodeHealthStep }[] = [];
    for (const node of list) {
      try {
        checked.push(await checkHealth(node, pass));
      } catch (error) {
        failed(node, error);
      }
    }
    for (const entry of checked) {
      try {
        entry.node = await applyTaints(entry.node, entry.step, pass);
      } catch (error) {
        failed(entry.node, error);
      }
    }
    await handleDisruption(checked, pass);
    await taintingPass(pass);
    pass.zoneStates = Object.fromEntries(zoneStates);
    return pass;
  };

  // Passes of both kinds run one at a time (they write the same nodes' taints); a pass starts at once when
  // none is running, so it reads the clock at its tick.
  let tail: Promise<void> | undefined;
  let inFlight = 0;
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const started = tail && inFlight > 0 ? tail.then(work) : work();
    inFlight++;
    tail = started.then(
      () => {
        inFlight--;
      },
      () => {
        inFlight--;
      },
    );
    return started;
  };
  const queued = () => [...tainters.values()].some((t) => t.values.length > 0);

  logger.info('Starting node controller');
  return combineLatest([nodes.hasSynced$, leases.hasSynced$, pods.hasSynced$]).pipe(
    filter((synced) => synced.every(Boolean)),
    first(),
    switchMap(() =>
      merge(
        timer(0, period, scheduler).pipe(exhaustMap(() => serial(timed(monitor)))),
        timer(NODE_EVICTION_PERIOD_MS, NODE_EVICTION_PERIOD_MS, scheduler).pipe(
          exhaustMap(() => {
            if (!queued()) return EMPTY;
            return from(
              serial(
                timed(async () => {
                  const pass = newPass();
                  await taintingPass(pass);
                  return pass;
                }),
              ),
            );
          }),
          filter((pass) => pass.evicted.length > 0 || pass.errors.length > 0),
          map((pass) => pass as NodeLifecyclePass),
        ),
      ),
    ),
  );
}
