// `kube-rx scheduler --config` with an HTTP extender in the file: the process consults it; a bad extender entry exits non-zero naming the field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import { NODES, PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { runScheduler, type SchedulerProcess, startSchedulerProcess } from '../scheduler-process.ts';
import { waitFor } from '../wait-for.ts';
import { type ExtenderServer, startExtenderServer } from './extender-server.ts';

const node = (name: string): Node => ({
  metadata: { name },
  spec: {},
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});

describe('kube-rx scheduler --config with extenders', { timeout: 60_000 }, () => {
  const cluster = useEmbeddedCluster();
  let dir: string;
  let kubeconfig: string;
  let extender: ExtenderServer;
  let scheduler: SchedulerProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-extender-'));
    kubeconfig = join(dir, 'kubeconfig');
    await cluster.server.writeKubeconfig(kubeconfig);
    extender = await startExtenderServer();
    extender.handlers.filter = (body) => ({
      NodeNames: (body.NodeNames as string[]).filter((n) => n === 'chosen'),
      FailedNodes: Object.fromEntries(
        (body.NodeNames as string[]).filter((n) => n !== 'chosen').map((n) => [n, 'not chosen']),
      ),
    });
    for (const n of ['a', 'b', 'chosen', 'c']) await firstValueFrom(cluster.api.create(NODES, node(n)));
  });

  afterAll(async () => {
    if (scheduler) expect(await scheduler.stop()).toBe(0);
    await extender?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sends each pod to the extender and binds it where the extender allows', async () => {
    const config = join(dir, 'sched.yaml');
    writeFileSync(
      config,
      `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: ${extender.urlPrefix}
  filterVerb: filter
  nodeCacheCapable: true
`,
    );
    scheduler = await startSchedulerProcess([
      '--config',
      config,
      '--kubeconfig',
      kubeconfig,
      '--leader-elect=false',
      '--secure-port',
      '0',
    ]);
    const pod: Pod = {
      metadata: { name: 'picky', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    await firstValueFrom(cluster.api.create(PODS, pod));
    const nodeName = await waitFor(async () => {
      const p = (await firstValueFrom(cluster.api.get(PODS, 'picky', { namespace: 'default' }))) as Pod;
      expect(p.spec.nodeName).toBeTruthy();
      return p.spec.nodeName;
    }, 20_000);
    expect(nodeName).toBe('chosen');
    expect(extender.requests.filter((r) => r.verb === 'filter').length).toBeGreaterThanOrEqual(1);
  });

  it('refuses an extender entry that would not work, naming the field', async () => {
    const config = join(dir, 'bad.yaml');
    writeFileSync(
      config,
      `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: http://127.0.0.1:1
  prioritizeVerb: prioritize
`,
    );
    const run = await runScheduler(['--config', config, '--kubeconfig', kubeconfig, '--leader-elect=false']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('extenders[0].weight');
  });
});
