// scheduleOne: one pod's scheduling cycle (snapshot, algorithm, PostFilter, assume, Reserve, Permit), its asynchronous binding cycle, and the failure handler.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { Pod, PodCondition } from '../../operators/api/core-v1.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import {
  type Extender,
  extendersBinding,
  writeExtenders,
} from '../../operators/scheduling/framework/extender.ts';
import {
  addPluginStatus,
  FitError,
  newDiagnosis,
  nodeToStatusOf,
} from '../../operators/scheduling/framework/fit-error.ts';
import type { Framework } from '../../operators/scheduling/framework/framework.ts';
import { CycleState, type NominatingInfo } from '../../operators/scheduling/framework/interface.ts';
import {
  newSchedulingAlgorithmState,
  type SchedulingAlgorithmState,
  schedulePod,
} from '../../operators/scheduling/framework/schedule-pod.ts';
import {
  asStatus,
  isRejected,
  isSuccess,
  type Status,
  statusMessage,
} from '../../operators/scheduling/framework/status.ts';
import { EVENT_ASSIGNED_POD_DELETE } from '../../operators/scheduling/queue/cluster-events.ts';
import type { PriorityQueue } from '../../operators/scheduling/queue/priority-queue.ts';
import type { QueuedPodInfo } from '../../operators/scheduling/queue/queued-pod-info.ts';
import type { SchedulerCache } from './cache/scheduler-cache.ts';
import type { Snapshot } from './cache/snapshot.ts';
import type { SchedulerWrites } from './scheduler-api.ts';
import type { SchedulerMetrics } from './scheduler-metrics.ts';

/** kube-apiserver's limit on an Event's note; longer FitError messages are cut to it with " ...". */
export const NOTE_LENGTH_LIMIT = 1024;

/** A message cut to {@link NOTE_LENGTH_LIMIT} characters, ending in " ..." when cut. */
export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}

const CLEAR_NOMINATION: NominatingInfo = { nominatedNodeName: '', mode: 'Override' };

/** What one scheduling cycle needs; the scheduler assembly builds it. */
export interface ScheduleOneDeps {
  readonly queue: PriorityQueue;
  readonly cache: SchedulerCache;
  readonly snapshot: Snapshot;
  /** Frameworks by scheduler name (profile). */
  readonly frameworks: ReadonlyMap<string, Framework>;
  readonly api: SchedulerWrites;
  /** The informer's current pod (priority resolved), or undefined when it is gone. */
  getPod(namespace: string, name: string): Pod | undefined;
  /** The global percentageOfNodesToScore (0 = adaptive). */
  readonly percentageOfNodesToScore?: number;
  readonly extenders?: readonly Extender[];
  /** The clock for durations; default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  readonly random?: () => number;
  readonly metrics?: SchedulerMetrics;
  readonly logger?: Logger;
}

interface CycleResult {
  readonly host?: string;
  readonly status?: Status;
  readonly nominatingInfo?: NominatingInfo;
}

const fullName = (pod: Pod) => `${pod.metadata.namespace}/${pod.metadata.name}`;
const uidOf = (pod: Pod) => pod.metadata.uid ?? fullName(pod);

/**
 * kube-scheduler's scheduleOne, cycle by cycle. `run(podInfo)` is the scheduling cycle of one popped pod:
 * it resolves when that cycle is over (the loop then pulls the next pod), while the binding cycle goes on
 * in the background (`bindings` counts them; `drain()` waits for them; `stop()` aborts their requests).
 *
 * Scheduling cycle: skip a pod being deleted (FailedScheduling "skip schedule deleting pod") or already
 * assumed; update the snapshot; run the algorithm; on a FitError run PostFilter (preemption) and fail;
 * assume the pod on the chosen node; Reserve; Permit; activate the pods plugins asked for.
 * Binding cycle: WaitOnPermit, `queue.done`, PreBind, Bind (a binder extender interested in the pod, else
 * the Bind plugins), finishBinding, the Scheduled event
 * "Successfully assigned ns/name to node", PostBind; on a failure Unreserve, forget the assumed pod,
 * retry other pods (AssignedPodDelete) and hand the pod to the failure handler.
 * Failure handler: re-read the pod (gone or bound: only `done`); requeue it with its rejecting plugins;
 * record the nomination; a FailedScheduling Warning Event with the message cut to 1024 characters; the
 * PodScheduled=False condition (reason Unschedulable or SchedulerError, the whole message) and
 * nominatedNodeName patched when they change.
 */
export class ScheduleOne {
  readonly #deps: ScheduleOneDeps;
  readonly #clock: SchedulerLike;
  readonly #logger: Logger;
  readonly #algorithm: SchedulingAlgorithmState = newSchedulingAlgorithmState();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #abort = new AbortController();

