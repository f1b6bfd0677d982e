// Fixtures for the statefulset operators' tests: a valid set, its pods at a given state, and a whole sync loop against an in-memory pod list.
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { newStatefulPod } from '../../../../operators/controller/statefulset/stateful-pod-identity.ts';
import {
  applyRevision,
  planRevisions,
} from '../../../../operators/controller/statefulset/stateful-set-revision.ts';
import {
  planStatefulSetSync,
  type StatefulSetSyncPlan,
} from '../../../../operators/controller/statefulset/stateful-set-sync.ts';
import type {
  ControllerRevision,
  StatefulSet,
} from '../../../../operators/controller/statefulset/stateful-set-types.ts';

/** A set named `web` in `default` with `replicas` pods of one busybox container. */
export function makeSet(replicas: number, spec: Partial<StatefulSet['spec']> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'set-uid', generation: 1 },
    spec: {
      replicas,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      ...spec,
    },
  };
}

/** The pod at `phase`, Ready when `ready`. */
export function withPhase(
  pod: Pod,
  phase: string,
  ready = phase === 'Running',
  at = Date.parse('2026-01-01T00:00:00Z'),
): Pod {
  return {
    ...pod,
    status: {
      phase,
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date(at).toISOString() },
      ],
    },
  };
}

/** The set's pod of `ordinal` at the current template, Running and Ready. */
export const runningPod = (set: StatefulSet, ordinal: number, revision = 'web-rev1'): Pod =>
  withPhase(newStatefulPod(set, ordinal, revision), 'Running');

/** A cluster in memory: the set, its revisions and pods; `sync` plans with the revision logic and applies the plan. */
export class FakeCluster {
  pods = new Map<string, Pod>();
  revisions: ControllerRevision[] = [];
  created: string[] = [];
  deleted: string[] = [];
  now = Date.parse('2026-01-02T00:00:00Z');

  set: StatefulSet;

  constructor(set: StatefulSet) {
    this.set = set;
  }

  /** One sync: revisions found or written, the plan applied (pods created Pending, deletions marked terminating). */
  sync(): StatefulSetSyncPlan {
    const rp = planRevisions(this.set, this.revisions);
    if (rp.write?.type === 'create') this.revisions.push(rp.write.revision);
    if (rp.write?.type === 'bump') {
      this.revisions = this.revisions.map((r) =>
        r.metadata.name === rp.update.metadata.name ? rp.update : r,
      );
    }
    const plan = planStatefulSetSync({
      set: this.set,
      pods: [...this.pods.values()],
      currentSet: applyRevision(this.set, rp.current),
      currentRevision: rp.current.metadata.name ?? '',
      updateSet: applyRevision(this.set, rp.update),
      updateRevision: rp.update.metadata.name ?? '',
      now: this.now,
    });
    for (const a of plan.actions) {
      const name = a.pod.metadata.name ?? '';
      if (a.type === 'create') {
        if (this.pods.has(name)) throw new Error(`create of ${name}, which exists`);
        this.pods.set(name, withPhase(a.pod, 'Pending'));
        this.created.push(name);
      } else if (a.type === 'delete') {
        const p = this.pods.get(name);
        if (p)
          this.pods.set(name, {
            ...p,
            metadata: { ...p.metadata, deletionTimestamp: '2026-01-02T00:00:00Z' },
          });
        this.deleted.push(name);
      } else if (a.type === 'update') {
        this.pods.set(name, a.pod);
      }
    }
    this.set = { ...this.set, status: plan.status };
    return plan;
  }

  /** The kubelet's part: the pod Running and Ready (or not). */
  run(name: string, ready = true) {
    const p = this.pods.get(name);
    if (p) this.pods.set(name, withPhase(p, 'Running', ready, this.now - 60_000));
  }

  /** A terminating pod is gone. */
  finishDeletions() {
    for (const [name, p] of this.pods) if (p.metadata.deletionTimestamp) this.pods.delete(name);
  }

  /** Every pod Running and Ready; terminating pods gone. */
  settle() {
    this.finishDeletions();
    for (const name of this.pods.keys()) this.run(name);
  }

  /** Pod names, ordinal order. */
  names(): string[] {
    return [...this.pods.keys()].sort((a, b) => Number(a.split('-').at(-1)) - Number(b.split('-').at(-1)));
  }
}
