// The resourcequota controller end to end: kube-rx controller-manager (resourcequota), the embedded API server, kube-rx scheduler, one simulated node and kubectl — a quota's used counts follow pods and config maps created and deleted.
import { describe, expect, it } from 'vitest';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

describe.skipIf(!KUBECTL)('resourcequota controller end to end', { timeout: 120_000 }, () => {
  const plane = useControlPlane({
    nodes: 1,
    controllerManager: ['--controllers', 'resourcequota', '--resource-quota-sync-period', '2s'],
  });
  const ok = plane.ok;
  const used = async () =>
    JSON.parse(await ok(['get', 'quota', 'q', '-n', 'quota', '-o', 'jsonpath={.status.used}']));

  it("fills in a new quota's status, then follows pods and config maps created and deleted", async () => {
    expect(plane.manager!.started.controllers).toEqual(['resourcequota-controller']);
    await ok(['create', 'namespace', 'quota']);
    await ok(['create', 'serviceaccount', 'default', '-n', 'quota']);
    await ok(['create', 'configmap', 'before', '-n', 'quota', '--from-literal=a=b']);
    await ok([
      'create',
      'quota',
      'q',
      '-n',
      'quota',
      '--hard=pods=5,requests.cpu=2,count/configmaps=10,services=3',
    ]);
    await waitFor(async () => {
      expect(await used()).toEqual({
        pods: '0',
        'requests.cpu': '0',
        'count/configmaps': '1',
        services: '0',
      });
    }, 20_000);
    for (const name of ['a', 'b'])
      await ok(
        ['create', '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: 'quota' },
          spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '250m' } } }] },
        }),
      );
    await waitFor(async () => {
      expect(await used()).toMatchObject({ pods: '2', 'requests.cpu': '500m' });
    }, 20_000);
    await ok(['delete', 'pod', 'a', '-n', 'quota', '--wait=true']);
    await ok(['delete', 'configmap', 'before', '-n', 'quota']);
    await waitFor(async () => {
      expect(await used()).toEqual({
        pods: '1',
        'requests.cpu': '250m',
        'count/configmaps': '0',
        services: '0',
      });
    }, 20_000);
    const described = await ok(['describe', 'quota', 'q', '-n', 'quota']);
    expect(described).toMatch(/pods\s+1\s+5/);
  });

  it('a raised hard limit is copied into status.hard', async () => {
    await ok([
      'patch',
      'quota',
      'q',
      '-n',
      'quota',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { hard: { pods: '7' } } }),
    ]);
    await waitFor(async () => {
      const hard = JSON.parse(
        await ok(['get', 'quota', 'q', '-n', 'quota', '-o', 'jsonpath={.status.hard}']),
      );
      expect(hard.pods).toBe('7');
    }, 20_000);
  });
});