  constructor(deps: ScheduleOneDeps) {
    this.#deps = deps;
    this.#clock = deps.scheduler ?? asyncScheduler;
    this.#logger = (deps.logger ?? silentLogger).child({ component: 'schedule-one' });
  }

  /** Binding cycles still running. */
  get bindings(): number {
    return this.#inFlight.size;
  }

  /** Resolves once every binding cycle started so far has ended. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Aborts the API requests of running binding cycles and failure handlers. */
  stop(): void {
    this.#abort.abort(new Error('scheduler stopped'));
  }

  /** The scheduling cycle of one popped pod; never rejects (failures are logged and handled). */
  async run(podInfo: QueuedPodInfo): Promise<void> {
    try {
      await this.#scheduleOne(podInfo);
    } catch (error) {
      this.#logger.error({ err: String(error), pod: fullName(podInfo.pod) }, 'scheduleOne failed');
      this.#deps.queue.done(podInfo.uid);
    }
  }

  async #scheduleOne(podInfo: QueuedPodInfo): Promise<void> {
    const { queue, cache } = this.#deps;
    const pod = podInfo.pod;
    const profile = pod.spec.schedulerName ?? 'default-scheduler';
    const fwk = this.#deps.frameworks.get(profile);
    if (!fwk) {
      this.#logger.error({ pod: fullName(pod), schedulerName: profile }, 'profile not found for pod');
      queue.done(podInfo.uid);
      return;
    }
    if (pod.metadata.deletionTimestamp) {
      this.#event(
        fwk,
        pod,
        'Warning',
        'FailedScheduling',
        'Scheduling',
        `skip schedule deleting pod: ${fullName(pod)}`,
      );
      this.#logger.info({ pod: fullName(pod) }, 'Skip schedule deleting pod');
      queue.done(podInfo.uid);
      return;
    }
    if (cache.isAssumedPod(pod)) {
      this.#logger.info({ pod: fullName(pod) }, 'Skip schedule pod that is already assumed');
      queue.done(podInfo.uid);
      return;
    }
    const start = this.#clock.now();
    const state = new CycleState();
    writeExtenders(state, this.#deps.extenders ?? []);
    const result = await this.#schedulingCycle(state, fwk, podInfo, start);
    if (!result.host) {
      await this.#failureHandler(
        fwk,
        podInfo,
        result.status!,
        result.nominatingInfo ?? CLEAR_NOMINATION,
        start,
      );
      return;
    }
    const assumed: Pod = { ...pod, spec: { ...pod.spec, nodeName: result.host } };
    const binding = this.#bindingCycle(state, fwk, podInfo, assumed, result.host, start).catch(
      (error: unknown) => {
        this.#logger.error({ err: String(error), pod: fullName(pod) }, 'binding cycle failed');
      },
    );
    this.#inFlight.add(binding);
    void binding.finally(() => this.#inFlight.delete(binding));
  }

  async #schedulingCycle(
    state: CycleState,
    fwk: Framework,
    podInfo: QueuedPodInfo,
    start: number,
  ): Promise<CycleResult> {
    const { cache, queue } = this.#deps;
    const pod = podInfo.pod;
    cache.updateSnapshot(this.#deps.snapshot);
    const result = await schedulePod({
      framework: fwk,
      state,
      pod,
      algorithm: this.#algorithm,
      ...(this.#deps.extenders ? { extenders: this.#deps.extenders } : {}),
      percentageOfNodesToScore: this.#deps.percentageOfNodesToScore ?? 0,
      ...(this.#deps.random ? { random: this.#deps.random } : {}),
    });
    if (result.type === 'Error') {
      const unresolvable = result.status.code === 'UnschedulableAndUnresolvable';
      this.#attempt(unresolvable ? 'unschedulable' : 'error', fwk, start);
      return { status: result.status, nominatingInfo: CLEAR_NOMINATION };
    }
    if (result.type === 'FitError') {
      const fitError = result.error;
      let nominatingInfo: NominatingInfo | undefined;
      if (fwk.hasPostFilterPlugins()) {
        const post = await fwk.runPostFilterPlugins(state, pod, nodeToStatusOf(fitError.diagnosis));
        if (post.status?.code === 'Error') {
          this.#logger.error(
            { pod: fullName(pod), err: statusMessage(post.status) },
            'Status after running PostFilter plugins for pod',
          );
        }
        fitError.diagnosis.postFilterMsg = statusMessage(post.status);
        nominatingInfo = post.result?.nominatingInfo;
        // as DefaultPreemption's PostFilter counts every attempt, and the victims of a chosen node
        this.#deps.metrics?.preemption(post.result?.victims);
      }
      this.#attempt('unschedulable', fwk, start);
      return {
        status: { code: 'Unschedulable', reasons: [], error: fitError },
        ...(nominatingInfo ? { nominatingInfo } : {}),
      };
    }

    const host = result.suggestedHost;
    const assumed: Pod = { ...pod, spec: { ...pod.spec, nodeName: host } };
    const assumeError = cache.assumePod(assumed);
    if (assumeError) {
      this.#attempt('error', fwk, start);
      return { status: asStatus(assumeError), nominatingInfo: CLEAR_NOMINATION };
    }
    queue.deleteNominatedPodIfExists(assumed);
    const reserve = fwk.runReservePluginsReserve(state, assumed, host);
    if (!isSuccess(reserve)) {
      this.#attempt(isRejected(reserve) ? 'unschedulable' : 'error', fwk, start);
      fwk.runReservePluginsUnreserve(state, assumed, host);
      this.#forget(assumed);
      return { status: this.#asFitStatus(pod, host, reserve!), nominatingInfo: CLEAR_NOMINATION };
    }
    const permit = fwk.runPermitPlugins(state, assumed, host);
    if (!isSuccess(permit) && permit?.code !== 'Wait') {
      this.#attempt(isRejected(permit) ? 'unschedulable' : 'error', fwk, start);
      fwk.runReservePluginsUnreserve(state, assumed, host);
      this.#forget(assumed);
      return { status: this.#asFitStatus(pod, host, permit!), nominatingInfo: CLEAR_NOMINATION };
    }
    this.#activate(state);
    return { host };
  }

  async #bindingCycle(
    state: CycleState,
    fwk: Framework,
    podInfo: QueuedPodInfo,
    assumed: Pod,
    host: string,
    start: number,
  ): Promise<void> {
    const { queue, cache } = this.#deps;
    const signal = this.#abort.signal;
    const fail = (status: Status) =>
      this.#bindingCycleError(state, fwk, podInfo, assumed, host, status, start);

    const waited = await fwk.waitOnPermit(assumed);
    if (!isSuccess(waited)) {
      await fail(isRejected(waited) ? this.#asFitStatus(podInfo.pod, host, waited!) : waited!);
      return;
    }
    queue.done(podInfo.uid);
    const preBind = await fwk.runPreBindPlugins(state, assumed, host, signal);
    if (!isSuccess(preBind)) {
      await fail(preBind!);
      return;
    }
    let bind = await this.#bind(state, fwk, assumed, host, signal);
    if (bind?.code === 'Skip') bind = asStatus(new Error(`no bind plugin bound pod ${fullName(assumed)}`));
    if (!isSuccess(bind)) {
      await fail(bind!);
      return;
    }
    const finishError = cache.finishBinding(assumed);
    if (finishError) this.#logger.error({ err: finishError.message }, 'scheduler cache FinishBinding failed');
    this.#logger.info(
      { pod: fullName(assumed), node: host, evaluatedNodes: undefined },
      'Successfully bound pod to node',
    );
    this.#attempt('scheduled', fwk, start);
    const first = podInfo.initialAttemptTimestamp ?? podInfo.timestamp;
    this.#deps.metrics?.podScheduled(podInfo.attempts, (this.#clock.now() - first) / 1000);
    this.#event(
      fwk,
      assumed,
      'Normal',
      'Scheduled',
      'Binding',
      `Successfully assigned ${fullName(assumed)} to ${host}`,
    );
    fwk.runPostBindPlugins(state, assumed, host);
    this.#activate(state);
  }

  /** A binder extender interested in the pod binds it; otherwise the Bind plugins do (upstream's bind). */
  async #bind(
    state: CycleState,
    fwk: Framework,
    assumed: Pod,
    host: string,
    signal: AbortSignal,
  ): Promise<Status | undefined> {
    const extenders = this.#deps.extenders ?? [];
    if (extenders.length > 0) {
      const byExtender = await extendersBinding(extenders, assumed, host, signal);
      if (byExtender.bound) return byExtender.error ? asStatus(byExtender.error) : undefined;
    }
    return fwk.runBindPlugins(state, assumed, host, signal);
  }

  async #bindingCycleError(
    state: CycleState,
    fwk: Framework,
    podInfo: QueuedPodInfo,
    assumed: Pod,
    host: string,
    status: Status,
    start: number,
  ): Promise<void> {
    const { queue } = this.#deps;
    this.#attempt(isRejected(status) ? 'unschedulable' : 'error', fwk, start);
    fwk.runReservePluginsUnreserve(state, assumed, host);
    this.#forget(assumed);
    const uid = uidOf(assumed);
    // Retry the pods this one kept out (its node has room again); the pod itself only when it was not rejected.
    const preCheck = isRejected(status) ? (p: Pod) => uidOf(p) !== uid : undefined;
    queue.moveAllToActiveOrBackoffQueue(EVENT_ASSIGNED_POD_DELETE, assumed, undefined, preCheck);
    await this.#failureHandler(fwk, podInfo, status, CLEAR_NOMINATION, start);
  }

  async #failureHandler(
    fwk: Framework,
    podInfo: QueuedPodInfo,
    status: Status,
    nominatingInfo: NominatingInfo,
    _start: number,
  ): Promise<void> {
    const { queue } = this.#deps;
    const pod = podInfo.pod;
    const reason = isRejected(status) ? 'Unschedulable' : 'SchedulerError';
    const message = statusMessage(status);
    const fitError = status.error instanceof FitError ? status.error : undefined;
    if (status.code === 'Error')
      this.#logger.error({ pod: fullName(pod), err: message }, 'Error scheduling pod; retrying');
    else this.#logger.info({ pod: fullName(pod), reason: message }, 'Unable to schedule pod; waiting');

    if (fitError) {
      podInfo.unschedulablePlugins = new Set(fitError.diagnosis.unschedulablePlugins);
      podInfo.pendingPlugins = new Set(fitError.diagnosis.pendingPlugins);
    } else if (isRejected(status) && status.plugin) {
      if (status.code === 'Pending') podInfo.pendingPlugins = new Set([status.plugin]);
      else podInfo.unschedulablePlugins = new Set([status.plugin]);
    } else if (status.code === 'Error') {
      podInfo.unschedulablePlugins = new Set();
      podInfo.pendingPlugins = new Set();
    }

    let requeued = false;
    const cached = this.#deps.getPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
    if (!cached) {
      this.#logger.info({ pod: fullName(pod) }, "Pod doesn't exist in informer cache");
    } else if (cached.spec.nodeName) {
      this.#logger.info(
        { pod: fullName(pod), node: cached.spec.nodeName },
        'Pod has been assigned to node. Abort adding it back to queue.',
      );
    } else {
      podInfo.update(cached);
      const err = queue.addUnschedulableIfNotPresent(podInfo, queue.schedulingCycle());
      if (err) this.#logger.error({ pod: fullName(pod), err: err.message }, 'Error occurred');
      requeued = true;
    }
    if (!requeued) queue.done(podInfo.uid);
    queue.addNominatedPod(pod, nominatingInfo);

    this.#event(fwk, pod, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(message));
    const target = cached ?? pod;
    const condition = this.#podScheduledCondition(target, reason, message);
    const nominated =
      nominatingInfo.mode === 'Override' &&
      (target.status?.nominatedNodeName ?? '') !== nominatingInfo.nominatedNodeName
        ? nominatingInfo.nominatedNodeName
        : undefined;
    if (!cached || (!condition && nominated === undefined)) return;
    try {
      await this.#deps.api.patchPodStatus(target, condition, nominated, this.#abort.signal);
    } catch (error) {
      this.#logger.error({ pod: fullName(pod), err: String(error) }, 'Error updating pod');
    }
  }

  /** The PodScheduled=False condition to write, or undefined when the pod already has exactly it. */
  #podScheduledCondition(pod: Pod, reason: string, message: string): PodCondition | undefined {
    const old = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (old && old.status === 'False' && old.reason === reason && old.message === message) return undefined;
    const now = new Date(Math.floor(this.#clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    return {
      type: 'PodScheduled',
      status: 'False',
      reason,
      message,
      lastProbeTime: null,
      lastTransitionTime:
        old && old.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : now,
    };
  }

  /** A rejection at Reserve/Permit/WaitOnPermit as a FitError over the one chosen node. */
  #asFitStatus(pod: Pod, host: string, status: Status): Status {
    if (!isRejected(status)) return status;
    const diagnosis = newDiagnosis();
    diagnosis.nodeToStatus.statuses.set(host, status);
    addPluginStatus(diagnosis, status);
    return {
      code: status.code,
      reasons: [],
      error: new FitError(pod, 1, diagnosis),
      ...(status.plugin ? { plugin: status.plugin } : {}),
    };
  }

  #forget(assumed: Pod): void {
    const err = this.#deps.cache.forgetPod(assumed);
    if (err) this.#logger.error({ err: err.message }, 'scheduler cache ForgetPod failed');
  }

  #activate(state: CycleState): void {
    if (state.podsToActivate.size === 0) return;
    this.#deps.queue.activate([...state.podsToActivate.values()]);
    state.podsToActivate.clear();
  }

  #event(
    fwk: Framework,
    pod: Pod,
    type: 'Normal' | 'Warning',
    reason: string,
    action: string,
    message: string,
  ): void {
    const sent = this.#deps.api
      .recordEvent(pod, type, reason, action, message, fwk.profileName, this.#abort.signal)
      .catch((error: unknown) => {
        if (!this.#abort.signal.aborted)
          this.#logger.warn({ err: String(error), pod: fullName(pod), reason }, 'could not record event');
      });
    this.#inFlight.add(sent);
    void sent.finally(() => this.#inFlight.delete(sent));
  }

  #attempt(result: 'scheduled' | 'unschedulable' | 'error', fwk: Framework, start: number): void {
    this.#deps.metrics?.attempt(result, fwk.profileName, (this.#clock.now() - start) / 1000);
  }
}
