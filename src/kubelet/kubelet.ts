// startKubelet: the kubelet assembled: pod manager, pod workers, runtime manager, status manager, prober, mirror pods, sync loop.
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import {
  asyncScheduler,
  exhaustMap,
  firstValueFrom,
  from,
  interval,
  map,
  merge,
  mergeMap,
  type Observable,
  type SchedulerLike,
  Subject,
  Subscription,
  tap,
} from 'rxjs';
import type { Node, Pod, PodStatus } from '../../operators/api/core-v1.ts';
import { admitPodSafely } from '../../operators/kubelet/admission.ts';
import { CrashLoopBackOff } from '../../operators/kubelet/crash-loop-backoff.ts';
import { generateApiPodStatus } from '../../operators/kubelet/generate-api-pod-status.ts';
import { fullNameOf, isMirrorPod, isStaticPod, PodManager } from '../../operators/kubelet/pod-manager.ts';
import type { RuntimePodStatus } from '../../operators/kubelet/runtime-pod-status.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { PodUpdate } from '../../operators/pod-config/types.ts';
import { PodWorkers } from '../../operators/pod-workers/pod-workers.ts';
import type { PodSyncer, RunningPod } from '../../operators/pod-workers/types.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { NODES } from '../../streams/resources.ts';
import type { ContainerRuntime } from '../../streams/runtimes/runtime.ts';
import { kubeletEventRecorder } from './event-recorder.ts';
import { kubeObjectReader } from './kube-objects.ts';
import { kubeRuntimeManager } from './kuberuntime/kuberuntime-manager.ts';
import { masterServiceEnv } from './kuberuntime/master-service-env.ts';
import { mirrorPodClient } from './mirror-pods.ts';
import { prober } from './prober/prober.ts';
import { type ProberManager, proberManager } from './prober/prober-manager.ts';
import {
  type KubeletServer,
  type KubeletServerOptions,
  startKubeletServer,
} from './server/start-kubelet-server.ts';
import { type StatusManager, statusManager } from './status/status-manager.ts';
import { syncLoop } from './sync-loop.ts';
import { tokenManager } from './token/token-manager.ts';
import { tokenRequestClient } from './token/token-request-client.ts';
import { podVolumes } from './volumes/pod-volumes.ts';

