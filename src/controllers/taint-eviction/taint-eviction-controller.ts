// taintEvictionController: kube-controller-manager's taint-eviction-controller — deletes pods from nodes with NoExecute taints they do not tolerate (or tolerate only for a while).

import { asyncScheduler, firstValueFrom, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { Node, Pod, Taint } from '../../../operators/api/core-v1.ts';
import { taintEvictionDecision } from '../../../operators/controller/taint-eviction/taint-eviction-decision.ts';
import { ApiError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { NODES, PODS } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';

/** The controller's name in `--controllers`. */
export const TAINT_EVICTION_CONTROLLER_NAME = 'taint-eviction-controller';

/** Settings of {@link taintEvictionController}. */
export interface TaintEvictionConfig {
  client: ApiClient;
  /** The shared factory (nodes, pods); the controller manager starts it. */
  informerFactory: InformerFactory;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** One eviction the controller carried out (or failed to). */
export interface TaintEviction {
  /** `namespace/name`. */
  readonly pod: string;
  readonly deleted: boolean;
  readonly error?: string;
}

interface Scheduled {
  readonly createdAt: number;
  readonly fireAt: number;
  readonly timer: Subscription;
}

const RETRIES = 5;
const gone = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
const noExecute = (node: Node | undefined): Taint[] =>
  (node?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
const sameTolerations = (a: Pod, b: Pod) =>
  JSON.stringify(a.spec.tolerations ?? []) === JSON.stringify(b.spec.tolerations ?? []);
const sameTaints = (a: readonly Taint[], b: readonly Taint[]) =>
  a.length === b.length &&
  a.every((t) =>
    b.some((u) => u.key === t.key && (u.value ?? '') === (t.value ?? '') && u.effect === t.effect),
  );

/**
 * Runs the taint eviction controller while subscribed. Whenever a node's NoExecute taints change, or a pod
 * is added or changes node or tolerations, it decides each affected pod's fate
 * ({@link taintEvictionDecision}): a pod that does not tolerate a NoExecute taint of its node is deleted at
 * once; one that tolerates them all with
 * tolerationSeconds is deleted when the shortest of them has passed since its deletion was planned (a timer
 * on the scheduler; a deletion already planned keeps its start, as upstream); the plan is cancelled (Event
 * TaintManagerEviction "Cancelling deletion of Pod ns/name") when the taints go, become tolerated forever,
 * or the pod goes. On deletion it records TaintManagerEviction "Marking for deletion Pod ns/name", adds
 * the DisruptionTarget condition (reason DeletionByTaintManager) and deletes the pod, retrying up to 5 times.
 *
 * Teardown: unsubscribing removes the informer handlers and cancels every planned deletion (a deletion
 * already sent to the API server still completes).
 * @param config the client and the shared factory
 * @returns one value per eviction carried out
 */
export function taintEvictionController(config: TaintEvictionConfig): Observable<TaintEviction> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const { client } = config;
  const nodes = config.informerFactory.forResource<Node>(NODES);
  const pods = config.informerFactory.forResource<Pod>(PODS);
  const record = controllerEventRecorder(client, 'taint-eviction-controller', logger, () => scheduler.now());

  return new Observable<TaintEviction>((subscriber) => {
    const scheduled = new Map<string, Scheduled>();
    const keyOf = (pod: Pod) => `${pod.metadata.namespace}/${pod.metadata.name}`;
    const asEventObject = (pod: Pod) => ({ ...pod, apiVersion: 'v1', kind: 'Pod' });

    const cancel = (key: string, pod?: Pod) => {
      const work = scheduled.get(key);
      if (!work) return;
      work.timer.unsubscribe();
      scheduled.delete(key);
      if (pod)
        record(asEventObject(pod), 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
    };

    const evict = async (pod: Pod): Promise<void> => {
      const key = keyOf(pod);
      const namespace = pod.metadata.namespace ?? '';
      const name = pod.metadata.name ?? '';
      record(asEventObject(pod), 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
      let lastError: unknown;
      for (let attempt = 0; attempt < RETRIES; attempt++) {
        try {
          const condition = {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'DeletionByTaintManager',
            message: 'Taint manager: deleting due to NoExecute taint',
            lastTransitionTime: new Date(scheduler.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          };
          const others = (pod.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
          await firstValueFrom(
            client.patch(PODS, name, { status: { conditions: [...others, condition] } }, 'merge', {
              namespace,
              subresource: 'status',
            }),
          ).catch((error: unknown) => {
            if (!gone(error)) throw error;
          });
          await firstValueFrom(client.delete(PODS, name, { namespace }));
          subscriber.next({ pod: key, deleted: true });
          return;
        } catch (error) {
          if (gone(error)) return;
          lastError = error;
        }
      }
      logger.error({ pod: key, err: String(lastError) }, 'Failed to delete pod');
      subscriber.next({ pod: key, deleted: false, error: String(lastError) });
    };

    const plan = (pod: Pod, createdAt: number, fireAt: number) => {
      const key = keyOf(pod);
      const timer = scheduler.schedule(
        () => {
          scheduled.delete(key);
          void evict(pods.getStore().getByKey(key) ?? pod);
        },
        Math.max(0, fireAt - scheduler.now()),
      );
      scheduled.set(key, { createdAt, fireAt, timer });
    };

    const processPod = (pod: Pod) => {
      const key = keyOf(pod);
      const nodeName = pod.spec.nodeName;
      const node = nodeName ? nodes.getStore().getByKey(nodeName) : undefined;
      const taints = noExecute(node);
      if (taints.length === 0) {
        cancel(key, pod);
        return;
      }
      const decision = taintEvictionDecision(taints, pod.spec.tolerations);
      const now = scheduler.now();
      if (decision.kind === 'keep') {
        cancel(key, pod);
        return;
      }
      if (decision.kind === 'delete-now') {
        logger.info(
          { pod: key, node: nodeName },
          'Not all taints are tolerated after update for pod on node',
        );
        cancel(key);
        plan(pod, now, now);
        return;
      }
      const existing = scheduled.get(key);
      let createdAt = now;
      if (existing) {
        createdAt = existing.createdAt;
        if (createdAt + decision.afterMs < now + decision.afterMs) return;
        cancel(key, pod);
      }
      plan(pod, createdAt, now + decision.afterMs);
    };

    const podsOn = (nodeName: string) =>
      (pods.getStore().list() as Pod[]).filter((p) => p.spec.nodeName === nodeName);

    const nodeRegistration = nodes.addEventHandler({
      onAdd: (node) => {
        for (const pod of podsOn(node.metadata.name ?? '')) processPod(pod);
      },
      onUpdate: (old, node) => {
        if (sameTaints(noExecute(old), noExecute(node))) return;
        for (const pod of podsOn(node.metadata.name ?? '')) processPod(pod);
      },
      onDelete: (node) => {
        const name = 'metadata' in node ? node.metadata.name : undefined;
        if (name) for (const pod of podsOn(name)) cancel(keyOf(pod), pod);
      },
    });
    const podRegistration = pods.addEventHandler({
      onAdd: (pod) => processPod(pod),
      onUpdate: (old, pod) => {
        // only a new node or new tolerations change the decision (a status write, e.g. our own, does not)
        if (old.spec.nodeName === pod.spec.nodeName && sameTolerations(old, pod)) return;
        processPod(pod);
      },
      onDelete: (pod) => {
        if ('metadata' in pod) cancel(keyOf(pod), pod);
        else cancel(pod.key);
      },
    });
    logger.info('Starting taint eviction controller');
    return () => {
      nodeRegistration.remove();
      podRegistration.remove();
      for (const work of scheduled.values()) work.timer.unsubscribe();
      scheduled.clear();
    };
  });
}
