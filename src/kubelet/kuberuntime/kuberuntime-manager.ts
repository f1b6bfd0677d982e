// kubeRuntimeManager: drives a ContainerRuntime for the kubelet: pod status from the runtime, SyncPod's plan carried out, pods killed with grace and preStop hooks.
import { join } from 'node:path';
import type { Container, Pod, ResourceList } from '../../../operators/api/core-v1.ts';
import {
  computePodActions,
  isRestartableInitContainer,
  type ProbeLookup,
} from '../../../operators/kubelet/compute-pod-actions.ts';
import { containerHash } from '../../../operators/kubelet/container-hash.ts';
import {
  CrashLoopBackOff,
  crashLoopKey,
  crashLoopMessage,
} from '../../../operators/kubelet/crash-loop-backoff.ts';
import type { ContainerWaitingReason } from '../../../operators/kubelet/generate-api-pod-status.ts';
import {
  type EnvSources,
  envReferences,
  expandContainerCommand,
  type KeyValueSource,
  makeEnvironmentVariables,
} from '../../../operators/kubelet/make-environment-variables.ts';
import {
  findContainerStatus,
  type RuntimeContainerStatus,
  type RuntimePodStatus,
} from '../../../operators/kubelet/runtime-pod-status.ts';
import { terminationPrerequisites } from '../../../operators/kubelet/termination-ordering.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { RunningPod } from '../../../operators/pod-workers/types.ts';
import type {
  ContainerConfig,
  ContainerRuntime,
  ContainerStatus,
  PodSandboxConfig,
} from '../../../streams/runtimes/runtime.ts';
import type { RecordPodEvent } from '../event-recorder.ts';
import type { KubeObjectReader } from '../kube-objects.ts';
import { containerMounts, type PodVolumes } from '../volumes/pod-volumes.ts';

/** Labels the kubelet puts on runtime objects, as upstream names them. */
export const LABELS = {
  podName: 'io.kubernetes.pod.name',
  podNamespace: 'io.kubernetes.pod.namespace',
  podUid: 'io.kubernetes.pod.uid',
  containerName: 'io.kubernetes.container.name',
  containerHash: 'io.kubernetes.container.hash',
} as const;

/** The least grace a container gets after its preStop hook (minimumGracePeriodInSeconds). */
const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** Settings of {@link kubeRuntimeManager}. */
export interface KubeRuntimeManagerConfig {
  runtime: ContainerRuntime;
  /** Pod log directories go under it (`<podLogsDir>/<ns>_<name>_<uid>/<container>/<attempt>.log`). */
  podLogsDir: string;
  volumes: PodVolumes;
  reader: KubeObjectReader;
  recordEvent: RecordPodEvent;
  /** The node's allocatable (limits of containers that set none) and IP. */
  node: () => { allocatable?: ResourceList; hostIP?: string };
  /** Failed liveness/startup probes by runtime container id. */
  probes?: ProbeLookup;
  backOff?: CrashLoopBackOff;
  /**
   * Variables every container gets after its own (the master service's KUBERNETES_SERVICE_HOST, ...;
   * see `masterServiceEnv`); a name the container sets itself keeps the container's value.
   */
  serviceEnv?: readonly { key: string; value: string }[];
  /** Wall clock in ms (runtime timestamps are wall clock). */
  now?: () => number;
  logger?: Logger;
}

/** What one SyncPod did, for the pod's status. */
export interface SyncPodResult {
  /** Why containers that should run are waiting (CrashLoopBackOff, CreateContainerConfigError, ...). */
  waitingReasons: Map<string, ContainerWaitingReason>;
  /** Something was started or killed: the runtime status is worth reading again. */
  changed: boolean;
}

