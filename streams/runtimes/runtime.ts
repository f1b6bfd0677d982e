// The container runtime port: a small CRI-shaped interface (sandboxes, containers, status, logs, exec, events).
import type { Observable } from 'rxjs';

/** A pod sandbox to create: the pod's identity and where its logs go (CRI PodSandboxConfig). */
export interface PodSandboxConfig {
  /** Pod identity: name, namespace, uid; `attempt` counts sandbox re-creations. */
  metadata: { name: string; namespace: string; uid: string; attempt: number };
  hostname: string;
  /** Directory for this pod's container logs: `/var/log/pods/<ns>_<name>_<uid>` style. */
  logDirectory: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface Mount {
  /** Where the kubelet materialised the volume on the host. */
  hostPath: string;
  /** Where the container sees it (namespaced runtimes only; plain processes see `hostPath`). */
  containerPath: string;
  readonly: boolean;
}

/** A container to create in a sandbox (CRI ContainerConfig). */
export interface ContainerConfig {
  /** Container name and the attempt (restart count) this instance is. */
  metadata: { name: string; attempt: number };
  image: string;
  /** The container's entrypoint and arguments, resolved by the kubelet (`$(VAR)` expanded). */
  command: string[];
  args: string[];
  workingDir?: string;
  /** Environment, resolved by the kubelet (valueFrom and envFrom already applied), in order. */
  envs: { key: string; value: string }[];
  mounts: Mount[];
  /** Relative to the sandbox's logDirectory, e.g. `<container>/<attempt>.log`. */
  logPath: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Image-specific hints for runtimes that simulate (e.g. exit code and run time). */
  tty?: boolean;
  stdin?: boolean;
}

export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type ContainerState =
  | 'CONTAINER_CREATED'
  | 'CONTAINER_RUNNING'
  | 'CONTAINER_EXITED'
  | 'CONTAINER_UNKNOWN';

export interface PodSandboxStatus {
  id: string;
  metadata: PodSandboxConfig['metadata'];
  state: SandboxState;
  /** Wall-clock (or virtual) ms. */
  createdAt: number;
  /** The pod IP this runtime gives its pods (the host's address for process runtimes). */
  ip: string;
  labels: Record<string, string>;
}

export interface ContainerStatus {
  id: string;
  sandboxId: string;
  metadata: ContainerConfig['metadata'];
  image: string;
  state: ContainerState;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  /** e.g. `Completed`, `Error`, `OOMKilled`, `StartError`. */
  reason?: string;
  message?: string;
  /** Absolute path of the log file. */
  logPath: string;
  /** The host PIDs of the container's main process (process runtime), for metrics and tests. */
  pid?: number;
  labels: Record<string, string>;
}

/** A lifecycle event the PLEG turns into pod syncs (CRI ContainerEventResponse). */
export interface ContainerEvent {
  type:
    | 'CONTAINER_CREATED_EVENT'
    | 'CONTAINER_STARTED_EVENT'
    | 'CONTAINER_STOPPED_EVENT'
    | 'CONTAINER_DELETED_EVENT';
  containerId: string;
  sandboxId: string;
  /** The pod's uid, from the sandbox metadata. */
  podUid: string;
  at: number;
}

export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

/** A streaming exec session (kubectl exec): stdin in, stdout/stderr out, then the exit code. */
export interface ExecSession {
  readonly stdout: NodeJS.ReadableStream;
  readonly stderr: NodeJS.ReadableStream | undefined;
  readonly stdin: NodeJS.WritableStream | undefined;
  /** Resolves with the exit code once the command ends. */
  readonly exit: Promise<number>;
  resize?(cols: number, rows: number): void;
  kill(): void;
}

/** Resource usage of one container's processes, read from the host. */
export interface ContainerStats {
  containerId: string;
  /** Cumulative CPU time in nanoseconds. */
  cpuUsageNanoCores?: number;
  cpuUsageCoreNanoSeconds: number;
  memoryWorkingSetBytes: number;
  at: number;
}

/**
 * The container runtime port, shaped after the CRI's RuntimeService so a CRI client can implement
 * it later.
 *
 * Contract:
 * - Ids are opaque strings unique for the runtime's lifetime.
 * - `stopContainer` sends SIGTERM (or the runtime's equivalent) to every process of the container and
 *   SIGKILL after `timeoutSeconds`; it resolves once the container has exited. Stopping an exited
 *   container is a no-op; unknown ids reject with an error whose `code` is `KUBE_RX_NOT_FOUND`.
 * - `removeContainer` of a running container stops it first (timeout 0).
 * - `events$` is hot: it emits every lifecycle change after subscription, in order per container.
 * - `close()` stops every container and sandbox it started (SIGKILL after a short grace) and resolves
 *   once no process it started is left; afterwards every call rejects.
 */
export interface ContainerRuntime {
  /** e.g. `process`, `simulated`; reported in the node's `containerRuntimeVersion` as `<name>://<version>`. */
  readonly name: string;
  readonly version: string;

  runPodSandbox(config: PodSandboxConfig): Promise<string>;
  stopPodSandbox(sandboxId: string): Promise<void>;
  removePodSandbox(sandboxId: string): Promise<void>;
  podSandboxStatus(sandboxId: string): Promise<PodSandboxStatus>;
  listPodSandboxes(filter?: { podUid?: string; state?: SandboxState }): Promise<PodSandboxStatus[]>;

  createContainer(sandboxId: string, config: ContainerConfig, sandbox: PodSandboxConfig): Promise<string>;
  startContainer(containerId: string): Promise<void>;
  stopContainer(containerId: string, timeoutSeconds: number): Promise<void>;
  removeContainer(containerId: string): Promise<void>;
  containerStatus(containerId: string): Promise<ContainerStatus>;
  listContainers(filter?: {
    sandboxId?: string;
    podUid?: string;
    state?: ContainerState;
  }): Promise<ContainerStatus[]>;

  /** Runs a command in the container's environment and waits for it (probes, preStop hooks). */
  execSync(containerId: string, command: string[], timeoutSeconds: number): Promise<ExecResult>;
  /** Starts a streaming command (kubectl exec). */
  exec(
    containerId: string,
    command: string[],
    options: { stdin: boolean; tty: boolean },
  ): Promise<ExecSession>;

  containerStats(containerId: string): Promise<ContainerStats | undefined>;

  readonly events$: Observable<ContainerEvent>;
  close(): Promise<void>;
}
