// The resource allocation scorer shared by NodeResourcesFit's strategies and NodeResourcesBalancedAllocation.
import type { Pod } from '../../../api/core-v1.ts';
import { MAX_NODE_SCORE } from '../../framework/interface.ts';
import { type NodeInfo, podRequests, type Resource } from '../../framework/node-info.ts';
import {
  MAX_CUSTOM_PRIORITY_SCORE,
  type ResourceSpec,
  type UtilizationShapePoint,
} from './node-resources-fit-args.ts';

/** Scores one node from per-resource requested (node + pod) and allocatable; allocatable 0 means "skip this resource". */
export type ResourceScorer = (requested: readonly number[], allocatable: readonly number[]) => number;

/** A resource's amount in a Resource: cpu in millicores, memory and storage in bytes, others by name. */
export function resourceAmount(r: Resource, name: string): number {
  switch (name) {
    case 'cpu':
      return r.milliCPU;
    case 'memory':
      return r.memory;
    case 'ephemeral-storage':
      return r.ephemeralStorage;
    case 'pods':
      return r.allowedPodNumber;
    default:
      return r.scalar[name] ?? 0;
  }
}

/** (capacity - requested) * 100 / capacity, 0 when over capacity. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** requested * 100 / capacity with requested capped at capacity. */
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (requested > capacity) requested = capacity;
  return Math.trunc((requested * MAX_NODE_SCORE) / capacity);
}

function weightedMean(
  resources: readonly ResourceSpec[],
  each: (requested: number, capacity: number) => number,
): ResourceScorer {
  return (requested, allocatable) => {
    let score = 0;
    let weights = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const w = resources[i]!.weight ?? 1;
      score += each(requested[i]!, allocatable[i]!) * w;
      weights += w;
    }
    return weights === 0 ? 0 : Math.trunc(score / weights);
  };
}

/** LeastAllocated: favours nodes with more free capacity (weighted mean of leastRequestedScore). */
export function leastResourceScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  return weightedMean(resources, leastRequestedScore);
}

/** MostAllocated: favours fuller nodes (weighted mean of mostRequestedScore). */
export function mostResourceScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  return weightedMean(resources, mostRequestedScore);
}

/** A point of a scaled shape: utilization 0..100 → score 0..100. */
export interface FunctionShapePoint {
  readonly utilization: number;
  readonly score: number;
}

/** The piecewise-linear function through the shape's points, flat before the first and after the last. */
export function buildBrokenLinearFunction(shape: readonly FunctionShapePoint[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      if (p <= shape[i]!.utilization) {
        if (i === 0) return shape[0]!.score;
        const a = shape[i - 1]!;
        const b = shape[i]!;
        return (
          a.score + Math.trunc(((b.score - a.score) * (p - a.utilization)) / (b.utilization - a.utilization))
        );
      }
    }
    return shape[shape.length - 1]!.score;
  };
}

/** RequestedToCapacityRatio: the shape (scores 0..10 scaled to 0..100) applied to utilization, weighted, rounded. */
export function requestedToCapacityRatioScorer(
  resources: readonly ResourceSpec[],
  shape: readonly UtilizationShapePoint[],
): ResourceScorer {
  const scaled = shape.map((p) => ({
    utilization: p.utilization,
    score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE),
  }));
  const raw = buildBrokenLinearFunction(scaled);
  const maxUtilization = 100;
  const each = (requested: number, capacity: number) =>
    capacity === 0 || requested > capacity
      ? raw(maxUtilization)
      : raw(Math.trunc((requested * maxUtilization) / capacity));
  return (requested, allocatable) => {
    let score = 0;
    let weights = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const w = resources[i]!.weight ?? 1;
      const s = each(requested[i]!, allocatable[i]!);
      if (s > 0) {
        score += s * w;
        weights += w;
      }
    }
    return weights === 0 ? 0 : Math.round(score / weights);
  };
}

