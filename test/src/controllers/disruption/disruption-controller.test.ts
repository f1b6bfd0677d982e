// The disruption controller in virtual time over in-memory informers: a budget's status follows its pods, an eviction in disruptedPods is dropped at its 2-minute expiry, and a pod's label change moves it between budgets.
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../operators/types.ts';
import { disruptionController } from '../../../../src/controllers/disruption/disruption-controller.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';
import { inMemoryInformers } from './in-memory-informers.ts';

const budget = (name: string, app: string, status: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name, namespace: 'ns', generation: 1, resourceVersion: '1' },
  spec: { minAvailable: 1, selector: { matchLabels: { app } } },
  status,
});

const pod = (name: string, app: string, ready = true): KubeObject => ({
  metadata: { name, namespace: 'ns', labels: { app } },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

type Written = { name: string; allowed: number; healthy: number; disrupted: string[] };

function world(budgets: KubeObject[], pods: KubeObject[]) {
  const memory = inMemoryInformers([
    'poddisruptionbudgets',
    'pods',
    'deployments',
    'replicasets',
    'statefulsets',
    'replicationcontrollers',
  ]);
  const writes: Written[] = [];
  const client = {
    updateStatus: (_r: ResourceDescriptor, o: KubeObject) => {
      const s = o.status as { disruptionsAllowed: number; currentHealthy: number; disruptedPods?: object };
      writes.push({
        name: o.metadata?.name ?? '',
        allowed: s.disruptionsAllowed,
        healthy: s.currentHealthy,
        disrupted: Object.keys(s.disruptedPods ?? {}),
      });
      memory.emit('poddisruptionbudgets', { type: 'Updated', object: o });
      return of(o);
    },
    // Events go through the recorder's create
    create: (_r: ResourceDescriptor, o: KubeObject) => of(o),
    patch: (_r: ResourceDescriptor, _n: string, o: KubeObject) => of(o),
  } as unknown as ApiClient;
  const sub = disruptionController({
    client,
    informerFactory: memory.factory,
    scheduler: memory.clock.scheduler,
  }).subscribe();
  memory.start({ poddisruptionbudgets: budgets, pods });
  return {
    writes,
    flush: memory.flush,
    emit: memory.emit,
    stop: () => {
      sub.unsubscribe();
      memory.stop();
    },
  };
}

describe('disruptionController', () => {
  it('writes the status, then follows a pod turning unready', async () => {
    const w = world([budget('db', 'db')], [pod('a', 'db'), pod('b', 'db')]);
    await w.flush();
    expect(w.writes).toEqual([{ name: 'db', allowed: 1, healthy: 2, disrupted: [] }]);
    w.emit('pods', { type: 'Updated', object: pod('b', 'db', false) });
    await w.flush();
    expect(w.writes.at(-1)).toEqual({ name: 'db', allowed: 0, healthy: 1, disrupted: [] });
    w.stop();
  });

  it('drops an eviction that never led to a deletion once its 2 minutes are over', async () => {
    const clock = new VirtualClock();
    const evictedAt = new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const w = world(
      [budget('db', 'db', { disruptedPods: { a: evictedAt } })],
      [pod('a', 'db'), pod('b', 'db')],
    );
    await w.flush();
    expect(w.writes).toEqual([{ name: 'db', allowed: 0, healthy: 1, disrupted: ['a'] }]);
    await w.flush(60_000);
    expect(w.writes).toHaveLength(1);
    await w.flush(61_000);
    expect(w.writes.at(-1)).toEqual({ name: 'db', allowed: 1, healthy: 2, disrupted: [] });
    w.stop();
  });

  it('a pod whose labels change is counted by its new budget and no longer by its old one', async () => {
    const w = world(
      [budget('db', 'db'), budget('web', 'web')],
      [pod('a', 'db'), pod('b', 'db'), pod('c', 'web')],
    );
    await w.flush();
    w.writes.length = 0;
    w.emit('pods', { type: 'Updated', object: pod('b', 'web') });
    await w.flush();
    expect(w.writes.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: 'db', allowed: 0, healthy: 1, disrupted: [] },
      { name: 'web', allowed: 1, healthy: 2, disrupted: [] },
    ]);
    w.stop();
  });
});
