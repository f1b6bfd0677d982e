// The prober's results manager (prober/results): latest result per container id, publishing only changes.
import type { ProbeResult, ProbeType } from '../../../operators/kubelet/probe-worker-state.ts';

/** One change of a container's probe result. */
export interface ProbeUpdate {
  probeType: ProbeType;
  podUid: string;
  containerName: string;
  containerId: string;
  result: ProbeResult;
}

/**
 * The latest result of one probe type per container id. Invariant: `publish` is called exactly when a
 * container's result changes (or is first set).
 */
export class ProbeResultsCache {
  readonly #results = new Map<string, ProbeResult>();
  readonly #type: ProbeType;
  readonly #publish: (update: ProbeUpdate) => void;

  constructor(type: ProbeType, publish: (update: ProbeUpdate) => void) {
    this.#type = type;
    this.#publish = publish;
  }

  get(containerId: string): ProbeResult | undefined {
    return this.#results.get(containerId);
  }

  set(containerId: string, result: ProbeResult, podUid: string, containerName: string): void {
    if (this.#results.get(containerId) === result) return;
    this.#results.set(containerId, result);
    this.#publish({ probeType: this.#type, podUid, containerName, containerId, result });
  }

  remove(containerId: string): void {
    this.#results.delete(containerId);
  }

  get size(): number {
    return this.#results.size;
  }
}