/** Balance: 100 × (1 − standard deviation of the per-resource utilization fractions, each capped at 1). */
export function balancedResourceScorer(requested: readonly number[], allocatable: readonly number[]): number {
  const fraction = (i: number) => {
    const f = requested[i]! / allocatable[i]!;
    return f > 1 ? 1 : f;
  };
  let total = 0;
  let n = 0;
  let f0 = 0;
  let f1 = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    const f = fraction(i);
    total += f;
    if (n === 0) f0 = f;
    else if (n === 1) f1 = f;
    n++;
  }
  let std = 0;
  if (n === 2) std = Math.abs((f0 - f1) / 2);
  else if (n > 2) {
    const mean = total / n;
    let sum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const d = fraction(i) - mean;
      sum += d * d;
    }
    std = Math.sqrt(sum / n);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/**
 * Scores a node for a pod over the configured resources. With `useRequested` false (the Fit
 * strategies) cpu and memory use the node's non-zero requests and the pod's non-zero request; other
 * resources always use actual requests. A scalar resource the pod does not request, or that the node
 * does not offer, is skipped.
 */
export class ResourceAllocationScorer {
  readonly name: string;
  readonly resources: readonly ResourceSpec[];
  readonly #scorer: ResourceScorer;
  readonly #useRequested: boolean;
  readonly #requested: number[];
  readonly #allocatable: number[];

  constructor(
    name: string,
    scorer: ResourceScorer,
    resources: readonly ResourceSpec[],
    useRequested: boolean,
  ) {
    this.name = name;
    this.#scorer = scorer;
    this.resources = resources;
    this.#useRequested = useRequested;
    this.#requested = new Array(resources.length).fill(0);
    this.#allocatable = new Array(resources.length).fill(0);
  }

  /** The pod's request per configured resource (non-zero defaults for cpu/memory unless useRequested). */
  podRequestList(pod: Pod): number[] {
    const r = podRequests(pod, !this.#useRequested);
    return this.resources.map((res) => resourceAmount(r, res.name));
  }

  /**
   * Writes allocatable and requested-with-the-pod of resource `i` on the node into the scratch arrays
   * (both 0 to skip it). No allocation: this runs for every resource of every scored node.
   */
  #fill(i: number, nodeInfo: NodeInfo, name: string, podRequest: number): void {
    const requested = this.#useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
    let a = 0;
    let r = 0;
    switch (name) {
      case 'cpu':
        a = nodeInfo.allocatable.milliCPU;
        r = requested.milliCPU + podRequest;
        break;
      case 'memory':
        a = nodeInfo.allocatable.memory;
        r = requested.memory + podRequest;
        break;
      case 'ephemeral-storage':
        a = nodeInfo.allocatable.ephemeralStorage;
        r = nodeInfo.requested.ephemeralStorage + podRequest;
        break;
      default:
        if (podRequest !== 0 && Object.hasOwn(nodeInfo.allocatable.scalar, name)) {
          a = nodeInfo.allocatable.scalar[name]!;
          r = (nodeInfo.requested.scalar[name] ?? 0) + podRequest;
        }
    }
    this.#allocatable[i] = a;
    this.#requested[i] = a === 0 ? 0 : r;
  }

  /** Allocatable and requested-with-the-pod of one resource on the node; [0, 0] to skip it. */
  allocatableAndRequested(nodeInfo: NodeInfo, name: string, podRequest: number): [number, number] {
    const i = this.resources.findIndex((r) => r.name === name);
    if (i < 0) return [0, 0];
    this.#fill(i, nodeInfo, name, podRequest);
    return [this.#allocatable[i]!, this.#requested[i]!];
  }

  score(nodeInfo: NodeInfo, podRequestList: readonly number[]): number {
    for (let i = 0; i < this.resources.length; i++) {
      this.#fill(i, nodeInfo, this.resources[i]!.name, podRequestList[i] ?? 0);
    }
    return this.#scorer(this.#requested, this.#allocatable);
  }
}
