// Tests of node registration and the status loop against the embedded API server: labels, taints, adoption, moving heartbeats.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../operators/api/core-v1.ts';
import type { MachineInfo } from '../../../operators/kubelet/node-status-setters.ts';
import {
  type NodeStatusReport,
  nodeStatusUpdater,
} from '../../../src/kubelet/node-status/node-status-updater.ts';
import {
  describeNode,
  KUBELET_VERSION,
  nodeStatusConfig,
  registerNode,
} from '../../../src/node-agent/register-node.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { NODES } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { until } from '../../helpers/until.ts';

const cluster = useEmbeddedCluster();

const machine: MachineInfo = {
  hostname: 'h',
  cpus: 3,
  memoryBytes: 4 * 1024 ** 3,
  memoryAvailableBytes: 2 * 1024 ** 3,
  ephemeralStorageBytes: 50 * 1024 ** 3,
  ephemeralStorageAvailableBytes: 40 * 1024 ** 3,
  addresses: [{ address: '10.1.2.3', family: 'IPv4' }],
  operatingSystem: 'linux',
  architecture: 'amd64',
  kernelVersion: '6.1.0',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  machineID: 'mid',
  systemUUID: 'uuid',
  bootID: 'boot',
};

describe('registerNode against the embedded API server', () => {
  it('creates the Node with labels, taints, capacity, conditions, addresses and nodeInfo', async () => {
    const node = describeNode(
      'reg-a',
      Date.parse('2026-11-24T10:00:00Z'),
      { 'node-role.kubernetes.io/worker': '' },
      {
        machine,
        registerWithTaints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }],
        containerRuntimeVersion: 'process://0.1.0',
      },
    );
    const created = await firstValueFrom(registerNode(cluster.api, node));
    expect(created.metadata.uid).toBeTruthy();
    const stored = await firstValueFrom(cluster.api.get<Node>(NODES, 'reg-a'));
    expect(stored.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'reg-a',
      'kubernetes.io/os': 'linux',
      'node-role.kubernetes.io/worker': '',
    });
    expect(stored.spec?.taints).toEqual([{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }]);
    expect(stored.status?.capacity).toMatchObject({ cpu: '3', pods: '110' });
    expect(stored.status?.addresses).toEqual([
      { type: 'InternalIP', address: '10.1.2.3' },
      { type: 'Hostname', address: 'reg-a' },
    ]);
    expect(stored.status?.nodeInfo).toMatchObject({
      kubeletVersion: KUBELET_VERSION,
      containerRuntimeVersion: 'process://0.1.0',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
    });
    expect(stored.status?.conditions?.map((c) => [c.type, c.status, c.lastTransitionTime])).toEqual([
      ['MemoryPressure', 'False', '2026-11-24T10:00:00Z'],
      ['DiskPressure', 'False', '2026-11-24T10:00:00Z'],
      ['PIDPressure', 'False', '2026-11-24T10:00:00Z'],
      ['Ready', 'True', '2026-11-24T10:00:00Z'],
    ]);
  });

  it('adopts an existing Node: default labels put back, its taints and extra labels kept, transitions kept', async () => {
    const first = describeNode('reg-b', Date.parse('2026-11-24T10:00:00Z'), {}, { machine });
    await firstValueFrom(registerNode(cluster.api, first));
    await firstValueFrom(
      cluster.api.patch(
        NODES,
        'reg-b',
        {
          metadata: { labels: { 'kubernetes.io/hostname': 'wrong', team: 'x' } },
          spec: { taints: [{ key: 'k', effect: 'NoExecute' }] },
        },
        'merge',
      ),
    );
    const again = describeNode('reg-b', Date.parse('2026-11-24T11:00:00Z'), { ignored: 'yes' }, { machine });
    const adopted = await firstValueFrom(registerNode(cluster.api, again));
    expect(adopted.metadata.labels?.['kubernetes.io/hostname']).toBe('reg-b');
    expect(adopted.metadata.labels?.team).toBe('x');
    expect(adopted.spec?.taints).toEqual([{ key: 'k', effect: 'NoExecute' }]);
    const ready = adopted.status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({
      lastHeartbeatTime: '2026-11-24T11:00:00Z',
      lastTransitionTime: '2026-11-24T10:00:00Z',
    });
  });

  it('the status loop moves the heartbeat on the server and keeps the transition time', async () => {
    const clock = new VirtualClock();
    clock.advance(Date.parse('2026-11-24T12:00:00Z'));
    await firstValueFrom(registerNode(cluster.api, describeNode('reg-c', clock.now(), {}, { machine })));
    const reports: NodeStatusReport[] = [];
    const sub = nodeStatusUpdater({
      client: cluster.api,
      statusConfig: nodeStatusConfig('reg-c'),
      machineInfo: () => machine,
      scheduler: clock.scheduler,
      reportFrequencyMs: 10_000,
    }).subscribe((r) => reports.push(r));
    try {
      // each round's HTTP finishes before virtual time moves on
      clock.advance(0);
      await until(() => reports.length === 1, 'the first round');
      clock.advance(10_000);
      await until(() => reports.length === 2, 'the second round');
    } finally {
      sub.unsubscribe();
    }
    expect(reports.map((r) => r.outcome)).toEqual(['patched', 'patched']);
    const stored = await firstValueFrom(cluster.api.get<Node>(NODES, 'reg-c'));
    const ready = stored.status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({
      lastHeartbeatTime: '2026-11-24T12:00:10Z',
      lastTransitionTime: '2026-11-24T12:00:00Z',
    });
  });
});
