// Registers the node with the API server as the kubelet does at start: create the Node, or adopt an existing one.
import { catchError, type Observable, of, switchMap, throwError } from 'rxjs';
import type { Node } from '../../operators/api/core-v1.ts';
import { ApiError } from '../../operators/errors.ts';
import { updateNodeConditions } from '../../operators/kubelet/node-status-conditions.ts';
import {
  defaultNodeLabels,
  initialNode,
  type MachineInfo,
  type NodeStatusConfig,
} from '../../operators/kubelet/node-status-setters.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { NODES } from '../../streams/resources.ts';
import { readMachineInfo } from '../kubelet/node-status/machine-info.ts';
import { mergePatchDiff } from '../kubelet/status/merge-patch-diff.ts';
import { rfc3339 } from '../kubelet/status/normalize-pod-status.ts';

/** The kubelet version kube-rx reports (`kubectl get nodes` VERSION column). */
export const KUBELET_VERSION = 'v1.33.0-kube-rx';

/** The Node the node agent writes (a core/v1 Node). */
export type NodeObject = Node;

/** Options of {@link describeNode} beyond the name: the kubelet's settings and the host reading. */
export interface DescribeNodeOptions extends Partial<Omit<NodeStatusConfig, 'nodeName'>> {
  /** The host as read; default {@link readMachineInfo} now. */
  machine?: MachineInfo;
}

/**
 * The Node this machine describes, as the kubelet's initialNode: default labels (hostname, os, arch)
 * plus `labels` (`--node-labels`), taints (`--register-with-taints`), capacity and allocatable from the
 * host (or overrides), the four conditions, addresses, nodeInfo and the kubelet endpoint.
 *
 * @param nodeName the node's name
 * @param now the time, in ms
 * @param labels `--node-labels`
 * @param options the kubelet's other settings (runtime version, node IP, max pods, taints, ...)
 * @returns the Node to register
 */
export function describeNode(
  nodeName: string,
  now: number,
  labels: Record<string, string> = {},
  options: DescribeNodeOptions = {},
): NodeObject {
  const { machine = readMachineInfo(), ...settings } = options;
  return initialNode(
    machine,
    nodeStatusConfig(nodeName, { ...settings, nodeLabels: { ...settings.nodeLabels, ...labels } }),
    rfc3339(now),
  );
}

/** The kubelet's node settings with kube-rx's defaults filled in (version, runtime `process://<node version>`). */
export function nodeStatusConfig(
  nodeName: string,
  options: Partial<Omit<NodeStatusConfig, 'nodeName'>> = {},
): NodeStatusConfig {
  return {
    kubeletVersion: KUBELET_VERSION,
    containerRuntimeVersion: `process://${process.version}`,
    ...options,
    nodeName,
  };
}

/**
 * Creates the Node, or adopts the existing one (AlreadyExists is the kubelet's "already registered"):
 * the default labels (hostname, os, arch) are put back if they differ, and the status is brought up to
 * date, keeping what other writers set. `--node-labels` and taints of an existing node are left alone,
 * as the kubelet leaves them.
 *
 * @param client the API client
 * @param node the Node to register (see {@link describeNode})
 * @returns the registered Node as the server has it
 */
export function registerNode(client: ApiClient, node: NodeObject): Observable<NodeObject> {
  const name = node.metadata.name ?? '';
  return client
    .create<Node>(NODES, node)
    .pipe(
      catchError((error: unknown) =>
        error instanceof ApiError && error.statusCode === 409
          ? client
              .get<Node>(NODES, name)
              .pipe(switchMap((existing) => reconcileExisting(client, existing, node)))
          : throwError(() => error),
      ),
    );
}

const DEFAULT_LABEL_KEYS = Object.keys(
  defaultNodeLabels(
    {
      hostname: '',
      cpus: 0,
      memoryBytes: 0,
      addresses: [],
      operatingSystem: '',
      architecture: '',
      kernelVersion: '',
      osImage: '',
      machineID: '',
      systemUUID: '',
      bootID: '',
    },
    { nodeName: '', kubeletVersion: '', containerRuntimeVersion: '' },
  ),
);

function reconcileExisting(client: ApiClient, existing: Node, wanted: Node): Observable<Node> {
  const labelFixes: Record<string, string> = {};
  for (const key of DEFAULT_LABEL_KEYS) {
    const want = wanted.metadata.labels?.[key];
    if (want !== undefined && existing.metadata.labels?.[key] !== want) labelFixes[key] = want;
  }
  const labelled$ = Object.keys(labelFixes).length
    ? client.patch<Node>(NODES, existing.metadata.name ?? '', { metadata: { labels: labelFixes } }, 'merge')
    : of(existing);
  return labelled$.pipe(
    switchMap((current) => {
      // Conditions keep their transition times where the status did not change, and others' conditions stay.
      const heartbeat = wanted.status?.conditions?.[0]?.lastHeartbeatTime ?? new Date(0).toISOString();
      const observed = (wanted.status?.conditions ?? []).map((c) => ({
        type: c.type,
        status: c.status,
        reason: c.reason ?? '',
        message: c.message ?? '',
      }));
      const status = { ...current.status, ...wanted.status };
      status.conditions = updateNodeConditions(current.status?.conditions, observed, heartbeat);
      const diff = mergePatchDiff(current.status ?? {}, status);
      if (!diff) return of(current);
      return client
        .patch<Node>(NODES, current.metadata.name ?? '', { status: diff }, 'merge', { subresource: 'status' })
        .pipe(catchError(() => of(current)));
    }),
  );
}
