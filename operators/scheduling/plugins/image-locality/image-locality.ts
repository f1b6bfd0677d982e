// ImageLocality: scores nodes that already hold the pod's images, weighted by how widely each image is spread.
import type { Pod } from '../../../api/core-v1.ts';
import {
  type CycleState,
  type FrameworkHandle,
  MAX_NODE_SCORE,
  type PluginFactory,
  type ScorePlugin,
} from '../../framework/interface.ts';
import type { ImageStateSummary, NodeInfo } from '../../framework/node-info.ts';
import type { Status } from '../../framework/status.ts';
import { PLUGIN_NAMES } from '../names.ts';

const MB = 1024 * 1024;
/** Below this total the score is 0 (small images are cheap to pull). */
export const MIN_THRESHOLD = 23 * MB;
/** Per container, above this the score is 100. */
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** An image name with ":latest" appended when it has no tag. */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/** The image's size scaled by the fraction of nodes that have it (spreading discourages piling onto one node). */
export function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
  return Math.trunc(state.size * (state.numNodes / totalNumNodes));
}

/** Sum of the scaled sizes of the pod's (init and app) container images present on the node. */
export function sumImageScores(nodeInfo: NodeInfo, pod: Pod, totalNumNodes: number): number {
  let sum = 0;
  for (const c of pod.spec.initContainers ?? []) {
    const s = c.image ? nodeInfo.imageStates[normalizedImageName(c.image)] : undefined;
    if (s) sum += scaledImageScore(s, totalNumNodes);
  }
  for (const c of pod.spec.containers ?? []) {
    const s = c.image ? nodeInfo.imageStates[normalizedImageName(c.image)] : undefined;
    if (s) sum += scaledImageScore(s, totalNumNodes);
  }
  return sum;
}

/** Clamps the sum to [23MB, 1000MB × containers] and scales it linearly to [0, 100]. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  if (sumScores < MIN_THRESHOLD) sumScores = MIN_THRESHOLD;
  else if (sumScores > maxThreshold) sumScores = maxThreshold;
  const v = Math.trunc((MAX_NODE_SCORE * (sumScores - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
  return v === 0 ? 0 : v;
}

/** The pod's (init and app) container images, normalized, in order. */
export function podImageNames(pod: Pod): string[] {
  const out: string[] = [];
  for (const c of pod.spec.initContainers ?? []) out.push(c.image ? normalizedImageName(c.image) : '');
  for (const c of pod.spec.containers ?? []) out.push(c.image ? normalizedImageName(c.image) : '');
  return out;
}

export class ImageLocality implements ScorePlugin {
  readonly name = PLUGIN_NAMES.ImageLocality;
  readonly #handle: FrameworkHandle;
  /** The last pod's normalized image names: Score runs once per node for the same pod. */
  #lastPod: Pod | undefined;
  #lastImages: string[] = [];

  constructor(handle: FrameworkHandle) {
    this.#handle = handle;
  }

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    if (this.#lastPod !== pod) {
      this.#lastPod = pod;
      this.#lastImages = podImageNames(pod);
    }
    const total = this.#handle.snapshot().list().length;
    let sum = 0;
    for (const image of this.#lastImages) {
      const s = image ? nodeInfo.imageStates[image] : undefined;
      if (s) sum += scaledImageScore(s, total);
    }
    return calculatePriority(sum, this.#lastImages.length);
  }
}

export const newImageLocality: PluginFactory = (_args, handle) => new ImageLocality(handle);
