// `kube-rx scheduler` end to end with kubectl: a high-priority pod preempts a low-priority one; required anti-affinity spreads pods.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { KUBECTL, kubectl, type SchedulerProcess, startSchedulerProcess } from './scheduler-process.ts';
import { waitFor } from './wait-for.ts';

const node = (name: string, cpu: string, zone: string) => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels: {kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: ${zone}}
status:
  allocatable: {cpu: "${cpu}", memory: 16Gi, pods: "110"}
---
`;

const pod = (name: string, cpu: string, extra = '', labels = '{}') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default, labels: ${labels}}
spec:
  terminationGracePeriodSeconds: 0
${extra}
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "${cpu}"}}}]
---
`;

describe.skipIf(!KUBECTL)('kube-rx scheduler: preemption and pod anti-affinity', { timeout: 60_000 }, () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  let scheduler: SchedulerProcess;

  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(kubeconfig, args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };
  const nodeOf = (name: string) => ok(['get', 'pod', name, '-o', 'jsonpath={.spec.nodeName}']);

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-preemption-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    await ok(
      ['apply', '-f', '-'],
      `${node('n1', '2', 'a')}${node('n2', '2', 'b')}apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 100
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
`,
    );
    scheduler = await startSchedulerProcess([
      '--kubeconfig',
      kubeconfig,
      '--leader-elect=false',
      '--secure-port',
      '0',
    ]);
  });

  afterAll(async () => {
    expect(await scheduler?.stop()).toBe(0);
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('spreads pods with required anti-affinity on the hostname and keeps the third one pending', async () => {
    const anti = `  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        topologyKey: kubernetes.io/hostname`;
    await ok(
      ['apply', '-f', '-'],
      pod('web-1', '100m', anti, '{app: web}') + pod('web-2', '100m', anti, '{app: web}'),
    );
    await waitFor(async () => expect(await nodeOf('web-2')).not.toBe(''));
    const nodes = [await nodeOf('web-1'), await nodeOf('web-2')].sort();
    expect(nodes).toEqual(['n1', 'n2']);
    await ok(['apply', '-f', '-'], pod('web-3', '100m', anti, '{app: web}'));
    const message = await waitFor(async () => {
      const m = await ok([
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=web-3,reason=FailedScheduling',
        '-o',
        'jsonpath={.items[0].message}',
      ]);
      expect(m).not.toBe('');
      return m;
    });
    expect(message).toMatch(/^0\/2 nodes are available: 2 node\(s\) didn't match pod anti-affinity rules\./);
    const deleted = await kubectl(kubeconfig, [
      'delete',
      'pod',
      'web-1',
      'web-2',
      'web-3',
      '--grace-period=0',
      '--force',
    ]);
    expect(deleted.code).toBe(0);
  });

  it('preempts a low-priority pod for a high-priority one that does not fit otherwise', async () => {
    await ok(
      ['apply', '-f', '-'],
      pod('low-1', '1500m', '  priorityClassName: low') + pod('low-2', '1500m', '  priorityClassName: low'),
    );
    await waitFor(async () => expect(await nodeOf('low-2')).not.toBe(''));
    await ok(['apply', '-f', '-'], pod('high', '1500m', '  priorityClassName: high'));
    const host = await waitFor(async () => {
      const n = await nodeOf('high');
      expect(n).not.toBe('');
      return n;
    }, 20_000);
    const left = (
      await ok([
        'get',
        'pods',
        '-o',
        'jsonpath={range .items[*]}{.metadata.name}={.spec.nodeName}{"\\n"}{end}',
      ])
    )
      .trim()
      .split('\n')
      .sort();
    expect(left).toHaveLength(2);
    expect(left).toContain(`high=${host}`);
    expect(left.filter((l) => l.startsWith('low-'))).toHaveLength(1);
    expect(left.find((l) => l.startsWith('low-'))).not.toContain(`=${host}`);
  });
});
