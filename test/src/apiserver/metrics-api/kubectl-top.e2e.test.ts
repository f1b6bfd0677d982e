// kubectl top end to end: real kubectl → embedded API server's metrics.k8s.io → the kubelet's /metrics/resource → a process-runtime pod burning CPU.
import { firstValueFrom } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { NAMESPACES, PODS, SERVICE_ACCOUNTS } from '../../../../streams/resources.ts';
import { KUBECTL, kubectlRunner } from '../../../helpers/kubectl.ts';
import { waitForPod } from '../../kubelet/kubelet-fixture.ts';
import { useServingKubelet } from '../../kubelet/server/serving-kubelet.ts';

const NODE = 'node-top';
const serving = useServingKubelet(NODE, { 'kubernetes.io/hostname': NODE });
const cluster = serving.cluster;
const { kubectl } = kubectlRunner(() => serving.kubeconfig);

/** Spins for about half of one core, forever (the kubelet stops it). */
const BURN = `
const spin = () => { const end = Date.now() + 50; while (Date.now() < end); setTimeout(spin, 50); };
spin();
setTimeout(() => process.exit(0), 120000);
`;

beforeAll(async () => {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'burner', namespace: 'default', labels: { app: 'burner' } },
    spec: {
      nodeName: NODE,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'spin', image: 'node', command: [process.execPath, '-e', BURN] }],
    },
  };
  await firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
  await waitForPod(cluster.api, 'burner', (p) => p?.status?.phase === 'Running', 'Running', 20_000);
}, 40_000);

/** The millicores and MiB in a `kubectl top` row's CPU and memory columns. */
function usageOf(row: string): { millicores: number; mebibytes: number } {
  const cpu = /\s(\d+)m\s/.exec(row);
  const memory = /\s(\d+)Mi\s/.exec(row);
  expect(cpu, row).not.toBeNull();
  expect(memory, row).not.toBeNull();
  return { millicores: Number(cpu![1]), mebibytes: Number(memory![1]) };
}

describe.skipIf(!KUBECTL)('kubectl top against the embedded API server', () => {
  it('kubectl api-versions lists metrics.k8s.io/v1beta1', async () => {
    const run = await kubectl(['api-versions']);
    expect(run.stdout.split('\n')).toContain('metrics.k8s.io/v1beta1');
  });

  it('top pod shows the pod burning CPU with its memory', async () => {
    const run = await kubectl(['top', 'pod']);
    expect(run.stderr).toBe('');
    const [header, row] = run.stdout.trim().split('\n');
    expect(header).toMatch(/^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)/);
    expect(row).toMatch(/^burner\s/);
    const { millicores, mebibytes } = usageOf(`${row} `);
    // about 500m on an idle machine; far less when other work shares the cores, never nothing
    expect(millicores).toBeGreaterThan(10);
    expect(mebibytes).toBeGreaterThan(5); // a Node.js process's working set
  }, 20_000);

  it('top pod NAME --containers shows the container; a label selector filters', async () => {
    const named = await kubectl(['top', 'pod', 'burner', '--containers']);
    expect(named.stdout).toMatch(/burner\s+spin\s+\d+m\s+\d+Mi/);
    const none = await kubectl(['top', 'pod', '-l', 'app=other']);
    expect(none.stderr).toContain('No resources found in default namespace.');
  }, 20_000);

  it('top node shows the node with CPU and memory percentages of allocatable', async () => {
    const run = await kubectl(['top', 'node']);
    expect(run.stderr).toBe('');
    const [header, row] = run.stdout.trim().split('\n');
    expect(header).toMatch(/^NAME\s+CPU\(cores\)\s+CPU\(%\)\s+MEMORY\(bytes\)\s+MEMORY\(%\)/);
    expect(row).toMatch(new RegExp(`^${NODE}\\s+\\d+m\\s+\\d+%\\s+\\d+Mi\\s+\\d+%`));
  }, 20_000);

  it('a pod that is not Running has no metrics: kubectl says metrics are not available yet', async () => {
    const pending: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'unbound', namespace: 'quiet' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    };
    await firstValueFrom(
      cluster.api.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quiet' } }),
    );
    // no serviceaccount controller runs here: the account it would create
    await firstValueFrom(
      cluster.api.create(
        SERVICE_ACCOUNTS,
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } },
        {
          namespace: 'quiet',
        },
      ),
    );
    await firstValueFrom(cluster.api.create<Pod>(PODS, pending, { namespace: 'quiet' }));
    const list = await kubectl(['top', 'pod', '-n', 'quiet']);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain('metrics not available yet');
    const one = await kubectl(['top', 'pod', 'unbound', '-n', 'quiet']);
    expect(one.stderr).toContain('podmetrics.metrics.k8s.io "quiet/unbound" not found');
  }, 20_000);
});
