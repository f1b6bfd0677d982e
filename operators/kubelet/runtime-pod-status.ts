// The kubelet's view of a pod in the runtime (kubecontainer.PodStatus): its sandboxes and containers, newest first.

/** One container instance as the runtime reports it. */
export interface RuntimeContainerStatus {
  id: string;
  name: string;
  state: 'created' | 'running' | 'exited' | 'unknown';
  /** The restart count this instance was created with. */
  attempt: number;
  image: string;
  /** Hash of the container spec it was created from (for "definition changed"). */
  hash?: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  message?: string;
}

/** One sandbox as the runtime reports it. */
export interface RuntimeSandboxStatus {
  id: string;
  ready: boolean;
  attempt: number;
  createdAt: number;
  ip: string;
}

/**
 * A pod in the runtime. Invariant: `sandboxes` and `containers` are sorted newest first (by
 * `createdAt`), so the first status of a name is that container's latest instance.
 */
export interface RuntimePodStatus {
  uid: string;
  name: string;
  namespace: string;
  ips: string[];
  sandboxes: RuntimeSandboxStatus[];
  containers: RuntimeContainerStatus[];
}

/** The newest status of the container called `name`, if any. */
export function findContainerStatus(
  status: RuntimePodStatus | undefined,
  name: string,
): RuntimeContainerStatus | undefined {
  return status?.containers.find((c) => c.name === name);
}

/** An empty runtime status for a pod the runtime does not know. */
export function emptyRuntimePodStatus(uid: string, name: string, namespace: string): RuntimePodStatus {
  return { uid, name, namespace, ips: [], sandboxes: [], containers: [] };
}
