// Registers the node with the API server as the kubelet does at start: create the Node, or adopt an existing one.
import os from 'node:os';
import { catchError, type Observable, of, switchMap, throwError } from 'rxjs';
import { ApiError } from '../../operators/errors.ts';
import type { KubeObject } from '../../operators/types.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { NODES } from '../../streams/resources.ts';

/** The parts of a core/v1 Node the node agent writes. */
export interface NodeObject extends KubeObject {
  spec?: { podCIDR?: string; unschedulable?: boolean; taints?: unknown[] };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    conditions?: {
      type: string;
      status: string;
      reason?: string;
      message?: string;
      lastHeartbeatTime?: string;
    }[];
    nodeInfo?: Record<string, string>;
    addresses?: { type: string; address: string }[];
  };
}

/** The Node this machine describes: hostname labels, capacity from the OS, and a Ready condition. */
export function describeNode(nodeName: string, now: number, labels: Record<string, string> = {}): NodeObject {
  const memoryKi = `${Math.floor(os.totalmem() / 1024)}Ki`;
  const resources = { cpu: String(os.availableParallelism()), memory: memoryKi, pods: '110' };
  const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: nodeName,
      labels: {
        'kubernetes.io/hostname': nodeName,
        'kubernetes.io/os': process.platform,
        'kubernetes.io/arch': process.arch === 'x64' ? 'amd64' : process.arch,
        ...labels,
      },
    },
    spec: {},
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kube-rx node agent is posting ready status',
          lastHeartbeatTime: stamp,
        },
      ],
      addresses: [{ type: 'Hostname', address: nodeName }],
      nodeInfo: {
        operatingSystem: process.platform,
        architecture: process.arch === 'x64' ? 'amd64' : process.arch,
        kernelVersion: os.release(),
        osImage: os.version(),
        kubeletVersion: 'kube-rx',
        containerRuntimeVersion: `process://${process.version}`,
      },
    },
  };
}

/**
 * Creates the Node, or finds the existing one (AlreadyExists is the kubelet's "already registered"),
 * then posts its status.
 *
 * @param client the API client
 * @param node the Node to register (see {@link describeNode})
 * @returns the registered Node as the server has it
 */
export function registerNode(client: ApiClient, node: NodeObject): Observable<NodeObject> {
  const name = node.metadata?.name ?? '';
  return client.create<NodeObject>(NODES, node).pipe(
    catchError((error: unknown) =>
      error instanceof ApiError && error.statusCode === 409
        ? client.get<NodeObject>(NODES, name)
        : throwError(() => error),
    ),
    switchMap((current) =>
      client
        .updateStatus<NodeObject>(NODES, { ...current, status: { ...current.status, ...node.status } })
        .pipe(catchError(() => of(current))),
    ),
  );
}