/** Settings of {@link startKubelet}; the kubelet's defaults where it has them. */
export interface KubeletOptions {
  nodeName: string;
  /** The API server: statuses, mirror pods, events, ConfigMaps and Secrets. */
  client: ApiClient;
  runtime: ContainerRuntime;
  /** The pod configuration (kubeletPodConfig): its updates and source names. */
  podConfig: { updates$: Observable<PodUpdate>; sources: readonly string[] };
  /** `--root-dir`; default `.kube-rx/kubelet`. Volumes go to `<rootDir>/pods/<uid>/volumes`. */
  rootDir?: string;
  /** Pod log directories; default `<rootDir>/logs/pods`. */
  podLogsDir?: string;
  /** `--node-ip`: status.hostIP and the downward API's hostIP; default the runtime's sandbox IP. */
  nodeIP?: string;
  /** `--max-pods`; default 110 (used when the Node reports no allocatable pods). */
  maxPods?: number;
  /** `syncFrequency`: how often a running pod is synced again; default 60 000 ms. */
  syncFrequencyMs?: number;
  /** Run probes (default true). */
  probes?: boolean;
  /** Close the runtime on stop (default true): every process it started is gone afterwards. */
  closeRuntime?: boolean;
  /** The kubelet's HTTPS server (logs, exec, /pods, metrics); not started when absent. */
  server?: KubeletServerOptions;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** A running kubelet. */
export interface Kubelet {
  readonly nodeName: string;
  readonly podWorkers: PodWorkers;
  readonly statusManager: StatusManager;
  /** The kubelet's server, when `server` was given. */
  readonly server?: KubeletServer;
  /** Stops the loop, the workers, the prober and the status sync, then closes the runtime. */
  stop(): Promise<void>;
}

const terminal = (phase: string | undefined) => phase === 'Succeeded' || phase === 'Failed';
const uidOf = (pod: Pod) => pod.metadata.uid ?? '';

/**
 * Starts a kubelet on the given runtime: the sync loop dispatches the pod configuration to the pod
 * workers, which drive the runtime through the kuberuntime manager and report each pod's status to
 * the status manager; static pods get mirror pods; pods the node cannot hold are rejected
 * (`OutOfcpu`, ...), failing with "Pod was rejected: ..." and a Warning event.
 *
 * @example
 * const { updates$, sources } = kubeletPodConfig({ nodeName, apiserver });
 * const kubelet = startKubelet({ nodeName, client, runtime: processRuntime(), podConfig: { updates$, sources } });
 * await kubelet.stop();
 *
 * Teardown: `stop()` unsubscribes every loop, aborts running syncs and (by default) closes the runtime,
 * which stops every process it started.
 *
 * @param options the node, API client, runtime and pod configuration
 * @returns the running kubelet
 */
export function startKubelet(options: KubeletOptions): Kubelet {
  const logger = (options.logger ?? silentLogger).child({ component: 'kubelet', node: options.nodeName });
  const scheduler = options.scheduler ?? asyncScheduler;
  const { client, runtime, nodeName } = options;
  const rootDir = resolve(options.rootDir ?? '.kube-rx/kubelet');
  const podLogsDir = resolve(options.podLogsDir ?? join(rootDir, 'logs', 'pods'));
  const maxPods = options.maxPods ?? 110;
  const recordEvent = kubeletEventRecorder(client, nodeName, logger);
  const reader = kubeObjectReader(client);
  // projected service-account tokens through TokenRequest, refreshed on remount (pkg/kubelet/token)
  const tokens = tokenManager({ getToken: tokenRequestClient(client), logger });
  const volumes = podVolumes({ rootDir, reader, tokens, logger });
  const podManager = new PodManager();
  const rejected = new Set<string>();
  const seenSources = new Set<string>();
  const mirrors = mirrorPodClient(client, logger);
  let node: Node | undefined;
  let hostIP = options.nodeIP;

  // The host's size is read once: os.cpus() parses /proc on every call, and admission asks per pod.
  const hostAllocatable = { cpu: String(cpus().length), memory: String(totalmem()), pods: String(maxPods) };
  const hostNode = (): Node => ({
    metadata: { name: nodeName },
    status: { allocatable: { ...hostAllocatable } },
  });
  const nodeForAdmission = (): Node => {
    const base = node ?? hostNode();
    const allocatable = { ...hostNode().status?.allocatable, ...(base.status?.allocatable ?? {}) };
    return { ...base, status: { ...(base.status ?? {}), allocatable } };
  };
  const refreshNode = async () => {
    try {
      node = await firstValueFrom(client.get<Node>(NODES, nodeName));
      hostIP ??= node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
    } catch (error) {
      logger.debug({ err: String(error) }, 'could not read the node');
    }
  };

  // the worker layer is created after the status manager, which asks it whether containers may run
  let workers: PodWorkers;
  const status = statusManager({
    client,
    podCouldHaveRunningContainers: (pod) =>
      !rejected.has(uidOf(pod)) && workers.couldHaveRunningContainers(uidOf(pod)),
    getPod: (uid) => podManager.getPodByUid(uid),
    scheduler,
    logger,
  });
  const probesEnabled = options.probes ?? true;
  const stripId = (id: string) => id.replace(/^[a-z]+:\/\//, '');
  const probeManager: ProberManager | undefined = probesEnabled
    ? proberManager({
        prober: prober({
          runtime: { execSync: (id, command, timeout) => runtime.execSync(stripId(id), command, timeout) },
          podHost: () => (runtime.name === 'process' ? '127.0.0.1' : undefined),
          onFailure: ({ probeType, pod, container, output }) =>
            recordEvent(
              pod,
              'Warning',
              'Unhealthy',
              `${probeType[0]?.toUpperCase()}${probeType.slice(1)} probe failed: ${output}`,
              `spec.containers{${container.name}}`,
            ),
          logger,
        }),
        getPodStatus: (uid) => status.getPodStatus(uid),
        scheduler,
        logger,
      })
    : undefined;

  const liveness = new Map<string, string>();
  const startup = new Map<string, string>();
  const krm = kubeRuntimeManager({
    runtime,
    podLogsDir,
    volumes,
    reader,
    recordEvent,
    node: () => ({ allocatable: nodeForAdmission().status?.allocatable, hostIP }),
    probes: {
      liveness: (id) => liveness.get(id) as 'Success' | 'Failure' | undefined,
      startup: (id) => startup.get(id) as 'Success' | 'Failure' | undefined,
    },
    backOff: new CrashLoopBackOff(),
    // in-cluster clients find the API server the kubelet talks to (KUBERNETES_SERVICE_HOST/PORT)
    serviceEnv: masterServiceEnv((client as { server?: unknown }).server as string | undefined),
    logger,
  });

  const makeStatus = (pod: Pod, rt: RuntimePodStatus, podIsTerminal: boolean): PodStatus => {
    const uid = uidOf(pod);
    const input = {
      pod,
      runtime: rt,
      oldStatus: status.getPodStatus(uid) ?? pod.status,
      runtimeName: krm.runtimeName,
      waitingReasons: krm.waitingReasons(uid),
      podIsTerminal,
      hostIP: hostIP ?? rt.sandboxes[0]?.ip,
      now: new Date().toISOString(),
    };
    const first = generateApiPodStatus(input);
    if (!probeManager) return first;
    probeManager.updatePodStatus(pod, first);
    const byId = new Map(
      [...(first.containerStatuses ?? []), ...(first.initContainerStatuses ?? [])]
        .filter((c) => c.containerID)
        .map((c) => [stripId(c.containerID ?? ''), c]),
    );
    return generateApiPodStatus({
      ...input,
      readiness: (id) => byId.get(id)?.ready,
      startup: (id) => byId.get(id)?.started,
    });
  };

  /** The pod's activeDeadlineSeconds has passed since its start time (the active deadline handler). */
  const pastActiveDeadline = (pod: Pod): boolean => {
    const deadline = pod.spec.activeDeadlineSeconds;
    if (typeof deadline !== 'number') return false;
    const start = status.getPodStatus(uidOf(pod))?.startTime ?? pod.status?.startTime;
    if (!start) return false;
    return Date.now() - Date.parse(start) >= deadline * 1000;
  };
  const deadlineStatus = (pod: Pod, apiStatus: PodStatus): PodStatus => {
    if (terminal(apiStatus.phase) || !pastActiveDeadline(pod)) return apiStatus;
    recordEvent(
      pod,
      'Normal',
      'DeadlineExceeded',
      'Pod was active on the node longer than the specified deadline',
    );
    return {
      ...apiStatus,
      phase: 'Failed',
      reason: 'DeadlineExceeded',
      message: 'Pod was active on the node longer than the specified deadline',
    };
  };

  const runtimeStatusOf = (pod: Pod) =>
    krm.getPodStatus(uidOf(pod), pod.metadata.name ?? '', pod.metadata.namespace ?? 'default');

  const syncer: PodSyncer = {
    syncPod: async (signal, _updateType, pod) => {
      let rt = await runtimeStatusOf(pod);
      if (isStaticPod(pod)) {
        if (!node) await refreshNode();
        await mirrors
          .reconcile(pod, podManager.getMirrorPodByPod(pod), node)
          .catch((error: unknown) =>
            logger.warn({ err: String(error), pod: fullNameOf(pod) }, 'Failed creating a mirror pod'),
          );
      }
      let apiStatus = deadlineStatus(pod, makeStatus(pod, rt, false));
      status.setPodStatus(pod, apiStatus);
      if (terminal(apiStatus.phase)) return true;
      probeManager?.addPod(pod);
      const result = await krm.syncPod(pod, rt, signal);
      if (result.changed || result.waitingReasons.size > 0) {
        rt = await runtimeStatusOf(pod);
        apiStatus = makeStatus(pod, rt, false);
        status.setPodStatus(pod, apiStatus);
        if (terminal(apiStatus.phase)) return true;
      }
      return false;
    },
    syncTerminatingPod: async (_signal, pod, gracePeriodSeconds) => {
      let rt = await runtimeStatusOf(pod);
      status.setPodStatus(pod, makeStatus(pod, rt, false));
      probeManager?.stopLivenessAndStartup(pod);
      await krm.killPod(
        pod,
        { uid: uidOf(pod), name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '' },
        gracePeriodSeconds,
      );
      rt = await runtimeStatusOf(pod);
      const stillRunning = rt.containers.filter((c) => c.state === 'running');
      if (stillRunning.length > 0) {
        throw new Error(
          `detected running containers after a successful KillPod, CRI violation: ${stillRunning.map((c) => c.id).join(',')}`,
        );
      }
      probeManager?.removePod(pod);
      status.setPodStatus(pod, makeStatus(pod, rt, true));
    },
    syncTerminatingRuntimePod: async (_signal, running: RunningPod) => {
      await krm.killPod(undefined, running, 1);
      await krm.removePod(running.uid);
      await volumes.remove(running.uid);
      krm.forget(running);
    },
    syncTerminatedPod: async (_signal, pod) => {
      // nothing of this pod runs any more: its service-account tokens are not refreshed again
      tokens.deleteServiceAccountToken(uidOf(pod));
      const rt = await runtimeStatusOf(pod);
      status.setPodStatus(pod, makeStatus(pod, rt, true));
      status.terminatePod(pod);
    },
  };

  workers = new PodWorkers(syncer, {
    resyncIntervalMs: options.syncFrequencyMs ?? 60_000,
    scheduler,
    logger: logger.child({ component: 'pod-workers' }),
  });

  const admittedPods = (except: string) =>
    podManager
      .getPods()
      .filter(
        (p) =>
          uidOf(p) !== except &&
          !rejected.has(uidOf(p)) &&
          !terminal(p.status?.phase) &&
          !workers.isPodKnownTerminated(uidOf(p)),
      );

  const rejectPod = (pod: Pod, reason: string, message: string) => {
    rejected.add(uidOf(pod));
    recordEvent(pod, 'Warning', reason, message);
    status.setPodStatus(pod, {
      ...(pod.status ?? {}),
      phase: 'Failed',
      reason,
      message: `Pod was rejected: ${message}`,
    });
  };

  const handler = {
    handlePodAdditions(pods: Pod[]) {
      const sorted = [...pods].sort((a, b) =>
        (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
      );
      for (const pod of sorted) {
        podManager.updatePod(pod);
        if (isMirrorPod(pod)) {
          const owner = podManager.getPodByFullName(fullNameOf(pod));
          if (owner && isStaticPod(owner))
            workers.updatePod({ updateType: 'update', pod: owner, mirrorPod: pod });
          continue;
        }
        const uid = uidOf(pod);
        if (rejected.has(uid)) continue;
        if (!workers.isPodTerminationRequested(uid) && !terminal(pod.status?.phase)) {
          const verdict = admitPodSafely(pod, nodeForAdmission(), admittedPods(uid));
          if (!verdict.admit) {
            rejectPod(pod, verdict.reason, verdict.message);
            continue;
          }
        }
        workers.updatePod({
          updateType: 'create',
          pod,
          mirrorPod: podManager.getMirrorPodByPod(pod),
          startTime: scheduler.now(),
        });
      }
    },
    handlePodUpdates(pods: Pod[]) {
      for (const pod of pods) {
        podManager.updatePod(pod);
        const pair = podManager.getPodAndMirrorPod(pod);
        if (!pair.pod || rejected.has(uidOf(pair.pod))) continue;
        if (pair.wasMirror && !isStaticPod(pair.pod)) continue;
        workers.updatePod({
          updateType: 'update',
          pod: pair.pod,
          mirrorPod: pair.mirror,
          startTime: scheduler.now(),
        });
      }
    },
    handlePodRemoves(pods: Pod[]) {
      for (const pod of pods) {
        podManager.removePod(pod);
        if (isMirrorPod(pod)) {
          const owner = podManager.getPodByFullName(fullNameOf(pod));
          if (owner && isStaticPod(owner)) workers.updatePod({ updateType: 'update', pod: owner });
          continue;
        }
        if (!options.podConfig.sources.every((s) => seenSources.has(s))) {
          logger.info({ pod: fullNameOf(pod) }, "skipping delete because sources aren't ready yet");
          continue;
        }
        workers.updatePod({ updateType: 'kill', pod });
      }
    },
    handlePodReconcile(pods: Pod[]) {
      for (const pod of pods) podManager.updatePod(pod);
    },
    handlePodSyncs(pods: Pod[]) {
      for (const pod of pods) {
        const pair = podManager.getPodAndMirrorPod(pod);
        if (pair.wasMirror || !pair.pod || rejected.has(uidOf(pair.pod))) continue;
        workers.updatePod({ updateType: 'sync', pod: pair.pod, mirrorPod: pair.mirror });
      }
    },
    async handlePodCleanups() {
      const pods = podManager.getPods();
      const desired = new Set(pods.map(uidOf));
      const known = workers.syncKnownPods(pods);
      for (const running of await krm.listPods()) {
        if (!known.has(running.uid) && !desired.has(running.uid)) {
          workers.updatePod({ updateType: 'kill', runningPod: running });
        }
      }
      status.removeOrphanedStatuses([...desired, ...known.keys()]);
      probeManager?.cleanupPods([...desired].filter((uid) => !workers.isPodKnownTerminated(uid)));
      for (const mirror of podManager.getOrphanedMirrorPods()) {
        if (workers.isPodForMirrorPodTerminatingByFullName(fullNameOf(mirror))) continue;
        await mirrors
          .deleteMirrorPod(mirror)
          .catch((error: unknown) =>
            logger.warn({ err: String(error) }, 'Failed deleting orphaned mirror pod'),
          );
        podManager.removePod(mirror);
      }
      for (const pod of pods) {
        const uid = uidOf(pod);
        if (!known.has(uid) && !rejected.has(uid) && !terminal(pod.status?.phase)) {
          workers.updatePod({ updateType: 'create', pod, mirrorPod: podManager.getMirrorPodByPod(pod) });
        }
      }
      for (const uid of rejected) if (!desired.has(uid)) rejected.delete(uid);
      if (housekeepings++ % 5 === 0) await refreshNode();
    },
    podByUid: (uid: string) => podManager.getPodByUid(uid),
    dueWork: () => [
      ...workers.dueWork(),
      ...podManager
        .getPods()
        .filter((p) => !workers.isPodTerminationRequested(uidOf(p)) && pastActiveDeadline(p))
        .map(uidOf),
    ],
    recordProbeResult(update: { probeType: string; podUid: string; containerId: string; result: string }) {
      if (update.probeType === 'readiness')
        status.setContainerReadiness(update.podUid, update.containerId, update.result === 'Success');
      if (update.probeType === 'startup')
        status.setContainerStartup(update.podUid, update.containerId, update.result === 'Success');
    },
  };
  let housekeepings = 1;

  // PLEG: the runtime's events plus a relist every second that notices any state change
  const lastStates = new Map<string, string>();
  const relist$ = interval(1_000, scheduler).pipe(
    exhaustMap(() => from(runtime.listContainers().catch(() => []))),
    mergeMap((containers) => {
      const changed: { podUid: string }[] = [];
      const seen = new Set<string>();
      for (const c of containers) {
        seen.add(c.id);
        if (lastStates.get(c.id) !== c.state) {
          lastStates.set(c.id, c.state);
          const podUid = c.labels['io.kubernetes.pod.uid'];
          if (podUid) changed.push({ podUid });
        }
      }
      for (const id of lastStates.keys()) if (!seen.has(id)) lastStates.delete(id);
      return changed;
    }),
  );
  const pleg$ = merge(runtime.events$.pipe(map((e) => ({ podUid: e.podUid }))), relist$);

  const probeResults$ = probeManager
    ? probeManager.results$.pipe(
        tap((update) => {
          const id = stripId(update.containerId);
          if (update.probeType === 'liveness') liveness.set(id, update.result);
          if (update.probeType === 'startup') startup.set(id, update.result);
        }),
      )
    : undefined;

  const subscription = new Subscription();
  const updates$ = new Subject<PodUpdate>();
  subscription.add(
    syncLoop(handler, {
      updates$: updates$.pipe(tap((u) => seenSources.add(u.source))),
      sources: options.podConfig.sources,
      podLifecycleEvents$: pleg$,
      probeResults$,
      scheduler,
      logger,
    }).subscribe({ error: (error: unknown) => logger.error({ err: String(error) }, 'sync loop stopped') }),
  );
  subscription.add(status.run().subscribe());
  subscription.add(tokens.cleanup$(60_000, scheduler).subscribe());
  subscription.add(
    options.podConfig.updates$.subscribe({
      next: (u) => updates$.next(u),
      error: (error: unknown) => logger.error({ err: String(error) }, 'pod configuration stopped'),
    }),
  );
  void refreshNode();
  logger.info({ runtime: `${runtime.name}://${runtime.version}`, rootDir, podLogsDir }, 'kubelet started');

  const server = options.server
    ? startKubeletServer({ ...options.server, runtime, pods: () => podManager.getPods(), logger })
    : undefined;

  let stopping: Promise<void> | undefined;
  return {
    nodeName,
    podWorkers: workers,
    statusManager: status,
    ...(server ? { server } : {}),
    stop() {
      stopping ??= (async () => {
        await server?.close();
        subscription.unsubscribe();
        workers.close();
        probeManager?.stop();
        if (options.closeRuntime ?? true) await runtime.close();
        logger.info('kubelet stopped');
      })();
      return stopping;
    },
  };
}