/** The kubelet's runtime manager. */
export interface KubeRuntimeManager {
  readonly runtimeName: string;
  /** The pod as the runtime has it, newest first. */
  getPodStatus(uid: string, name: string, namespace: string): Promise<RuntimePodStatus>;
  /** Carries out computePodActions for the pod. */
  syncPod(pod: Pod, status: RuntimePodStatus, signal?: AbortSignal): Promise<SyncPodResult>;
  /** Stops every container (preStop hooks first, within `gracePeriodSeconds`) and the sandboxes. */
  killPod(pod: Pod | undefined, running: RunningPod, gracePeriodSeconds: number): Promise<void>;
  /** Removes the pod's containers and sandboxes from the runtime. */
  removePod(uid: string): Promise<void>;
  /** Pods the runtime has (by uid), for housekeeping. */
  listPods(): Promise<RunningPod[]>;
  /** The reasons last recorded for a pod's waiting containers. */
  waitingReasons(uid: string): Map<string, ContainerWaitingReason>;
  /** Forgets a pod's reasons and backoff. */
  forget(pod: { uid: string; name: string; namespace: string }): void;
}

function toRuntimeState(state: ContainerStatus['state']): RuntimeContainerStatus['state'] {
  switch (state) {
    case 'CONTAINER_CREATED':
      return 'created';
    case 'CONTAINER_RUNNING':
      return 'running';
    case 'CONTAINER_EXITED':
      return 'exited';
    default:
      return 'unknown';
  }
}

/** Converts a runtime container status to the kubelet's view. */
export function runtimeContainerStatus(c: ContainerStatus): RuntimeContainerStatus {
  return {
    id: c.id,
    name: c.metadata.name,
    state: toRuntimeState(c.state),
    attempt: c.metadata.attempt,
    image: c.image,
    hash: c.labels[LABELS.containerHash],
    createdAt: c.createdAt,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    exitCode: c.exitCode,
    reason: c.reason,
    message: c.message,
  };
}

/** The sandbox config of a pod (its log directory is `<podLogsDir>/<ns>_<name>_<uid>`). */
export function sandboxConfig(pod: Pod, attempt: number, podLogsDir: string): PodSandboxConfig {
  const { name = '', namespace = 'default', uid = '' } = pod.metadata;
  return {
    metadata: { name, namespace, uid, attempt },
    hostname: pod.spec.hostname ?? name,
    logDirectory: join(podLogsDir, `${namespace}_${name}_${uid}`),
    labels: {
      ...(pod.metadata.labels ?? {}),
      [LABELS.podName]: name,
      [LABELS.podNamespace]: namespace,
      [LABELS.podUid]: uid,
    },
    annotations: { ...(pod.metadata.annotations ?? {}) },
  };
}

/**
 * The kuberuntime manager (kuberuntime_manager.go and kuberuntime_container.go) over the runtime port.
 *
 * SyncPod: compute the plan; kill the pod or the containers it names; create the sandbox; start the
 * next init container, else the app containers. A container that exited and is due for a restart
 * waits while its CrashLoopBackOff lasts (10 s doubling to 5 min); its waiting reason is recorded
 * with the kubelet's message. Env and volumes are resolved before each create; an error there is
 * `CreateContainerConfigError` with the kubelet's message.
 *
 * @param config the runtime, directories, API reader and event recorder
 * @returns the manager
 */
