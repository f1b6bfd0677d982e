// nodeLifecycleController: kube-controller-manager's node lifecycle controller — unresponsive nodes go Unknown, get the node-controller taints, their pods not ready.

import {
  asyncScheduler,
  combineLatest,
  exhaustMap,
  filter,
  first,
  firstValueFrom,
  type Observable,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import type { Node, NodeCondition, Pod } from '../../../operators/api/core-v1.ts';
import { nodeControllerTaints } from '../../../operators/controller/node-lifecycle/node-controller-taints.ts';
import {
  type NodeHealth,
  type NodeHealthStep,
  observeNodeHealth,
} from '../../../operators/controller/node-lifecycle/node-health.ts';
import { computeZoneState, zoneKey } from '../../../operators/controller/node-lifecycle/zone-state.ts';
import { ApiError } from '../../../operators/errors.ts';
import type { Lease } from '../../../operators/leader-election-record.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { LEASES, NODES, PODS } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';

/** The controller's name in `--controllers`. */
export const NODE_LIFECYCLE_CONTROLLER_NAME = 'node-lifecycle-controller';

/** Nodes with this label are left out of the zones' disruption states. */
export const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

/** The namespace of the kubelets' heartbeat Leases. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

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
  /** `--unhealthy-zone-threshold`, default 0.55 (PartialDisruption; only reported in logs for now). */
  unhealthyZoneThreshold?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** What one pass did, by node name. */
export interface NodeLifecyclePass {
  /** Nodes whose conditions were set Unknown. */
  readonly unknown: readonly string[];
  /** Nodes whose taints were rewritten. */
  readonly tainted: readonly string[];
  /** Pods (ns/name) marked not ready. */
  readonly podsNotReady: readonly string[];
  readonly errors: readonly string[];
}

/**
 * Runs the node lifecycle controller while subscribed: once the node, lease and pod caches have synced, a
 * pass every `nodeMonitorPeriodMs` ({@link observeNodeHealth} per node). A node not heard from (neither
 * a new Ready heartbeat nor a renewed Lease in kube-node-lease) for the grace period gets its Ready,
 * MemoryPressure, DiskPressure and PIDPressure conditions Unknown (a status update); on that transition
 * from Ready True the event NodeNotReady is recorded and its pods' Ready conditions are set False. Each
 * pass also writes the node-controller taints ({@link nodeControllerTaints}): NoSchedule by condition at
 * once, NoExecute not-ready/unreachable from the Ready condition the pass observed (so one pass after the
 * status write, as upstream). Nodes are grouped in zones (topology labels); when every zone is
 * FullDisruption (no node Ready) the controller assumes it, not the nodes, is cut off: it enters master
 * disruption mode, removes the NoExecute taints and adds none until a node is Ready again, when it resets
 * every node's probe timestamp. Not done: eviction rate limiting per zone (--node-eviction-rate,
 * --secondary-node-eviction-rate; every node is tainted at once, PartialDisruption changes nothing), label
 * reconciliation, RegisteredNode/RemovingNode events. Passes never overlap; a failed write is retried on the
 * next pass.
 *
 * Teardown: unsubscribing stops the timer and abandons the pass in flight.
 * @param config the client, the shared factory and the periods
 * @returns one value per pass
 */
export function nodeLifecycleController(config: NodeLifecycleConfig): Observable<NodeLifecyclePass> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const period = config.nodeMonitorPeriodMs ?? 5_000;
  const grace = {
    monitorGracePeriodMs: config.nodeMonitorGracePeriodMs ?? 40_000,
    startupGracePeriodMs: config.nodeStartupGracePeriodMs ?? 60_000,
  };
  const { client } = config;
  const nodes = config.informerFactory.forResource<Node>(NODES);
  const leases = config.informerFactory.forResource<Lease>(LEASES);
  const pods = config.informerFactory.forResource<Pod>(PODS);
  const record = controllerEventRecorder(client, 'node-controller', logger, () => scheduler.now());
  const healthByNode = new Map<string, NodeHealth>();
  const retryPods = new Set<string>();
  const unhealthyZoneThreshold = config.unhealthyZoneThreshold ?? 0.55;
  let disruptionMode = false;

  const markPodsNotReady = async (nodeName: string, out: string[], errors: string[]): Promise<boolean> => {
    let ok = true;
    const stamp = new Date(scheduler.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
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

  type Pass = { unknown: string[]; tainted: string[]; podsNotReady: string[]; errors: string[] };

  /** Phase 1 of a node: its health, and the status write when it went unheard for the grace period. */
  const checkHealth = async (node: Node, pass: Pass) => {
    const name = node.metadata.name ?? '';
    const lease = leases.getStore().getByKey(`${NODE_LEASE_NAMESPACE}/${name}`) as Lease | undefined;
    const step = observeNodeHealth(
      healthByNode.get(name),
      node,
      lease?.spec?.renewTime,
      scheduler.now(),
      grace,
    );
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

  /** Phase 3 of a node: its taints (NoExecute only outside disruption mode) and, on the transition, its pods. */
  const applyTaints = async (latest: Node, step: NodeHealthStep, noExecute: boolean, pass: Pass) => {
    const name = latest.metadata.name ?? '';
    if (!step.currentReady) return;
    const taints = nodeControllerTaints(latest, step.observedReady, scheduler.now(), noExecute);
    if (taints) {
      await firstValueFrom(client.update<Node>(NODES, { ...latest, spec: { ...latest.spec, taints } }));
      pass.tainted.push(name);
    }
    const becameNotReady = step.currentReady.status !== 'True' && step.observedReady.status === 'True';
    if (becameNotReady) {
      const ref = { ...latest, apiVersion: 'v1', kind: 'Node' };
      record(ref, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    }
    if (becameNotReady || (retryPods.has(name) && step.observedReady.status !== 'True')) {
      if (await markPodsNotReady(name, pass.podsNotReady, pass.errors)) retryPods.delete(name);
      else retryPods.add(name);
    }
  };

  /** Phase 2: zone states; every zone fully disrupted means the control plane, not the nodes, is cut off. */
  const updateDisruptionMode = (checked: readonly { node: Node; step: NodeHealthStep }[]) => {
    const zones = new Map<string, (NodeCondition | undefined)[]>();
    for (const { node, step } of checked) {
      if (node.metadata.labels?.[EXCLUDE_DISRUPTION_LABEL] !== undefined) continue;
      const key = zoneKey(node);
      zones.set(key, [...(zones.get(key) ?? []), step.currentReady]);
    }
    if (zones.size === 0) return;
    const states = [...zones.values()].map((c) => computeZoneState(c, unhealthyZoneThreshold).state);
    const allFullyDisrupted = states.every((state) => state === 'FullDisruption');
    if (allFullyDisrupted && !disruptionMode) {
      logger.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      disruptionMode = true;
    } else if (!allFullyDisrupted && disruptionMode) {
      logger.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      const now = scheduler.now();
      for (const [name, health] of healthByNode) {
        healthByNode.set(name, { ...health, probeTimestamp: now, readyTransitionTimestamp: now });
      }
      disruptionMode = false;
    }
  };

  const monitor = async (): Promise<NodeLifecyclePass> => {
    const pass: Pass = { unknown: [], tainted: [], podsNotReady: [], errors: [] };
    const list = nodes.getStore().list() as Node[];
    const present = new Set(list.map((n) => n.metadata.name ?? ''));
    for (const name of [...healthByNode.keys()]) if (!present.has(name)) healthByNode.delete(name);
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
    updateDisruptionMode(checked);
    for (const { node, step } of checked) {
      try {
        await applyTaints(node, step, !disruptionMode, pass);
      } catch (error) {
        failed(node, error);
      }
    }
    return pass;
  };

  logger.info('Starting node controller');
  return combineLatest([nodes.hasSynced$, leases.hasSynced$, pods.hasSynced$]).pipe(
    filter((synced) => synced.every(Boolean)),
    first(),
    switchMap(() => timer(0, period, scheduler)),
    exhaustMap(() => monitor()),
  );
}
