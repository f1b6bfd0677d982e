// Property: for any sequence of template changes, scales, readiness and syncs, a rolling update run by planDeploymentSync (with a naive replicaset model, in virtual time) stays within replicas + maxSurge pods, keeps replicas − maxUnavailable available once settled, and ends with one ReplicaSet at full scale.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { planDeploymentSync } from '../../../../operators/controller/deployment/deployment-sync.ts';
import type {
  Deployment,
  IntOrString,
} from '../../../../operators/controller/deployment/deployment-types.ts';
import { equalIgnoreHash } from '../../../../operators/controller/deployment/pod-template-hash.ts';
import { maxSurge, maxUnavailable } from '../../../../operators/controller/deployment/rolling-fenceposts.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';

type Op =
  | { type: 'template'; version: number }
  | { type: 'scale'; replicas: number }
  | { type: 'ready'; count: number }
  | { type: 'sync' }
  | { type: 'terminate' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({ type: fc.constant('template' as const), version: fc.integer({ min: 0, max: 3 }) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ type: fc.constant('scale' as const), replicas: fc.integer({ min: 0, max: 6 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ type: fc.constant('ready' as const), count: fc.integer({ min: 1, max: 4 }) }),
    weight: 3,
  },
  { arbitrary: fc.record({ type: fc.constant('sync' as const) }), weight: 4 },
  { arbitrary: fc.record({ type: fc.constant('terminate' as const) }), weight: 1 },
);
const intOrPercent = (max: number): fc.Arbitrary<IntOrString> =>
  fc.oneof(
    fc.integer({ min: 0, max }),
    fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`),
  );

/** The world the controller acts on: one Deployment, its sets and their pods (ready or not), a virtual clock. */
class World {
  clock = Date.UTC(2026, 0, 1);
  uid = 0;
  d: Deployment;
  sets: ReplicaSet[] = [];
  pods = new Map<string, boolean[]>();
  /** Pods deleted by their set but still shutting down (counted by Recreate, not by the set's status). */
  terminating = new Map<string, number>();

  constructor(
    replicas: number,
    surge: IntOrString,
    unavailable: IntOrString,
    historyLimit: number,
    strategy: 'RollingUpdate' | 'Recreate' = 'RollingUpdate',
  ) {
    this.d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', uid: 'd-uid', generation: 1, annotations: {} },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', v: '0' } },
          spec: { containers: [{ name: 'c', image: 'i' }] },
        },
        strategy:
          strategy === 'Recreate'
            ? { type: 'Recreate' }
            : { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
        revisionHistoryLimit: historyLimit,
        progressDeadlineSeconds: 600,
      },
      status: {},
    };
  }

  tick() {
    this.clock += 1000;
  }

  bump(spec: Partial<Deployment['spec']>) {
    this.d = {
      ...this.d,
      metadata: { ...this.d.metadata, generation: (this.d.metadata.generation ?? 0) + 1 },
      spec: { ...this.d.spec, ...spec },
    };
  }

  /** One deployment sync, its plan applied as the API server would. */
  syncDeployment() {
    const plan = planDeploymentSync({
      deployment: this.d,
      replicaSets: this.sets,
      pods: this.podObjects(),
      now: this.clock,
    });
    expect(plan.error).toBeUndefined();
    for (const w of plan.writes) {
      const name = w.replicaSet.metadata.name ?? '';
      if (w.type === 'create') {
        expect(this.sets.some((s) => s.metadata.name === name)).toBe(false);
        this.sets.push({
          ...structuredClone(w.replicaSet),
          metadata: {
            ...structuredClone(w.replicaSet.metadata),
            uid: `rs-${++this.uid}`,
            creationTimestamp: new Date(this.clock).toISOString(),
            generation: 1,
          },
          status: { replicas: 0, observedGeneration: 1 },
        });
        this.pods.set(name, []);
      } else if (w.type === 'update') {
        const rs = this.sets.find((s) => s.metadata.name === name)!;
        rs.spec = { ...rs.spec, replicas: w.replicaSet.spec.replicas ?? 0 };
        rs.metadata = { ...rs.metadata, annotations: { ...(w.replicaSet.metadata.annotations ?? {}) } };
      } else {
        this.sets = this.sets.filter((s) => s.metadata.name !== name);
        this.pods.delete(name);
        this.terminating.delete(name);
      }
    }
    if (plan.revision) {
      this.d = {
        ...this.d,
        metadata: {
          ...this.d.metadata,
          annotations: { ...this.d.metadata.annotations, 'deployment.kubernetes.io/revision': plan.revision },
        },
      };
    }
    if (plan.status) this.d = { ...this.d, status: plan.status };
  }

  /** The naive replicaset controller: pods to spec (not-ready ones deleted first), then the status. */
  syncReplicaSets() {
    for (const rs of this.sets) {
      const name = rs.metadata.name ?? '';
      let pods = this.pods.get(name) ?? [];
      const want = rs.spec.replicas ?? 0;
      while (pods.length < want) pods.push(false);
      if (pods.length > want) {
        this.terminating.set(name, (this.terminating.get(name) ?? 0) + pods.length - want);
        pods = [...pods].sort((a, b) => Number(a) - Number(b)).slice(pods.length - want);
      }
      this.pods.set(name, pods);
      const ready = pods.filter(Boolean).length;
      rs.status = {
        replicas: pods.length,
        readyReplicas: ready,
        availableReplicas: ready,
        observedGeneration: 1,
      };
    }
  }

  /** The pods as objects, controlled by their sets, terminating ones included (Recreate looks at them). */
  podObjects(): Pod[] {
    return this.sets.flatMap((rs) =>
      [
        ...(this.pods.get(rs.metadata.name ?? '') ?? []),
        ...Array.from({ length: this.terminating.get(rs.metadata.name ?? '') ?? 0 }, () => false),
      ].map((ready, i) => ({
        metadata: {
          name: `${rs.metadata.name}-${i}`,
          namespace: 'default',
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: rs.metadata.name ?? '',
              uid: rs.metadata.uid ?? '',
              controller: true,
            },
          ],
        },
        spec: { containers: [] },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
      })),
    );
  }

  makeReady(count: number) {
    let left = count;
    for (const pods of this.pods.values()) {
      for (let i = 0; i < pods.length && left > 0; i++) {
        if (!pods[i]) {
          pods[i] = true;
          left--;
        }
      }
    }
  }

  total = () => [...this.pods.values()].reduce((n, p) => n + p.length, 0);
  available = () => [...this.pods.values()].reduce((n, p) => n + p.filter(Boolean).length, 0);
}

describe('planDeploymentSync (model-based)', () => {
  it('keeps a rolling update within its fenceposts and converges to one full ReplicaSet', () => {
    // non-vacuity: steps checked mid-rollout (two sets with pods) under the availability bound
    let checkedMidRollout = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        intOrPercent(3),
        intOrPercent(3),
        fc.integer({ min: 0, max: 3 }),
        fc.array(op, { maxLength: 40 }),
        (replicas, surge, unavailable, historyLimit, ops) => {
          const w = new World(replicas, surge, unavailable, historyLimit);
          // the availability bound holds from the moment a settled state is reached until the next scale
          let armed = false;
          const step = () => {
            w.tick();
            w.syncDeployment();
            w.syncReplicaSets();
            const d = w.d;
            const n = d.spec.replicas ?? 0;
            expect(w.total(), 'pods within replicas + maxSurge').toBeLessThanOrEqual(n + maxSurge(d));
            if (armed) {
              if ([...w.pods.values()].filter((p) => p.length > 0).length > 1) checkedMidRollout++;
              expect(w.available(), 'available at least replicas - maxUnavailable').toBeGreaterThanOrEqual(
                n - maxUnavailable(d),
              );
            }
            if (w.available() === n && w.total() === n) armed = true;
          };
          for (const o of ops) {
            w.tick();
            if (o.type === 'template') {
              w.bump({
                template: {
                  metadata: { labels: { app: 'web', v: String(o.version) } },
                  spec: { containers: [{ name: 'c', image: 'i' }] },
                },
              });
            } else if (o.type === 'scale') {
              if (o.replicas !== w.d.spec.replicas) armed = false;
              w.bump({ replicas: o.replicas });
            } else if (o.type === 'ready') w.makeReady(o.count);
            else if (o.type === 'terminate') w.terminating.clear();
            else step();
          }
          // settle: every pod becomes ready, syncs run until nothing changes
          for (let i = 0; i < 60; i++) {
            w.makeReady(1000);
            w.terminating.clear();
            step();
          }
          const n = w.d.spec.replicas ?? 0;
          const current = w.sets.filter((s) => equalIgnoreHash(s.spec.template, w.d.spec.template));
          expect(current).toHaveLength(1);
          expect(current[0]!.spec.replicas).toBe(n);
          for (const s of w.sets) if (s !== current[0]) expect(s.spec.replicas).toBe(0);
          expect(w.total()).toBe(n);
          expect(w.available()).toBe(n);
          expect(w.sets.length - 1).toBeLessThanOrEqual(historyLimit);
          expect(w.d.status).toMatchObject({
            replicas: n,
            updatedReplicas: n,
            availableReplicas: n,
            observedGeneration: w.d.metadata.generation,
          });
          expect(w.d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe(
            current[0]!.metadata.annotations?.['deployment.kubernetes.io/revision'],
          );
          // settled: one more sync changes nothing
          const idle = planDeploymentSync({ deployment: w.d, replicaSets: w.sets, now: w.clock + 1000 });
          expect(idle.writes).toEqual([]);
          expect(idle.status).toBeUndefined();
          expect(idle.revision).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
    expect(checkedMidRollout).toBeGreaterThan(50);
  });

  it('Recreate never runs pods of two ReplicaSets at once, never surges, and converges', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.array(op, { maxLength: 40 }), (replicas, ops) => {
        const w = new World(replicas, 0, 0, 2, 'Recreate');
        const step = () => {
          w.tick();
          w.syncDeployment();
          w.syncReplicaSets();
          // terminating pods still run: a set with any pod counts
          const withPods = w.sets.filter((rs) => {
            const name = rs.metadata.name ?? '';
            return (w.pods.get(name)?.length ?? 0) + (w.terminating.get(name) ?? 0) > 0;
          }).length;
          expect(withPods, 'pods of at most one set').toBeLessThanOrEqual(1);
          expect(w.total(), 'no surge').toBeLessThanOrEqual(w.d.spec.replicas ?? 0);
        };
        for (const o of ops) {
          w.tick();
          if (o.type === 'template') {
            w.bump({
              template: {
                metadata: { labels: { app: 'web', v: String(o.version) } },
                spec: { containers: [{ name: 'c', image: 'i' }] },
              },
            });
          } else if (o.type === 'scale') w.bump({ replicas: o.replicas });
          else if (o.type === 'ready') w.makeReady(o.count);
          else if (o.type === 'terminate') w.terminating.clear();
          else step();
        }
        for (let i = 0; i < 20; i++) {
          w.makeReady(1000);
          w.terminating.clear();
          step();
        }
        const n = w.d.spec.replicas ?? 0;
        const current = w.sets.filter((s) => equalIgnoreHash(s.spec.template, w.d.spec.template));
        expect(current).toHaveLength(1);
        expect(current[0]!.spec.replicas).toBe(n);
        expect(w.total()).toBe(n);
        expect(w.d.status).toMatchObject({ replicas: n, updatedReplicas: n, availableReplicas: n });
      }),
      { numRuns: 200 },
    );
  });
});