export function kubeRuntimeManager(config: KubeRuntimeManagerConfig): KubeRuntimeManager {
  const { runtime } = config;
  const logger = (config.logger ?? silentLogger).child({ component: 'kuberuntime' });
  const backOff = config.backOff ?? new CrashLoopBackOff();
  const now = config.now ?? Date.now;
  const reasons = new Map<string, Map<string, ContainerWaitingReason>>();

  const reasonsOf = (uid: string) => {
    let map = reasons.get(uid);
    if (!map) {
      map = new Map();
      reasons.set(uid, map);
    }
    return map;
  };

  const envSources = async (pod: Pod, container: Container): Promise<EnvSources> => {
    const ns = pod.metadata.namespace ?? 'default';
    const refs = envReferences(container);
    const configMaps = new Map<string, KeyValueSource | undefined>();
    const secrets = new Map<string, KeyValueSource | undefined>();
    for (const name of refs.configMaps) configMaps.set(name, await config.reader.configMap(ns, name));
    for (const name of refs.secrets) secrets.set(name, await config.reader.secret(ns, name));
    return { configMaps, secrets };
  };

  const podRef = (pod: Pod) => ({
    name: pod.metadata.name ?? '',
    namespace: pod.metadata.namespace ?? 'default',
    uid: pod.metadata.uid ?? '',
  });

  /** doBackOff: whether the container must wait, recording the reason if so. */
  const inBackOff = (pod: Pod, container: Container, status: RuntimePodStatus): boolean => {
    const last = status.containers.find((c) => c.name === container.name && c.state === 'exited');
    if (!last) return false;
    const key = crashLoopKey(podRef(pod), container.name, containerHash(container));
    const finishedAt = last.finishedAt ?? last.createdAt;
    const t = now();
    if (backOff.isInBackOffSince(key, finishedAt, t)) {
      const message = crashLoopMessage(backOff.get(key), container.name, podRef(pod));
      reasonsOf(podRef(pod).uid).set(container.name, { reason: 'CrashLoopBackOff', message });
      config.recordEvent(
        pod,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${container.name} in pod ${podRef(pod).name}_${podRef(pod).namespace}(${podRef(pod).uid})`,
        `spec.containers{${container.name}}`,
      );
      return true;
    }
    backOff.next(key, t);
    return false;
  };

  const startContainer = async (
    pod: Pod,
    container: Container,
    kind: 'containers' | 'initContainers',
    sandboxId: string,
    sandbox: PodSandboxConfig,
    status: RuntimePodStatus,
    volumePaths: Map<string, string>,
    sandboxIP: string,
  ): Promise<boolean> => {
    const uid = podRef(pod).uid;
    const fieldPath = `spec.${kind}{${container.name}}`;
    const node = config.node();
    const env = makeEnvironmentVariables(pod, container, await envSources(pod, container), {
      podIP: sandboxIP,
      podIPs: sandboxIP ? [sandboxIP] : [],
      hostIP: node.hostIP,
      hostIPs: node.hostIP ? [node.hostIP] : [],
      allocatable: node.allocatable,
    });
    if ('error' in env) {
      reasonsOf(uid).set(container.name, { reason: 'CreateContainerConfigError', message: env.error });
      config.recordEvent(pod, 'Warning', 'Failed', `Error: ${env.error}`, fieldPath);
      return false;
    }
    const own = new Set(env.env.map((e) => e.key));
    for (const e of config.serviceEnv ?? []) if (!own.has(e.key)) env.env.push({ ...e });
    const previous = findContainerStatus(status, container.name);
    const attempt = previous ? previous.attempt + 1 : 0;
    const { command, args } = expandContainerCommand(container, env.env);
    const containerConfig: ContainerConfig = {
      metadata: { name: container.name, attempt },
      image: container.image ?? '',
      command,
      args,
      ...(container.workingDir ? { workingDir: container.workingDir } : {}),
      envs: env.env,
      mounts: containerMounts(container, volumePaths),
      logPath: join(container.name, `${attempt}.log`),
      labels: {
        [LABELS.podName]: podRef(pod).name,
        [LABELS.podNamespace]: podRef(pod).namespace,
        [LABELS.podUid]: uid,
        [LABELS.containerName]: container.name,
        [LABELS.containerHash]: containerHash(container),
      },
      annotations: {
        ...(pod.metadata.annotations ?? {}),
        'io.kubernetes.container.restartCount': String(attempt),
      },
      ...(container.tty ? { tty: true } : {}),
      ...(container.stdin ? { stdin: true } : {}),
    };
    config.recordEvent(
      pod,
      'Normal',
      'Pulled',
      `Container image "${container.image ?? ''}" already present on machine`,
      fieldPath,
    );
    let id: string;
    try {
      id = await runtime.createContainer(sandboxId, containerConfig, sandbox);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reasonsOf(uid).set(container.name, { reason: 'CreateContainerError', message });
      config.recordEvent(pod, 'Warning', 'Failed', `Error: ${message}`, fieldPath);
      return false;
    }
    config.recordEvent(pod, 'Normal', 'Created', `Created container: ${container.name}`, fieldPath);
    try {
      await runtime.startContainer(id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reasonsOf(uid).set(container.name, { reason: 'RunContainerError', message });
      config.recordEvent(pod, 'Warning', 'Failed', `Error: ${message}`, fieldPath);
      return false;
    }
    reasonsOf(uid).delete(container.name);
    config.recordEvent(pod, 'Normal', 'Started', `Started container ${container.name}`, fieldPath);
    const postStart = container.lifecycle?.postStart?.exec?.command;
    if (postStart) {
      let failure: string | undefined;
      try {
        const result = await runtime.execSync(id, postStart, pod.spec.terminationGracePeriodSeconds ?? 30);
        const output = `${result.stdout.toString()}${result.stderr.toString()}`;
        if (result.exitCode !== 0) {
          failure = `command '${postStart.join(' ')}' exited with ${result.exitCode}: ${output}, message: ${JSON.stringify(output)}`;
        }
      } catch (error) {
        failure = `${error instanceof Error ? error.message : String(error)}, message: ""`;
      }
      if (failure !== undefined) {
        const ref = podRef(pod);
        config.recordEvent(pod, 'Warning', 'FailedPostStartHook', 'PostStartHook failed', fieldPath);
        reasonsOf(uid).set(container.name, {
          reason: 'PostStartHookError',
          message: `Exec lifecycle hook ([${postStart.join(' ')}]) for Container "${container.name}" in Pod "${ref.name}_${ref.namespace}(${ref.uid})" failed - error: ${failure}`,
        });
        await killContainer(
          pod,
          id,
          container.name,
          pod.spec.terminationGracePeriodSeconds ?? 30,
          'FailedPostStartHook',
        );
        return false;
      }
    }
    return true;
  };

  const killContainer = async (
    pod: Pod | undefined,
    containerId: string,
    name: string,
    gracePeriodSeconds: number,
    message: string,
    waitForTurn?: (graceSeconds: number) => Promise<number>,
  ): Promise<void> => {
    const isInit = pod?.spec.initContainers?.some((c) => c.name === name) ?? false;
    const container = pod
      ? [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === name)
      : undefined;
    let grace = gracePeriodSeconds;
    if (pod)
      config.recordEvent(
        pod,
        'Normal',
        'Killing',
        message || `Stopping container ${name}`,
        `spec.${isInit ? 'initContainers' : 'containers'}{${name}}`,
      );
    const preStop = container?.lifecycle?.preStop;
    if (preStop?.exec?.command && grace > 0) {
      const started = now();
      try {
        const result = await runtime.execSync(containerId, preStop.exec.command, grace);
        if (result.exitCode !== 0 && pod) {
          config.recordEvent(
            pod,
            'Warning',
            'FailedPreStopHook',
            `PreStopHook failed: command '${preStop.exec.command.join(' ')}' exited with ${result.exitCode}: ${result.stdout.toString()}${result.stderr.toString()}`,
            `spec.containers{${name}}`,
          );
        }
      } catch (error) {
        logger.debug({ container: name, err: String(error) }, 'preStop hook failed');
      }
      grace = Math.max(grace - Math.round((now() - started) / 1000), 0);
    } else if (preStop?.sleep && grace > 0) {
      const sleep = Math.min(preStop.sleep.seconds, grace);
      await new Promise((resolve) => setTimeout(resolve, sleep * 1000));
      grace -= sleep;
    }
    // a sidecar stops only after the containers it serves (or when its grace runs out)
    if (waitForTurn && grace > 0) grace = Math.max(grace - (await waitForTurn(grace)), 0);
    if ((preStop || waitForTurn) && grace < MINIMUM_GRACE_PERIOD_SECONDS)
      grace = MINIMUM_GRACE_PERIOD_SECONDS;
    try {
      await runtime.stopContainer(containerId, grace);
    } catch (error) {
      if ((error as { code?: string }).code !== 'KUBE_RX_NOT_FOUND') throw error;
    }
  };

  const volumeContext = (sandboxIP: string) => {
    const node = config.node();
    return {
      podIP: sandboxIP,
      podIPs: sandboxIP ? [sandboxIP] : [],
      hostIP: node.hostIP,
      hostIPs: node.hostIP ? [node.hostIP] : [],
    };
  };

  /**
   * Writes a running pod's file volumes again (the volume manager's remount of configMap, secret,
   * downwardAPI and projected volumes), so a token past 80 % of its life and changed ConfigMaps
   * reach the files; a failure is an event, and the containers keep running on the old files.
   */
  const refreshVolumes = async (pod: Pod, sandboxId: string) => {
    const remountable = (pod.spec.volumes ?? []).some(
      (v) => v.projected || v.configMap || v.secret || v.downwardAPI,
    );
    if (!remountable) return;
    const sandboxIP = (await runtime.podSandboxStatus(sandboxId).catch(() => undefined))?.ip ?? '';
    const mounted = await config.volumes.mount(pod, volumeContext(sandboxIP)).catch((error: unknown) => ({
      error: error instanceof Error ? error.message : String(error),
    }));
    if ('error' in mounted) config.recordEvent(pod, 'Warning', 'FailedMount', mounted.error);
  };

  /**
   * The termination ordering of one pod kill: each container's turn comes when its prerequisites
   * ({@link terminationPrerequisites}) have stopped, or after its grace period at the latest.
   */
  const terminationTurns = (pod: Pod, running: string[]) => {
    const prerequisites = terminationPrerequisites(pod, running);
    const stopped = new Map<string, { promise: Promise<void>; resolve: () => void }>();
    for (const name of running) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      stopped.set(name, { promise, resolve });
    }
    return {
      waitForTurn(name: string): ((graceSeconds: number) => Promise<number>) | undefined {
        const before = (prerequisites.get(name) ?? []).map((n) => stopped.get(n)?.promise);
        if (before.length === 0) return undefined;
        return async (graceSeconds) => {
          const started = now();
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.all(before),
            new Promise<void>((r) => {
              timer = setTimeout(r, graceSeconds * 1000);
              timer.unref?.();
            }),
          ]);
          clearTimeout(timer);
          return Math.floor((now() - started) / 1000);
        };
      },
      terminated(name: string) {
        stopped.get(name)?.resolve();
      },
    };
  };

  const manager: KubeRuntimeManager = {
    runtimeName: runtime.name,

    async getPodStatus(uid, name, namespace) {
      const [sandboxes, containers] = await Promise.all([
        runtime.listPodSandboxes({ podUid: uid }),
        runtime.listContainers({ podUid: uid }),
      ]);
      const sortedSandboxes = [...sandboxes].sort(
        (a, b) => b.createdAt - a.createdAt || b.metadata.attempt - a.metadata.attempt,
      );
      const newest = sortedSandboxes[0];
      return {
        uid,
        name,
        namespace,
        ips: newest?.state === 'SANDBOX_READY' && newest.ip ? [newest.ip] : [],
        sandboxes: sortedSandboxes.map((s) => ({
          id: s.id,
          ready: s.state === 'SANDBOX_READY',
          attempt: s.metadata.attempt,
          createdAt: s.createdAt,
          ip: s.ip,
        })),
        containers: containers
          .map(runtimeContainerStatus)
          .sort((a, b) => b.createdAt - a.createdAt || b.attempt - a.attempt),
      };
    },

    async syncPod(pod, status, signal) {
      const uid = podRef(pod).uid;
      const actions = computePodActions(pod, status, config.probes);
      let changed = false;
      if (actions.killPod) {
        const grace = pod.spec.terminationGracePeriodSeconds ?? 30;
        await manager.killPod(pod, { uid, name: podRef(pod).name, namespace: podRef(pod).namespace }, grace);
        changed = true;
      } else {
        for (const [id, kill] of actions.containersToKill) {
          await killContainer(pod, id, kill.name, pod.spec.terminationGracePeriodSeconds ?? 30, kill.message);
          changed = true;
        }
      }
      if (signal?.aborted) return { waitingReasons: new Map(reasonsOf(uid)), changed };

      let sandboxId = actions.sandboxId;
      const sandbox = sandboxConfig(pod, actions.attempt, config.podLogsDir);
      if (actions.createSandbox) {
        try {
          sandboxId = await runtime.runPodSandbox(sandbox);
          changed = true;
        } catch (error) {
          config.recordEvent(
            pod,
            'Warning',
            'FailedCreatePodSandBox',
            `Failed to create pod sandbox: ${String(error)}`,
          );
          throw error;
        }
      }
      if (
        !sandboxId ||
        (!actions.createSandbox &&
          actions.initContainersToStart.length === 0 &&
          actions.containersToStart.length === 0)
      ) {
        if (sandboxId && !actions.killPod) await refreshVolumes(pod, sandboxId);
        return { waitingReasons: new Map(reasonsOf(uid)), changed };
      }
      const sandboxIP = (await runtime.podSandboxStatus(sandboxId).catch(() => undefined))?.ip ?? '';
      const mounted = await config.volumes.mount(pod, volumeContext(sandboxIP));
      if ('error' in mounted) {
        config.recordEvent(pod, 'Warning', 'FailedMount', mounted.error);
        for (const c of pod.spec.containers)
          reasonsOf(uid).set(c.name, { reason: 'ContainerCreating', message: mounted.error });
        throw new Error(mounted.error);
      }
      const inits = pod.spec.initContainers ?? [];
      // init containers in spec order: a sidecar that cannot start is skipped, a regular init
      // container that cannot (or is backing off) ends this sync
      for (const index of actions.initContainersToStart) {
        if (signal?.aborted) break;
        const container = inits[index];
        if (!container) continue;
        const started =
          !inBackOff(pod, container, status) &&
          (await startContainer(
            pod,
            container,
            'initContainers',
            sandboxId,
            sandbox,
            status,
            mounted.paths,
            sandboxIP,
          ));
        if (started) changed = true;
        else if (!isRestartableInitContainer(container))
          return { waitingReasons: new Map(reasonsOf(uid)), changed };
      }
      for (const index of actions.containersToStart) {
        if (signal?.aborted) break;
        const container = pod.spec.containers[index];
        if (!container) continue;
        if (inBackOff(pod, container, status)) continue;
        if (
          await startContainer(
            pod,
            container,
            'containers',
            sandboxId,
            sandbox,
            status,
            mounted.paths,
            sandboxIP,
          )
        )
          changed = true;
      }
      return { waitingReasons: new Map(reasonsOf(uid)), changed };
    },

    async killPod(pod, running, gracePeriodSeconds) {
      const containers = await runtime.listContainers({ podUid: running.uid });
      const live = containers.filter(
        (c) => c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_CREATED',
      );
      const waits = pod
        ? terminationTurns(
            pod,
            live.map((c) => c.metadata.name),
          )
        : undefined;
      await Promise.all(
        live.map((c) =>
          killContainer(
            pod,
            c.id,
            c.metadata.name,
            gracePeriodSeconds,
            `Stopping container ${c.metadata.name}`,
            waits?.waitForTurn(c.metadata.name),
          ).finally(() => waits?.terminated(c.metadata.name)),
        ),
      );
      const sandboxes = await runtime.listPodSandboxes({ podUid: running.uid });
      for (const s of sandboxes) {
        if (s.state === 'SANDBOX_READY') {
          try {
            await runtime.stopPodSandbox(s.id);
          } catch (error) {
            if ((error as { code?: string }).code !== 'KUBE_RX_NOT_FOUND') throw error;
          }
        }
      }
    },

    async removePod(uid) {
      for (const c of await runtime.listContainers({ podUid: uid })) {
        await runtime.removeContainer(c.id).catch(() => undefined);
      }
      for (const s of await runtime.listPodSandboxes({ podUid: uid })) {
        await runtime.removePodSandbox(s.id).catch(() => undefined);
      }
    },

    async listPods() {
      const pods = new Map<string, RunningPod>();
      for (const s of await runtime.listPodSandboxes()) {
        pods.set(s.metadata.uid, {
          uid: s.metadata.uid,
          name: s.metadata.name,
          namespace: s.metadata.namespace,
        });
      }
      return [...pods.values()];
    },

    waitingReasons(uid) {
      return new Map(reasons.get(uid) ?? []);
    },

    forget(pod) {
      reasons.delete(pod.uid);
      backOff.forgetPrefix(`${pod.name}_${pod.namespace}_${pod.uid}_`);
    },
  };

  return manager;
}
