// Test helper: an in-memory Extender as upstream's testing FakeExtender (predicates, weighted prioritizers, binder, preemption by the framework's own dry run).
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Extender, HostPriority, Victims } from '../../../../operators/scheduling/framework/extender.ts';
import type { NodeInfoLister } from '../../../../operators/scheduling/framework/interface.ts';
import type { NodeInfo } from '../../../../operators/scheduling/framework/node-info.ts';
import { newStatus, type Status } from '../../../../operators/scheduling/framework/status.ts';

/** A predicate: undefined (fits), a rejecting Status, or a thrown error. */
export type FitPredicate = (pod: Pod, node: NodeInfo) => Status | undefined;
/** Scores per node; throws to fail. */
export type PriorityFunction = (pod: Pod, nodes: readonly NodeInfo[]) => HostPriority[];

export const truePredicate: FitPredicate = () => undefined;
export const falsePredicate: FitPredicate = () => newStatus('Unschedulable', 'pod is unschedulable');
export const errorPredicate: FitPredicate = () => {
  throw new Error('some error');
};
const onlyNode =
  (name: string): FitPredicate =>
  (_pod, node) =>
    node.name === name ? undefined : newStatus('Unschedulable', `node "${node.name}" is not allowed`);
export const node1Predicate = onlyNode('node1');
export const node2Predicate = onlyNode('node2');

export const errorPrioritizer: PriorityFunction = () => {
  throw new Error('some error');
};
/** The named node scores 10, every other node 1. */
const favour =
  (name: string): PriorityFunction =>
  (_pod, nodes) =>
    nodes.map((n) => ({ host: n.name, score: n.name === name ? 10 : 1 }));
export const node1Prioritizer = favour('node1');
export const node2Prioritizer = favour('node2');

export interface FakeExtenderOptions {
  name?: string;
  predicates?: FitPredicate[];
  prioritizers?: { fn: PriorityFunction; weight: number }[];
  weight?: number;
  /** Binds (returns the error to fail) when set. */
  binder?: () => Error | undefined;
  ignorable?: boolean;
  uninterested?: boolean;
  /** Takes part in preemption: answers with the victims this function keeps (undefined = as given). */
  preempt?: (victims: Map<string, Victims>) => Map<string, Victims>;
}

/**
 * Upstream's FakeExtender: predicates in order (the first rejection wins; its message is upstream's
 * fixed "FakeExtender: node "n" failed [and unresolvable]"), prioritizers summed by weight.
 */
export class FakeExtender implements Extender {
  readonly filterCalls: string[][] = [];
  readonly bound: { pod: string; node: string }[] = [];
  readonly o: FakeExtenderOptions;
  constructor(o: FakeExtenderOptions = {}) {
    this.o = o;
  }
  name() {
    return this.o.name ?? 'FakeExtender';
  }
  isFilter() {
    return (this.o.predicates ?? []).length > 0;
  }
  isPrioritizer() {
    return (this.o.prioritizers ?? []).length > 0;
  }
  isBinder() {
    return Boolean(this.o.binder);
  }
  isInterested() {
    return !this.o.uninterested;
  }
  isIgnorable() {
    return Boolean(this.o.ignorable);
  }
  supportsPreemption() {
    return Boolean(this.o.preempt);
  }
  async filter(pod: Pod, nodes: readonly NodeInfo[]) {
    this.filterCalls.push(nodes.map((n) => n.name));
    const feasible: NodeInfo[] = [];
    const failed: Record<string, string> = {};
    const failedAndUnresolvable: Record<string, string> = {};
    for (const node of nodes) {
      let rejected: Status | undefined;
      for (const p of this.o.predicates ?? []) {
        rejected = p(pod, node);
        if (rejected) break;
      }
      if (!rejected) feasible.push(node);
      else if (rejected.code === 'UnschedulableAndUnresolvable')
        failedAndUnresolvable[node.name] = `FakeExtender: node "${node.name}" failed and unresolvable`;
      else failed[node.name] = `FakeExtender: node "${node.name}" failed`;
    }
    return { feasible, failed, failedAndUnresolvable };
  }
  async prioritize(pod: Pod, nodes: readonly NodeInfo[]) {
    const combined = new Map<string, number>();
    for (const { fn, weight } of this.o.prioritizers ?? []) {
      if (weight === 0) continue;
      for (const hp of fn(pod, nodes))
        combined.set(hp.host, (combined.get(hp.host) ?? 0) + hp.score * weight);
    }
    return { scores: [...combined].map(([host, score]) => ({ host, score })), weight: this.o.weight ?? 0 };
  }
  async bind(pod: Pod, nodeName: string) {
    const error = this.o.binder?.();
    if (error) throw error;
    this.bound.push({ pod: pod.metadata.name ?? '', node: nodeName });
  }
  async processPreemption(_pod: Pod, victims: ReadonlyMap<string, Victims>, _nodes: NodeInfoLister) {
    return this.o.preempt!(new Map(victims));
  }
}
