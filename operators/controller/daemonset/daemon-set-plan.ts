// daemonSetPlan: the nodes that need a daemon pod and the pods to delete in one sync — upstream's manage (podsShouldBeOnNode) and, when that has nothing to do, rollingUpdate.
import type { Node, Pod } from '../../api/core-v1.ts';
import { isPodReady } from '../pod-deletion-order.ts';
import { isPodAvailable } from '../replicaset/replica-set-status.ts';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  type DaemonSet,
  POD_TEMPLATE_GENERATION_LABEL,
} from './daemon-set-types.ts';
import { nodeShouldRunDaemonPod } from './node-should-run-daemon-pod.ts';
import { nodesToDaemonPods } from './nodes-to-daemon-pods.ts';
import { rollingUpdateCounts } from './rolling-update-counts.ts';

/** One sync's work. Invariant: no node appears twice in `create`; no pod twice in `delete`. */
export interface DaemonSetPlan {
  /** Nodes to create a pod for (the manage step, or surge replacements of a rolling update). */
  create: string[];
  /** Pods to delete. */
  delete: Pod[];
  /** Which step decided: `manage` (pods missing or in excess) or `rollingUpdate` (old revisions replaced). */
  step: 'manage' | 'rollingUpdate' | 'none';
}

/** Whether the pod belongs to the current revision (upstream's IsPodUpdated: the generation label or the hash label). */
export function isDaemonPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  return (
    (generation !== undefined && labels[POD_TEMPLATE_GENERATION_LABEL] === String(generation)) ||
    labels[CONTROLLER_REVISION_HASH_LABEL] === hash
  );
}

/** Whether the strategy is RollingUpdate with a non-zero maxSurge (upstream's AllowsSurge). */
const allowsSurge = (ds: DaemonSet) => {
  const s = ds.spec.updateStrategy;
  const surge = s?.rollingUpdate?.maxSurge;
  return (
    (s?.type ?? 'RollingUpdate') === 'RollingUpdate' && surge !== undefined && surge !== 0 && surge !== '0%'
  );
};

/**
 * The manage step for every node: a node that should run a pod and has none gets one; one that may keep
 * its pods deletes failed and succeeded ones and, without surge, every running pod but the first
 * (scheduled, oldest), or with surge every pod but the oldest new and oldest old (and the old one too once
 * it is not ready or the new one is available), creating one where no live pod is left; a node that may
 * not keep them loses them all. Pods naming
 * a node that does not exist and not yet bound are deleted.
 */
function manage(
  ds: DaemonSet,
  nodes: readonly Node[],
  byNode: Map<string, Pod[]>,
  hash: string,
  now: number,
) {
  const create: string[] = [];
  const del: Pod[] = [];
  const minReady = ds.spec.minReadySeconds ?? 0;
  const surge = allowsSurge(ds);
  const names = new Set<string>();
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    names.add(name);
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
    const pods = byNode.get(name) ?? [];
    if (shouldRun && pods.length === 0) {
      create.push(name);
      continue;
    }
    const live = pods.filter((p) => !p.metadata.deletionTimestamp);
    if (!shouldContinueRunning) {
      del.push(...live);
      continue;
    }
    const running: Pod[] = [];
    for (const p of live) {
      if (p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded') del.push(p);
      else running.push(p);
    }
    if (!surge) {
      del.push(...running.slice(1));
      continue;
    }
    if (running.length <= 1) {
      // surging keeps at least one live pod on a node that should run one
      if (running.length === 0 && shouldRun) create.push(name);
      continue;
    }
    let oldestNew: Pod | undefined;
    let oldestOld: Pod | undefined;
    for (const p of running) {
      if (p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash) {
        if (!oldestNew) {
          oldestNew = p;
          continue;
        }
      } else if (!oldestOld) {
        oldestOld = p;
        continue;
      }
      del.push(p);
    }
    if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady, now))) {
      del.push(oldestOld);
    }
  }
  for (const [node, pods] of byNode) {
    if (names.has(node)) continue;
    for (const p of pods) if (!p.spec.nodeName && !p.metadata.deletionTimestamp) del.push(p);
  }
  return { create, del };
}

/** The node's single new and single old pod (deleting ones ignored); `ok` false when there are two of either. */
function updatedPodsOnNode(pods: readonly Pod[], ds: DaemonSet, hash: string) {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    if (isDaemonPodUpdated(p, hash, ds.metadata.generation)) {
      if (newPod) return { ok: false as const };
      newPod = p;
    } else {
      if (oldPod) return { ok: false as const };
      oldPod = p;
    }
  }
  return { ok: true as const, newPod, oldPod };
}

