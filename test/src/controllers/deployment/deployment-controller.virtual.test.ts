// deploymentController in virtual time over in-memory informers: the progress deadline is checked again through the injected scheduler, and a rollout's writes and Events come in upstream's order.
import { of, Subject, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Deployment } from '../../../../operators/controller/deployment/deployment-types.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { ApiError } from '../../../../operators/errors.ts';
import type { KubeObject, ReflectorEvent } from '../../../../operators/types.ts';
import { deploymentController } from '../../../../src/controllers/deployment/deployment-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';

const deployment = (spec: Partial<Deployment['spec']> = {}): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', uid: 'd-1', generation: 1, resourceVersion: '1' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 60,
    ...spec,
  },
});

/** The controller on a virtual clock; its writes land back in the informers as a watch would bring them. */
function harness(initial: Deployment, world: { sets?: ReplicaSet[]; pods?: Pod[] } = {}) {
  const clock = new VirtualClock();
  const streams = {
    deployments: new Subject<ReflectorEvent<Deployment>>(),
    replicasets: new Subject<ReflectorEvent<ReplicaSet>>(),
    pods: new Subject<ReflectorEvent<Pod>>(),
  };
  const informers = {
    deployments: sharedInformer<Deployment>({ source: streams.deployments, scheduler: clock.scheduler }),
    replicasets: sharedInformer<ReplicaSet>({ source: streams.replicasets, scheduler: clock.scheduler }),
    pods: sharedInformer<Pod>({ source: streams.pods, scheduler: clock.scheduler }),
  };
  const factory = {
    forResource: (r: ResourceDescriptor) => informers[r.plural as keyof typeof informers],
  } as unknown as InformerFactory;
  let d = structuredClone(initial);
  const sets = new Map<string, ReplicaSet>((world.sets ?? []).map((rs) => [rs.metadata.name ?? '', rs]));
  const syncs: string[] = [];
  const events: { at: number; reason: string; message: string }[] = [];
  const statuses: { at: number; status: Deployment['status'] }[] = [];
  let rv = 10;
  let uid = 0;
  const bumpD = (next: Deployment) => {
    d = { ...next, metadata: { ...next.metadata, resourceVersion: String(++rv) } };
    streams.deployments.next({ type: 'Updated', object: d });
  };
  const putRS = (rs: ReplicaSet) => {
    const next = { ...rs, metadata: { ...rs.metadata, resourceVersion: String(++rv) } };
    sets.set(rs.metadata.name ?? '', next);
    streams.replicasets.next({ type: 'Updated', object: next });
  };
  const client = {
    get: (r: ResourceDescriptor) =>
      r.plural === 'deployments' ? of(d) : throwError(() => new Error('unexpected get')),
    create: (r: ResourceDescriptor, o: KubeObject) => {
      if (r.plural === 'events') {
        events.push({ at: clock.now(), reason: String(o.reason), message: String(o.message) });
        return of(o);
      }
      const rs = structuredClone(o) as ReplicaSet;
      if (sets.has(rs.metadata.name ?? ''))
        return throwError(() => new ApiError(409, { reason: 'AlreadyExists', message: 'exists' }));
      rs.metadata = {
        ...rs.metadata,
        uid: `rs-${++uid}`,
        generation: 1,
        creationTimestamp: new Date(clock.now()).toISOString(),
      };
      rs.status = { replicas: 0, observedGeneration: 1 };
      putRS(rs);
      return of(rs);
    },
    patch: (r: ResourceDescriptor, name: string, patch: Record<string, Record<string, unknown>>) => {
      if (r.plural === 'deployments') {
        const annotations = (patch.metadata?.annotations ?? {}) as Record<string, string>;
        bumpD({
          ...d,
          metadata: { ...d.metadata, annotations: { ...d.metadata.annotations, ...annotations } },
        });
        return of(d);
      }
      const rs = sets.get(name)!;
      putRS({
        ...rs,
        metadata: {
          ...rs.metadata,
          annotations: { ...(patch.metadata?.annotations as Record<string, string>) },
        },
        spec: { ...rs.spec, ...(patch.spec as object) },
      });
      return of(sets.get(name));
    },
    updateStatus: (_r: ResourceDescriptor, o: Deployment) => {
      statuses.push({ at: clock.now(), status: o.status });
      bumpD({ ...d, status: o.status });
      return of(d);
    },
    delete: (_r: ResourceDescriptor, name: string) => {
      const rs = sets.get(name);
      sets.delete(name);
      if (rs) streams.replicasets.next({ type: 'Deleted', object: rs });
      return of({});
    },
  } as unknown as ApiClient;
  const sub = deploymentController({
    client,
    informerFactory: factory,
    scheduler: clock.scheduler,
  }).subscribe((o) => syncs.push(o.key));
  const holds = Object.values(informers).map((i) => i.start());
  streams.deployments.next({ type: 'Replace', items: [d], resourceVersion: '1' });
  streams.replicasets.next({ type: 'Replace', items: [...sets.values()], resourceVersion: '1' });
  streams.pods.next({ type: 'Replace', items: world.pods ?? [], resourceVersion: '1' });
  const flush = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    clock,
    syncs,
    streams,
    events,
    statuses,
    sets,
    get deployment() {
      return d;
    },
    /** The replicaset controller's part: every set's pods exist and `ready` of them (all by default) are available. */
    settleSets(ready?: (rs: ReplicaSet) => number) {
      for (const rs of [...sets.values()]) {
        const n = rs.spec.replicas ?? 0;
        const a = ready ? Math.min(n, ready(rs)) : n;
        const s = rs.status ?? { replicas: 0 };
        if (s.replicas === n && s.availableReplicas === a) continue;
        putRS({
          ...rs,
          status: { replicas: n, readyReplicas: a, availableReplicas: a, observedGeneration: 1 },
        });
      }
    },
    /** The Deployment again under a new resourceVersion, as a resync or an unrelated metadata change brings it. */
    touch() {
      bumpD(d);
    },
    setTemplate(image: string) {
      bumpD({
        ...d,
        metadata: { ...d.metadata, generation: (d.metadata.generation ?? 0) + 1 },
        spec: { ...d.spec, template: { ...d.spec.template, spec: { containers: [{ name: 'c', image }] } } },
      });
    },
    async run(ms: number, step = 100, each?: () => void) {
      await flush();
      const end = clock.now() + ms;
      while (clock.now() < end) {
        each?.();
        await flush();
        clock.advance(Math.min(step, end - clock.now()));
        await flush();
      }
    },
    stop() {
      sub.unsubscribe();
      for (const h of holds) h.unsubscribe();
    },
  };
}

