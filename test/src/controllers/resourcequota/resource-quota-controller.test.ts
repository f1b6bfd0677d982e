// The resourcequota controller in virtual time over in-memory informers: a stale status is put right, deletions and terminal pods release quota at once, and `count/` names of unwatched resources follow on the full resync period.
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../operators/types.ts';
import { resourceQuotaController } from '../../../../src/controllers/resourcequota/resource-quota-controller.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';
import { inMemoryInformers } from '../disruption/in-memory-informers.ts';

const PERIOD = 5 * 60 * 1000;

const quota = (hard: Record<string, string>, used?: Record<string, string>): KubeObject => ({
  metadata: { name: 'q', namespace: 'ns', resourceVersion: '1' },
  spec: { hard },
  ...(used ? { status: { hard, used } } : {}),
});

const pod = (name: string, cpu: string, phase = 'Running'): KubeObject => ({
  metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu } } }] },
  status: { phase },
});

const named = (name: string, namespace = 'ns'): KubeObject => ({ metadata: { name, namespace } });

function world(initial: { quotas: KubeObject[]; pods?: KubeObject[]; services?: KubeObject[] }) {
  const memory = inMemoryInformers([
    'resourcequotas',
    'pods',
    'services',
    'configmaps',
    'secrets',
    'persistentvolumeclaims',
    'replicationcontrollers',
  ]);
  const writes: Record<string, string>[] = [];
  let deployments: KubeObject[] = [];
  const client = {
    updateStatus: (_r: ResourceDescriptor, o: KubeObject) => {
      writes.push((o.status as { used: Record<string, string> }).used);
      const stored = { ...o, metadata: { ...o.metadata, resourceVersion: String(writes.length + 1) } };
      memory.emit('resourcequotas', { type: 'Updated', object: stored });
      return of(stored);
    },
    list: (r: ResourceDescriptor) =>
      of({ metadata: {}, items: r.plural === 'deployments' ? deployments : [] }),
  } as unknown as ApiClient;
  const sub = resourceQuotaController({
    client,
    informerFactory: memory.factory,
    scheduler: memory.clock.scheduler,
  }).subscribe();
  memory.start({
    resourcequotas: initial.quotas,
    pods: initial.pods ?? [],
    services: initial.services ?? [],
  });
  return {
    writes,
    flush: memory.flush,
    emit: memory.emit,
    setDeployments: (d: KubeObject[]) => {
      deployments = d;
    },
    stop: () => {
      sub.unsubscribe();
      memory.stop();
    },
  };
}

describe('resourceQuotaController', () => {
  it('puts a stale status right and leaves a correct one alone', async () => {
    const w = world({
      quotas: [
        quota(
          { pods: '5', 'requests.cpu': '2', services: '2' },
          { pods: '9', 'requests.cpu': '0', services: '0' },
        ),
      ],
      pods: [pod('a', '250m'), pod('b', '500m'), named('elsewhere', 'other')],
      services: [named('s')],
    });
    await w.flush();
    expect(w.writes).toEqual([{ pods: '2', 'requests.cpu': '750m', services: '1' }]);
    await w.flush(1000);
    expect(w.writes).toHaveLength(1);
    w.stop();
  });

  it('releases quota when a pod is deleted or turns terminal, and a new hard name is counted', async () => {
    const w = world({ quotas: [quota({ pods: '5' })], pods: [pod('a', '1'), pod('b', '1'), pod('c', '1')] });
    await w.flush();
    expect(w.writes).toEqual([{ pods: '3' }]);
    w.emit('pods', { type: 'Deleted', object: pod('a', '1') });
    await w.flush();
    w.emit('pods', { type: 'Updated', object: pod('b', '1', 'Succeeded') });
    await w.flush();
    expect(w.writes.slice(1)).toEqual([{ pods: '2' }, { pods: '1' }]);
    w.emit('resourcequotas', { type: 'Updated', object: quota({ pods: '5', 'limits.cpu': '4' }) });
    await w.flush();
    expect(w.writes.at(-1)).toEqual({ pods: '1', 'limits.cpu': '0' });
    w.stop();
  });

  it('recounts every quota on the full resync period (count/ names of resources it does not watch)', async () => {
    const w = world({ quotas: [quota({ 'count/deployments.apps': '3' })] });
    await w.flush();
    expect(w.writes).toEqual([{ 'count/deployments.apps': '0' }]);
    w.setDeployments([named('d1'), named('d2')]);
    await w.flush(PERIOD - 1000);
    expect(w.writes).toHaveLength(1);
    await w.flush(1000);
    expect(w.writes.at(-1)).toEqual({ 'count/deployments.apps': '2' });
    w.stop();
  });
});