/**
 * The rolling-update step (upstream's rollingUpdate). Without surge: old pods that are not available are
 * replaced at once; available old pods are deleted while fewer than maxUnavailable nodes are unavailable
 * (a node without a single new available pod counts as unavailable). With surge: a new pod is created next
 * to an old one (at once when the old is unavailable, else while fewer than maxSurge nodes are surging),
 * and the old pod is deleted once the new one is available.
 */
function rollingUpdate(
  ds: DaemonSet,
  nodes: readonly Node[],
  byNode: Map<string, Pod[]>,
  hash: string,
  now: number,
) {
  const { maxSurge, maxUnavailable } = rollingUpdateCounts(ds, nodes);
  const wanted = new Map(byNode);
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    if (nodeShouldRunDaemonPod(node, ds).shouldRun && !wanted.has(name)) wanted.set(name, []);
  }
  const minReady = ds.spec.minReadySeconds ?? 0;
  const available = (p: Pod) => isPodAvailable(p, minReady, now);
  const del: Pod[] = [];
  const create: string[] = [];
  if (maxSurge === 0) {
    let unavailable = 0;
    const allowed: Pod[] = [];
    const candidates: Pod[] = [];
    for (const pods of wanted.values()) {
      const r = updatedPodsOnNode(pods, ds, hash);
      if (!r.ok || (r.newPod === undefined) === (r.oldPod === undefined)) {
        unavailable++;
      } else if (r.newPod) {
        if (!available(r.newPod)) unavailable++;
      } else if (r.oldPod) {
        if (!available(r.oldPod)) allowed.push(r.oldPod);
        else if (unavailable < maxUnavailable) candidates.push(r.oldPod);
      }
    }
    const remaining = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
    del.push(...allowed, ...candidates.slice(0, remaining));
    return { create, del };
  }
  let surging = 0;
  const allowed: string[] = [];
  const candidates: string[] = [];
  for (const [node, pods] of wanted) {
    const r = updatedPodsOnNode(pods, ds, hash);
    if (!r.ok) {
      surging++;
    } else if (!r.oldPod) {
      // nothing old here: the manage step handles it
    } else if (!r.newPod) {
      if (!available(r.oldPod)) allowed.push(node);
      else if (surging < maxSurge) candidates.push(node);
    } else if (!available(r.newPod)) {
      surging++;
    } else {
      del.push(r.oldPod);
    }
  }
  const remaining = Math.min(Math.max(maxSurge - surging, 0), candidates.length);
  create.push(...allowed, ...candidates.slice(0, remaining));
  return { create, del };
}

/**
 * One sync's plan: the manage step; when it has nothing to do and the strategy is RollingUpdate, the
 * rolling-update step (OnDelete replaces nothing: old pods go only when someone deletes them).
 *
 * ```
 * nodes n1 n2 n3, pods on n1 (current) and n3 (old, available), maxUnavailable 1
 * → manage: create [n2]          next sync (n2 filled) → rollingUpdate: delete [n3's pod]
 * ```
 *
 * @param input.ds the daemon set
 * @param input.nodes every node
 * @param input.pods the daemon set's claimed pods
 * @param input.hash the current revision's hash
 * @param input.now the time in ms (availability with minReadySeconds)
 */
export function daemonSetPlan(input: {
  ds: DaemonSet;
  nodes: readonly Node[];
  pods: readonly Pod[];
  hash: string;
  now: number;
}): DaemonSetPlan {
  const { ds, nodes, hash, now } = input;
  const byNode = nodesToDaemonPods(input.pods);
  const m = manage(ds, nodes, byNode, hash, now);
  if (m.create.length > 0 || m.del.length > 0)
    return { create: m.create, delete: unique(m.del), step: 'manage' };
  if ((ds.spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate')
    return { create: [], delete: [], step: 'none' };
  const r = rollingUpdate(ds, nodes, byNode, hash, now);
  if (r.create.length > 0 || r.del.length > 0)
    return { create: r.create, delete: unique(r.del), step: 'rollingUpdate' };
  return { create: [], delete: [], step: 'none' };
}

const unique = (pods: Pod[]) => [
  ...new Map(pods.map((p) => [p.metadata.uid ?? p.metadata.name, p])).values(),
];
