// The scheduler extender wire format (k8s.io/kube-scheduler/extender/v1): JSON bodies with Go's field names, decoded case-insensitively.
import type { Node, Pod } from '../../../operators/api/core-v1.ts';

/**
 * The bodies kube-scheduler POSTs to an extender and reads back. Upstream's Go structs carry no JSON
 * tags, so on the wire the keys are the Go field names (`Pod`, `NodeNames`, `FailedNodes`, ...), an absent
 * pointer is `null`, and answers are matched case-insensitively (Go's decoder does; an extender written
 * in another language often answers `nodeNames`).
 */

/** A v1.NodeList as Go marshals it (TypeMeta empty, so omitted). */
export interface NodeListV1 {
  metadata: Record<string, unknown>;
  items: Node[];
}

/** POSTed to the filter and prioritize verbs: `Nodes` unless the extender is nodeCacheCapable, then `NodeNames`. */
export interface ExtenderArgs {
  Pod: Pod;
  Nodes: NodeListV1 | null;
  NodeNames: string[] | null;
}

/** The filter verb's answer. */
export interface ExtenderFilterResult {
  Nodes?: NodeListV1 | null;
  NodeNames?: string[] | null;
  FailedNodes?: Record<string, string> | null;
  FailedAndUnresolvableNodes?: Record<string, string> | null;
  Error?: string;
}

/** One entry of the prioritize verb's answer (a HostPriorityList), Score in 0..10. */
export interface HostPriorityV1 {
  Host: string;
  Score: number;
}

/** POSTed to the bind verb. */
export interface ExtenderBindingArgs {
  PodName: string;
  PodNamespace: string;
  PodUID: string;
  Node: string;
}

/** The bind verb's answer. */
export interface ExtenderBindingResult {
  Error?: string;
}

export interface MetaPod {
  UID: string;
}

export interface MetaVictims {
  Pods: MetaPod[];
  NumPDBViolations: number;
}

export interface VictimsV1 {
  Pods: Pod[];
  NumPDBViolations: number;
}

/** POSTed to the preempt verb: `NodeNameToVictims` unless nodeCacheCapable, then `NodeNameToMetaVictims`. */
export interface ExtenderPreemptionArgs {
  Pod: Pod;
  NodeNameToVictims: Record<string, VictimsV1> | null;
  NodeNameToMetaVictims: Record<string, MetaVictims> | null;
}

/** The preempt verb's answer (always meta victims). */
export interface ExtenderPreemptionResult {
  NodeNameToMetaVictims?: Record<string, MetaVictims> | null;
}

/**
 * A field of a decoded JSON object as Go's decoder finds it: the exact key first, else the first key
 * equal ignoring case. @returns undefined when absent or when `obj` is not an object
 */
export function goField(obj: unknown, name: string): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  const rec = obj as Record<string, unknown>;
  if (Object.hasOwn(rec, name)) return rec[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(rec)) if (key.toLowerCase() === lower) return rec[key];
  return undefined;
}
