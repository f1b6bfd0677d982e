// DefaultPreemption: the PostFilter that makes room for an unschedulable pod by evicting lower-priority pods on one node.
import type { Pod } from '../../../api/core-v1.ts';
import { extendersOf } from '../../framework/extender.ts';
import { fitErrorMessage, newDiagnosis } from '../../framework/fit-error.ts';
import type {
  CycleState,
  FrameworkHandle,
  NodeToStatus,
  PluginFactory,
  PostFilterPlugin,
  PostFilterResult,
} from '../../framework/interface.ts';
import { asStatus, newStatus, type Status, statusMessage } from '../../framework/status.ts';
import { callExtenders } from './call-extenders.ts';
import {
  type DefaultPreemptionArgs,
  defaultDefaultPreemptionArgs,
  validateDefaultPreemptionArgs,
} from './default-preemption-args.ts';
import {
  dryRunPreemption,
  nodeStatusOf,
  nodesWherePreemptionMightHelp,
  numCandidates,
} from './dry-run-preemption.ts';
import { podEligibleToPreemptOthers } from './eligibility.ts';
import { type Candidate, pickOneNodeForPreemption } from './pick-one-node-for-preemption.ts';
import { clearNominatedNodeName, prepareCandidate } from './prepare-candidate.ts';
import type { VictimEligibility } from './select-victims-on-node.ts';

export const DEFAULT_PREEMPTION = 'DefaultPreemption';

/** What the plugin draws on besides the handle. */
export interface DefaultPreemptionDeps {
  /** The random start offset of the candidate search: an integer in [0, n); default uniform random. */
  random?: (n: number) => number;
  /** Upstream's IsEligiblePod hook: may this lower-priority pod be a victim? Default: yes. */
  isEligiblePod?: VictimEligibility;
}

type Outcome = { result?: PostFilterResult; status?: Status };

const nominate = (nodeName: string): PostFilterResult => ({
  nominatingInfo: { nominatedNodeName: nodeName, mode: 'Override' },
});

/**
 * The DefaultPreemption plugin. Invariants: only pods of lower priority than the preemptor are ever
 * victims; the chosen victims are the ones whose removal the dry run showed lets the preemptor pass
 * every Filter on that node (with the nominated pods counted); the result nominates that node.
 */
export class DefaultPreemption implements PostFilterPlugin {
  readonly name = DEFAULT_PREEMPTION;
  readonly #handle: FrameworkHandle;
  readonly #args: Required<DefaultPreemptionArgs>;
  readonly #random: (n: number) => number;
  readonly #isEligible: VictimEligibility | undefined;

  constructor(args: DefaultPreemptionArgs, handle: FrameworkHandle, deps: DefaultPreemptionDeps = {}) {
    validateDefaultPreemptionArgs(args);
    this.#args = defaultDefaultPreemptionArgs(args);
    this.#handle = handle;
    this.#random = deps.random ?? ((n) => Math.floor(Math.random() * n));
    this.#isEligible = deps.isEligiblePod;
  }

  async postFilter(state: CycleState, pod: Pod, filteredNodeStatuses: NodeToStatus): Promise<Outcome> {
    const { result, status } = await this.preempt(state, pod, filteredNodeStatuses);
    const message = statusMessage(status);
    if (!status || message === '') return { result, status };
    const text = `preemption: ${message}`;
    const prefixed: Status = status.error
      ? { code: status.code, reasons: [text], error: new Error(text, { cause: status.error }) }
      : { code: status.code, reasons: [text] };
    return { result, status: prefixed };
  }

