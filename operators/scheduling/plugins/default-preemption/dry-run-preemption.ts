// The candidate search: which nodes preemption might help, how many candidates to find, and the dry run over them.
import type { Pod } from '../../../api/core-v1.ts';
import type { CycleState, NodeToStatus, PodDisruptionBudget } from '../../framework/interface.ts';
import type { NodeInfo } from '../../framework/node-info.ts';
import { newStatus, type Status } from '../../framework/status.ts';
import type { Candidate } from './pick-one-node-for-preemption.ts';
import { selectVictimsOnNode, type VictimEligibility, type VictimsHandle } from './select-victims-on-node.ts';

export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';

/** The status Filter gave a node; a node never filtered counts as UnschedulableAndUnresolvable. */
export function nodeStatusOf(statuses: NodeToStatus, nodeName: string): Status {
  return statuses.statuses.get(nodeName) ?? statuses.absent ?? newStatus('UnschedulableAndUnresolvable');
}

/**
 * Nodes whose Filter status was plain Unschedulable (removing pods might help); the others get
 * UnschedulableAndUnresolvable "Preemption is not helpful for scheduling".
 */
export function nodesWherePreemptionMightHelp(
  nodes: readonly NodeInfo[],
  statuses: NodeToStatus,
): { potential: NodeInfo[]; unresolvable: Map<string, Status> } {
  const potential: NodeInfo[] = [];
  const unresolvable = new Map<string, Status>();
  for (const n of nodes) {
    if (nodeStatusOf(statuses, n.name).code === 'UnschedulableAndUnresolvable') {
      unresolvable.set(n.name, newStatus('UnschedulableAndUnresolvable', PREEMPTION_NOT_HELPFUL));
    } else potential.push(n);
  }
  return { potential, unresolvable };
}

/** How many candidates to look for: numNodes * percentage / 100, at least `minAbsolute`, at most numNodes. */
export function numCandidates(numNodes: number, percentage: number, minAbsolute: number): number {
  const n = Math.trunc((numNodes * percentage) / 100);
  return Math.min(Math.max(n, minAbsolute), numNodes);
}

export interface DryRunResult {
  /** Candidates without PDB violations first, then the violating ones, each in search order. */
  readonly candidates: Candidate[];
  /** Why each rejected node cannot host the preemptor. */
  readonly statuses: Map<string, Status>;
  readonly errors: Error[];
}

/**
 * Runs selectVictimsOnNode on a copy of each potential node (and a clone of the cycle state), starting
 * at `offset` and wrapping round, until `wanted` candidates are found with at least one that violates
 * no PDB.
 */
export function dryRunPreemption(
  handle: VictimsHandle,
  state: CycleState,
  preemptor: Pod,
  potential: readonly NodeInfo[],
  pdbs: readonly PodDisruptionBudget[],
  offset: number,
  wanted: number,
  now: number,
  isEligible?: VictimEligibility,
): DryRunResult {
  const nonViolating: Candidate[] = [];
  const violating: Candidate[] = [];
  const statuses = new Map<string, Status>();
  const errors: Error[] = [];
  for (let i = 0; i < potential.length; i++) {
    const nodeInfo = potential[(offset + i) % potential.length]!.clone();
    const outcome = selectVictimsOnNode(handle, state.clone(), preemptor, nodeInfo, pdbs, now, isEligible);
    let status: Status;
    if (outcome.ok && outcome.victims.length > 0) {
      const c = { name: nodeInfo.name, victims: outcome.victims, numPdbViolations: outcome.numPdbViolations };
      (c.numPdbViolations === 0 ? nonViolating : violating).push(c);
      if (nonViolating.length > 0 && nonViolating.length + violating.length >= wanted) break;
      continue;
    }
    if (outcome.ok)
      status = newStatus('Error', `expected at least one victim pod on node "${nodeInfo.name}"`);
    else status = outcome.status;
    if (status.code === 'Error') errors.push(status.error ?? new Error(status.reasons.join(', ')));
    statuses.set(nodeInfo.name, status);
  }
  return { candidates: [...nonViolating, ...violating], statuses, errors };
}
