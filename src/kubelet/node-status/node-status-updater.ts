// The kubelet's node status loop (kubelet_node_status.go syncNodeStatus): recompute every 10 s, write when changed or every 5 min.
import {
  asyncScheduler,
  catchError,
  defer,
  exhaustMap,
  map,
  type Observable,
  of,
  retry,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import type { Node } from '../../../operators/api/core-v1.ts';
import { nodeConditionEvents } from '../../../operators/kubelet/node-status-conditions.ts';
import {
  buildNodeStatus,
  type MachineInfo,
  type NodeStatusConfig,
  nodeStatusChanged,
} from '../../../operators/kubelet/node-status-setters.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { NODES } from '../../../streams/resources.ts';
import { mergePatchDiff } from '../status/merge-patch-diff.ts';
import { rfc3339 } from '../status/normalize-pod-status.ts';
import { readMachineInfo } from './machine-info.ts';

/** nodeStatusUpdateFrequency's default. */
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 10_000;
/** nodeStatusReportFrequency's default. */
export const NODE_STATUS_REPORT_FREQUENCY_MS = 5 * 60_000;
/** nodeStatusUpdateRetry: tries per update. */
const NODE_STATUS_UPDATE_RETRY = 5;

export interface NodeStatusUpdaterConfig {
  client: ApiClient;
  /** The kubelet's settings, read on every update (so `notReadyErrors` can change between updates). */
  statusConfig: NodeStatusConfig | (() => NodeStatusConfig);
  /** Reads the host; default {@link readMachineInfo}. */
  machineInfo?: () => MachineInfo;
  /** Default 10 s. */
  updateFrequencyMs?: number;
  /**
   * A full report at least this often even when nothing changed; default 5 min (or the update
   * frequency when only that is set, as the kubelet's defaulting does).
   */
  reportFrequencyMs?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** One update round's outcome. */
export interface NodeStatusReport {
  outcome: 'patched' | 'unchanged' | 'failed';
  node?: Node;
  error?: unknown;
  /**
   * Normal events to record on the Node for conditions that changed in a write (`NodeReady`,
   * `NodeHasSufficientMemory`, ... with `Node <name> status is now: <reason>`), as the kubelet does.
   */
  events?: { reason: string; message: string }[];
}

/**
 * Keeps the node's status current while subscribed: at once, then every update period, reads the
 * Node, recomputes its status (conditions' heartbeats move, transitions only on change) and PATCHes
 * the difference when something other than the heartbeats changed or a full report is due; up to 5
 * tries per round. Never errors: a failed round is reported and the next one tries again.
 *
 * ```
 * rounds:  p---------u---------u-- ... (5 min) p   (p = patched, u = unchanged)
 * ```
 *
 * Teardown: unsubscribing stops the timer and aborts a request in flight.
 *
 * @param config the client, the kubelet's settings, the host reader, the frequencies and the clock
 * @returns one report per round
 */
export function nodeStatusUpdater(config: NodeStatusUpdaterConfig): Observable<NodeStatusReport> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const update = config.updateFrequencyMs ?? NODE_STATUS_UPDATE_FREQUENCY_MS;
  const report =
    config.reportFrequencyMs ??
    (config.updateFrequencyMs !== undefined ? update : NODE_STATUS_REPORT_FREQUENCY_MS);
  const machine = config.machineInfo ?? (() => readMachineInfo());
  const settings = () =>
    typeof config.statusConfig === 'function' ? config.statusConfig() : config.statusConfig;
  return defer(() => {
    const log = (config.logger ?? silentLogger).child({ component: 'nodeStatus', node: settings().nodeName });
    let lastReportAt: number | undefined;

    const tryUpdate = (): Observable<NodeStatusReport> =>
      defer(() => {
        const cfg = settings();
        return config.client.get<Node>(NODES, cfg.nodeName).pipe(
          switchMap((node): Observable<NodeStatusReport> => {
            const now = scheduler.now();
            const status = buildNodeStatus(node.status, machine(), cfg, rfc3339(now));
            const due = lastReportAt === undefined || now - lastReportAt >= report;
            if (!due && !nodeStatusChanged(node.status, status)) return of({ outcome: 'unchanged', node });
            const diff = mergePatchDiff(node.status ?? {}, status) ?? {};
            return config.client
              .patch<Node>(
                NODES,
                cfg.nodeName,
                { metadata: { uid: node.metadata.uid }, status: diff },
                'merge',
                {
                  subresource: 'status',
                },
              )
              .pipe(
                map((patched): NodeStatusReport => {
                  lastReportAt = now;
                  const events = nodeConditionEvents(
                    cfg.nodeName,
                    node.status?.conditions,
                    status.conditions ?? [],
                  );
                  return { outcome: 'patched', node: patched, ...(events.length ? { events } : {}) };
                }),
              );
          }),
        );
      }).pipe(retry({ count: NODE_STATUS_UPDATE_RETRY - 1 }));

    const round = () =>
      tryUpdate().pipe(
        catchError((error: unknown) => {
          log.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'Unable to update node status',
          );
          return of<NodeStatusReport>({ outcome: 'failed', error });
        }),
      );
    return timer(0, update, scheduler).pipe(exhaustMap(round));
  });
}