  /**
   * The pipeline: re-read the preemptor → check eligibility → find candidates by dry run → let the
   * cycle's extenders narrow them (upstream's callExtenders) → pick one → evict its victims → nominate the node.
   */
  async preempt(state: CycleState, pod: Pod, statuses: NodeToStatus): Promise<Outcome> {
    const preemptor = this.#handle.getPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
    if (!preemptor) {
      return {
        status: asStatus(new Error(`pod "${pod.metadata.namespace}/${pod.metadata.name}" not found`)),
      };
    }
    const snapshot = this.#handle.snapshot();
    const nominatedStatus = preemptor.status?.nominatedNodeName
      ? nodeStatusOf(statuses, preemptor.status.nominatedNodeName)
      : undefined;
    const eligibility = podEligibleToPreemptOthers(preemptor, snapshot, nominatedStatus, this.#isEligible);
    if (!eligibility.eligible) return { status: newStatus('Unschedulable', eligibility.message) };

    const found = await this.findCandidates(state, preemptor, statuses);
    if (found.error && found.candidates.length === 0) return { status: asStatus(found.error) };
    if (found.candidates.length === 0) {
      const diagnosis = newDiagnosis();
      for (const [name, status] of found.statuses) diagnosis.nodeToStatus.statuses.set(name, status);
      return {
        result: nominate(''),
        status: newStatus('Unschedulable', fitErrorMessage(found.numAllNodes, diagnosis)),
      };
    }
    // The extenders that take part in preemption may drop candidates or change their victims.
    const consulted = await callExtenders(extendersOf(state), preemptor, found.candidates, snapshot);
    if (consulted.status) return { status: consulted.status };
    const best = this.selectCandidate(consulted.candidates);
    if (!best?.name) return { status: newStatus('Unschedulable', 'no candidate node for preemption') };
    const prepared = await prepareCandidate(this.#handle, this.name, best, preemptor);
    if (prepared) return { status: prepared };
    return { result: { ...nominate(best.name), victims: best.victims.length } };
  }

  /** Candidates from the nodes where preemption might help, searched from a random offset. */
  async findCandidates(
    state: CycleState,
    preemptor: Pod,
    statuses: NodeToStatus,
  ): Promise<{ candidates: Candidate[]; statuses: Map<string, Status>; numAllNodes: number; error?: Error }> {
    const allNodes = this.#handle.snapshot().list();
    if (allNodes.length === 0) {
      return { candidates: [], statuses: new Map(), numAllNodes: 0, error: new Error('no nodes available') };
    }
    const { potential, unresolvable } = nodesWherePreemptionMightHelp(allNodes, statuses);
    if (potential.length === 0) {
      await clearNominatedNodeName(this.#handle, [preemptor]);
      return { candidates: [], statuses: unresolvable, numAllNodes: allNodes.length };
    }
    const wanted = numCandidates(
      potential.length,
      this.#args.minCandidateNodesPercentage,
      this.#args.minCandidateNodesAbsolute,
    );
    const offset = this.#random(potential.length);
    const run = dryRunPreemption(
      this.#handle,
      state,
      preemptor,
      potential,
      this.#handle.podDisruptionBudgets(),
      offset,
      wanted,
      this.#handle.scheduler.now(),
      this.#isEligible,
    );
    for (const [name, status] of unresolvable) run.statuses.set(name, status);
    const error = run.errors.length > 0 ? new Error(run.errors.map((e) => e.message).join(', ')) : undefined;
    return {
      candidates: run.candidates,
      statuses: run.statuses,
      numAllNodes: allNodes.length,
      ...(error ? { error } : {}),
    };
  }

  selectCandidate(candidates: readonly Candidate[]): Candidate | undefined {
    return pickOneNodeForPreemption(candidates, this.#handle.scheduler.now());
  }
}

/** Builds the plugin from its args (`DefaultPreemptionArgs`) and the handle. */
export function newDefaultPreemption(
  args: DefaultPreemptionArgs | undefined,
  handle: FrameworkHandle,
  deps: DefaultPreemptionDeps = {},
): DefaultPreemption {
  return new DefaultPreemption(args ?? {}, handle, deps);
}

/** The registry entry: a PluginFactory (optionally with an injected random source). */
export function defaultPreemptionFactory(deps: DefaultPreemptionDeps = {}): PluginFactory {
  return (args, handle) => newDefaultPreemption(args as DefaultPreemptionArgs | undefined, handle, deps);
}
