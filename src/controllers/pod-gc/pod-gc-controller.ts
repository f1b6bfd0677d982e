// podGCController: kube-controller-manager's pod garbage collector — terminated pods beyond the threshold, orphans of deleted nodes, stuck terminating pods.

import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Counter, Registry } from 'prom-client';
import {
  asyncScheduler,
  exhaustMap,
  firstValueFrom,
  type Observable,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import type { Node, Pod, PodCondition } from '../../../operators/api/core-v1.ts';
import {
  missingNodeNames,
  type PodGCReason,
  podGCPlan,
} from '../../../operators/controller/pod-gc/pod-gc-plan.ts';
import { ApiError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { NODES, PODS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const POD_GC_CONTROLLER_NAME = 'pod-garbage-collector-controller';

/** Settings of {@link podGCController}. */
export interface PodGCConfig {
  client: ApiClient;
  /** The shared factory (pods and nodes); the controller manager starts it. */
  informerFactory: InformerFactory;
  /** `--terminated-pod-gc-threshold`: terminated pods kept; ≤ 0 disables that rule. */
  terminatedPodThreshold: number;
  /** How often a pass runs; upstream's 20 s. */
  gcCheckPeriodMs?: number;
  /** How long a node must be missing from the informer before the API is asked about it; upstream's 40 s. */
  quarantineMs?: number;
  /** Registers `pod_gc_collector_force_delete_pods_total` and `..._errors_total` here. */
  metricsRegistry?: Registry;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** What one pass did. */
export interface PodGCPass {
  readonly deleted: readonly { pod: string; reason: PodGCReason }[];
  readonly failed: readonly { pod: string; reason: PodGCReason; error: string }[];
}

const notFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;

function counters(registry: Registry | undefined): { deleted?: Counter<string>; errors?: Counter<string> } {
  if (!registry) return {};
  const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;
  const make = (name: string, help: string) =>
    (registry.getSingleMetric(name) as Counter<string> | undefined) ??
    new prom.Counter({ name, help, labelNames: ['namespace', 'reason'], registers: [registry] });
  return {
    deleted: make(
      'pod_gc_collector_force_delete_pods_total',
      'Number of pods that are being forcefully deleted since the Pod GC Controller started.',
    ),
    errors: make(
      'pod_gc_collector_force_delete_pod_errors_total',
      'Number of errors encountered when forcefully deleting the pods since the Pod GC Controller started.',
    ),
  };
}

/**
 * Runs the pod garbage collector while subscribed: once the pod and node caches have synced, a pass every
 * `gcCheckPeriodMs` ({@link podGCPlan}'s four rules). A node missing from the informer is quarantined for
 * `quarantineMs`, then looked up in the API; only when the API says it is gone are its pods collected. Each
 * collected pod that has not finished is first patched to phase Failed (orphans with the DisruptionTarget
 * condition, reason DeletionByPodGC, "PodGC: node no longer exists"), then deleted with grace period 0.
 * Passes never overlap.
 *
 * Teardown: unsubscribing stops the timer and abandons the pass in flight.
 * @param config the client, the shared factory, the threshold and the periods
 * @returns one value per pass
 */
export function podGCController(config: PodGCConfig): Observable<PodGCPass> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const period = config.gcCheckPeriodMs ?? 20_000;
  const quarantine = config.quarantineMs ?? 40_000;
  const pods = config.informerFactory.forResource<Pod>(PODS);
  const nodes = config.informerFactory.forResource<Node>(NODES);
  const metrics = counters(config.metricsRegistry);
  const missingSince = new Map<string, number>();

  const deletedNodes = async (missing: ReadonlySet<string>): Promise<Set<string>> => {
    const now = scheduler.now();
    for (const name of [...missingSince.keys()]) if (!missing.has(name)) missingSince.delete(name);
    for (const name of missing) if (!missingSince.has(name)) missingSince.set(name, now);
    const gone = new Set<string>();
    for (const [name, since] of missingSince) {
      if (now - since < quarantine) continue;
      try {
        await firstValueFrom(config.client.get(NODES, name));
        missingSince.delete(name);
      } catch (error) {
        if (notFound(error)) gone.add(name);
        else logger.error({ node: name, err: String(error) }, 'Error while getting node');
      }
    }
    return gone;
  };

  const failAndDelete = async (pod: Pod, condition?: PodCondition): Promise<void> => {
    const { namespace = '', name = '' } = pod.metadata;
    logger.info({ pod: `${namespace}/${name}` }, 'PodGC is force deleting Pod');
    if (pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') {
      const status = { phase: 'Failed', ...(condition ? { conditions: [condition] } : {}) };
      await firstValueFrom(
        config.client.patch(PODS, name, { metadata: { uid: pod.metadata.uid }, status }, 'strategic', {
          namespace,
          subresource: 'status',
        }),
      );
    }
    await firstValueFrom(config.client.delete(PODS, name, { namespace, gracePeriodSeconds: 0 }));
  };

  const pass = async (): Promise<PodGCPass> => {
    const podList = pods.getStore().list() as Pod[];
    const nodeList = nodes.getStore().list() as Node[];
    const gone = await deletedNodes(missingNodeNames(podList, nodeList));
    const plan = podGCPlan(podList, nodeList, config.terminatedPodThreshold, gone);
    const deleted: { pod: string; reason: PodGCReason }[] = [];
    const failed: { pod: string; reason: PodGCReason; error: string }[] = [];
    await Promise.all(
      plan.deletions.map(async ({ pod, reason }) => {
        const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
        const condition: PodCondition | undefined =
          reason === 'orphaned'
            ? {
                type: 'DisruptionTarget',
                status: 'True',
                reason: 'DeletionByPodGC',
                message: 'PodGC: node no longer exists',
                lastTransitionTime: new Date(scheduler.now()).toISOString(),
              }
            : undefined;
        metrics.deleted?.inc({ namespace: pod.metadata.namespace ?? '', reason });
        try {
          await failAndDelete(pod, condition);
          deleted.push({ pod: key, reason });
        } catch (error) {
          if (notFound(error)) return;
          metrics.errors?.inc({ namespace: pod.metadata.namespace ?? '', reason });
          failed.push({ pod: key, reason, error: String(error) });
          logger.error({ pod: key, reason, err: String(error) }, 'PodGC failed to delete a pod');
        }
      }),
    );
    return { deleted, failed };
  };

  logger.info('Starting GC controller');
  return cachesSynced(pods, nodes).pipe(
    switchMap(() => timer(0, period, scheduler)),
    exhaustMap(() => pass()),
  );
}
