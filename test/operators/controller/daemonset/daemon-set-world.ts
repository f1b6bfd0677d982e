// Test helper: a tiny in-memory world for the daemon set's pure plan — nodes, pods bound at once, a clock — where a sync applies the plan as upstream's tests' fake pod control does.
import type { Node, Pod, Taint } from '../../../../operators/api/core-v1.ts';
import { daemonPod } from '../../../../operators/controller/daemonset/daemon-pod.ts';
import { daemonSetHash } from '../../../../operators/controller/daemonset/daemon-set-history.ts';
import { daemonSetPlan } from '../../../../operators/controller/daemonset/daemon-set-plan.ts';
import type { DaemonSet } from '../../../../operators/controller/daemonset/daemon-set-types.ts';

export const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function node(name: string, opts: { labels?: Record<string, string>; taints?: Taint[] } = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(opts.labels ?? {}) } },
    spec: opts.taints ? { taints: opts.taints } : {},
  } as Node;
}

export function daemonSet(opts: Partial<DaemonSet['spec']> & { image?: string } = {}): DaemonSet {
  const { image, ...spec } = opts;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'foo', namespace: 'default', uid: 'ds-uid', generation: 1 },
    spec: {
      selector: { matchLabels: { name: 'simple-daemon' } },
      template: {
        metadata: { labels: { name: 'simple-daemon' } },
        spec: { containers: [{ name: 'c', image: image ?? 'foo/bar' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      ...spec,
    },
  };
}

/** Sets Ready on a pod as of `at`. */
export function setReady(pod: Pod, ready: boolean, at: number): void {
  pod.status = {
    ...(pod.status ?? {}),
    phase: 'Running',
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: iso(at) }],
  };
}

/** Nodes, pods and a clock; `sync` runs the plan and applies it at once (creations bound to their node). */
export class DaemonSetWorld {
  nodes: Node[] = [];
  pods: Pod[] = [];
  now = 1_700_000_000_000;
  #seq = 0;

  ds: DaemonSet;

  constructor(ds: DaemonSet) {
    this.ds = ds;
  }

  /** Replaces the template (a new revision), bumping the generation. */
  update(change: (ds: DaemonSet) => void): void {
    const next = structuredClone(this.ds);
    change(next);
    next.metadata.generation = (next.metadata.generation ?? 1) + 1;
    this.ds = next;
  }

  /** One sync: the manage step and, when it acted, the rolling-update step on the result (expectations met at once). */
  sync(): { created: number; deleted: number } {
    let created = 0;
    let deleted = 0;
    for (let round = 0; round < 2; round++) {
      const plan = daemonSetPlan({
        ds: this.ds,
        nodes: this.nodes,
        pods: this.pods,
        hash: this.hash,
        now: this.now,
      });
      // after the manage step only the rolling-update step runs in the same sync, as upstream's syncDaemonSet
      if (round > 0 && plan.step !== 'rollingUpdate') break;
      for (const n of plan.create) {
        const pod = daemonPod(this.ds, n, this.hash);
        const i = this.#seq++;
        pod.metadata.name = `foo-${String(i).padStart(5, '0')}`;
        pod.metadata.uid = `pod-${i}`;
        pod.metadata.creationTimestamp = iso(this.now);
        pod.spec.nodeName = n;
        pod.status = { phase: 'Pending' };
        this.pods.push(pod);
      }
      const gone = new Set(plan.delete.map((p) => p.metadata.uid));
      this.pods = this.pods.filter((p) => !gone.has(p.metadata.uid));
      created += plan.create.length;
      deleted += plan.delete.length;
      if (plan.step !== 'manage') break;
    }
    return { created, deleted };
  }

  get hash(): string {
    return daemonSetHash(this.ds);
  }

  /** Marks every pod (or those passing `which`) ready as of now. */
  markReady(which: (p: Pod) => boolean = () => true): void {
    for (const p of this.pods) if (which(p)) setReady(p, true, this.now);
  }

  /** Pods per node name. */
  podsOn(name: string): Pod[] {
    return this.pods.filter((p) => p.spec.nodeName === name);
  }
}