describe('deploymentController in virtual time', () => {
  let h: ReturnType<typeof harness> | undefined;
  afterEach(() => h?.stop());

  it('marks a rollout whose pods never become available ProgressDeadlineExceeded, by its own requeue', async () => {
    h = harness(deployment());
    await h.run(1_000);
    expect(h.sets.size).toBe(1);
    h.settleSets(() => 0);
    await h.run(5_000);
    const progressing = () => h!.deployment.status?.conditions?.find((c) => c.type === 'Progressing');
    // the set's pods appeared (updated replicas grew): progress, stamped in virtual time
    expect(progressing()).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated' });
    const lastProgress = Date.parse(progressing()!.lastUpdateTime!);
    // nothing else happens in the world: only the controller's requeue after the deadline can notice
    await h.run(70_000, 1_000);
    const [name] = h.sets.keys();
    expect(progressing()).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${name}" has timed out progressing.`,
    });
    const timedOut = h.statuses.find((s) =>
      s.status?.conditions?.some((c) => c.reason === 'ProgressDeadlineExceeded'),
    );
    // the check comes a second after the 60 s deadline counted from the last progress
    expect(timedOut!.at).toBeGreaterThan(lastProgress + 60_000);
    expect(timedOut!.at).toBeLessThanOrEqual(lastProgress + 63_000);
  });

  it('does not time out a rollout that completes in time', async () => {
    h = harness(deployment());
    await h.run(1_000);
    h.settleSets();
    await h.run(90_000, 1_000);
    expect(h.deployment.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
    });
    expect(h.deployment.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
    // a settled Deployment synced again writes nothing
    const [writes, syncs] = [h.statuses.length, h.syncs.length];
    h.touch();
    await h.run(2_000);
    expect(h.syncs.length).toBeGreaterThan(syncs);
    expect(h.statuses.length).toBe(writes);
  });

  it('rolls a new template one surge pod at a time with upstream Event messages', async () => {
    h = harness(deployment());
    await h.run(1_000);
    h.settleSets();
    await h.run(2_000);
    const [first] = h.sets.keys();
    h.setTemplate('nginx:2');
    await h.run(20_000, 100, () => h!.settleSets());
    const second = [...h.sets.keys()].find((n) => n !== first)!;
    expect(h.events.map((e) => e.message)).toEqual([
      `Scaled up replica set ${first} from 0 to 2`,
      `Scaled up replica set ${second} from 0 to 1`,
      `Scaled down replica set ${first} from 2 to 1`,
      `Scaled up replica set ${second} from 1 to 2`,
      `Scaled down replica set ${first} from 1 to 0`,
    ]);
    expect(new Set(h.events.map((e) => e.reason))).toEqual(new Set(['ScalingReplicaSet']));
    expect(h.deployment.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(h.deployment.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  });

  it('a pod deletion queues a Recreate Deployment only once its last pod is gone', async () => {
    const d = deployment({ strategy: { type: 'Recreate' } });
    const old: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-old',
        namespace: 'default',
        uid: 'rs-old',
        resourceVersion: '2',
        labels: { app: 'web' },
        annotations: {
          'deployment.kubernetes.io/revision': '1',
          'deployment.kubernetes.io/desired-replicas': '2',
        },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-1', controller: true },
        ],
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'old' }] },
        },
      },
      status: { replicas: 0 },
    };
    const pod = (name: string): Pod => ({
      metadata: {
        name,
        namespace: 'default',
        resourceVersion: '3',
        labels: { app: 'web' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-old', uid: 'rs-old', controller: true },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'old' }] },
      status: { phase: 'Running' },
    });
    h = harness(d, { sets: [old], pods: [pod('a'), pod('b')] });
    await h.run(1_000);
    // old pods still run: no new set yet
    expect([...h.sets.keys()]).toEqual(['web-old']);
    const before = h.syncs.length;
    h.streams.pods.next({ type: 'Deleted', object: pod('a') });
    await h.run(1_000);
    expect(h.syncs.length).toBe(before);
    h.streams.pods.next({ type: 'Deleted', object: pod('b') });
    await h.run(1_000);
    expect(h.syncs.length).toBeGreaterThan(before);
    const created = [...h.sets.values()].find((rs) => rs.metadata.name !== 'web-old');
    expect(created?.spec.replicas).toBe(2);
  });
});
