// FitError: why no node fits a pod, with kube-scheduler's message ("0/5 nodes are available: 2 Insufficient cpu, ...").
import type { Pod } from '../../api/core-v1.ts';
import { KubeRxError } from '../../errors.ts';
import type { NodeToStatus } from './interface.ts';
import type { Status } from './status.ts';

/** upstream's NoNodeAvailableMsg prefix. */
export const NO_NODE_AVAILABLE_MSG = (n: number) => `0/${n} nodes are available`;

/**
 * What one scheduling attempt learned. Invariants: `nodeToStatus.statuses` holds every node that was
 * filtered and rejected; nodes not in it carry `nodeToStatus.absent` (by default an
 * UnschedulableAndUnresolvable status without reasons); `unschedulablePlugins`/`pendingPlugins` are the
 * plugins that rejected the pod (the queue's hints listen to their events).
 */
export interface Diagnosis {
  readonly nodeToStatus: { readonly statuses: Map<string, Status>; absent: Status };
  readonly unschedulablePlugins: Set<string>;
  readonly pendingPlugins: Set<string>;
  /** The PreFilter rejection's message, when PreFilter rejected the pod. */
  preFilterMsg: string;
  /** PostFilter's message (e.g. "preemption: ..."), appended to the FitError message. */
  postFilterMsg: string;
}

/** An empty diagnosis; absent nodes count as UnschedulableAndUnresolvable with no reason. */
export function newDiagnosis(): Diagnosis {
  return {
    nodeToStatus: { statuses: new Map(), absent: { code: 'UnschedulableAndUnresolvable', reasons: [] } },
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    preFilterMsg: '',
    postFilterMsg: '',
  };
}

/** Records the status's plugin as an unschedulable (or, for Pending, pending) plugin, as Diagnosis.AddPluginStatus. */
export function addPluginStatus(diagnosis: Diagnosis, status: Status | undefined): void {
  if (!status?.plugin) return;
  if (status.code === 'Unschedulable' || status.code === 'UnschedulableAndUnresolvable') {
    diagnosis.unschedulablePlugins.add(status.plugin);
  } else if (status.code === 'Pending') {
    diagnosis.pendingPlugins.add(status.plugin);
  }
}

/** The read-only NodeToStatus view that PostFilter plugins receive. */
export function nodeToStatusOf(diagnosis: Diagnosis): NodeToStatus {
  return { statuses: diagnosis.nodeToStatus.statuses, absent: diagnosis.nodeToStatus.absent };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The FitError message: the PreFilter message or the sorted reason histogram, then the PostFilter message. */
export function fitErrorMessage(numAllNodes: number, diagnosis: Diagnosis): string {
  let msg = `${NO_NODE_AVAILABLE_MSG(numAllNodes)}:`;
  if (diagnosis.preFilterMsg !== '') {
    msg += ` ${diagnosis.preFilterMsg}.`;
  } else {
    const counts = new Map<string, number>();
    for (const status of diagnosis.nodeToStatus.statuses.values()) {
      for (const r of status.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    }
    const explicit = diagnosis.nodeToStatus.statuses.size;
    if (explicit < numAllNodes) {
      for (const r of diagnosis.nodeToStatus.absent.reasons) {
        counts.set(r, (counts.get(r) ?? 0) + numAllNodes - explicit);
      }
    }
    const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort(compareStrings);
    if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
  }
  if (diagnosis.postFilterMsg !== '') msg += ` ${diagnosis.postFilterMsg}`;
  return msg;
}

/**
 * No node fits the pod. A value (the scheduling cycle returns it), also an Error so it can ride in a
 * Status. Its message is computed on read, so a PostFilter message set later shows up.
 */
export class FitError extends KubeRxError {
  readonly pod: Pod;
  readonly numAllNodes: number;
  readonly diagnosis: Diagnosis;

  constructor(pod: Pod, numAllNodes: number, diagnosis: Diagnosis) {
    super('KUBE_RX_FIT_ERROR', '');
    this.pod = pod;
    this.numAllNodes = numAllNodes;
    this.diagnosis = diagnosis;
    Object.defineProperty(this, 'message', {
      get: () => fitErrorMessage(this.numAllNodes, this.diagnosis),
      enumerable: false,
      configurable: true,
    });
  }
}
