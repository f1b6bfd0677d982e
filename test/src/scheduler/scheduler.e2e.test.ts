// `kube-rx scheduler` end to end: kubectl creates nodes and pods on the embedded API server, the scheduler process binds them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import {
  freePort,
  KUBECTL,
  kubectl,
  runScheduler,
  type SchedulerProcess,
  startSchedulerProcess,
} from './scheduler-process.ts';
import { waitFor } from './wait-for.ts';

if (!KUBECTL) console.warn('scheduler end-to-end tests skipped: kubectl is not installed');

const nodeYaml = (name: string, cpu: string, extra = '') => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels: {kubernetes.io/hostname: ${name}}
${extra}
status:
  capacity: {cpu: "${cpu}", memory: 16Gi, pods: "110"}
  allocatable: {cpu: "${cpu}", memory: 16Gi, pods: "110"}
  conditions: [{type: Ready, status: "True"}]
---
`;

const podYaml = (name: string, cpu: string, spec = '') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
${spec}
  containers:
  - name: c
    image: nginx
    resources: {requests: {cpu: "${cpu}"}}
---
`;

describe.skipIf(!KUBECTL)('kube-rx scheduler with kubectl', { timeout: 60_000 }, () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  let scheduler: SchedulerProcess;
  let profiles: SchedulerProcess;

  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(kubeconfig, args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };
  const nodeOf = (pod: string) => ok(['get', 'pod', pod, '-o', 'jsonpath={.spec.nodeName}']);
  const boundTo = (pod: string, node: string) => waitFor(async () => expect(await nodeOf(pod)).toBe(node));

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-scheduler-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    await ok(
      ['apply', '-f', '-'],
      nodeYaml('small', '1') +
        nodeYaml('big', '8') +
        nodeYaml('tainted', '16', 'spec:\n  taints: [{key: dedicated, value: db, effect: NoSchedule}]') +
        nodeYaml('ssd', '2').replace(
          '{kubernetes.io/hostname: ssd}',
          '{kubernetes.io/hostname: ssd, disk: ssd}',
        ),
    );
    const securePort = await freePort();
    scheduler = await startSchedulerProcess([
      '--kubeconfig',
      kubeconfig,
      '--leader-elect=false',
      '--secure-port',
      String(securePort),
      '--bind-address',
      '127.0.0.1',
    ]);
    const config = join(dir, 'profiles.yaml');
    writeFileSync(
      config,
      `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection: {leaderElect: false}
profiles:
- schedulerName: alpha
- schedulerName: beta
  plugins:
    score:
      disabled: [{name: "*"}]
`,
    );
    profiles = await startSchedulerProcess([
      '--kubeconfig',
      kubeconfig,
      '--config',
      config,
      '--secure-port',
      '0',
    ]);
  });

  afterAll(async () => {
    expect(await scheduler?.stop()).toBe(0);
    expect(await profiles?.stop()).toBe(0);
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('binds pods to a node that fits: resources, taints and tolerations, nodeSelector', async () => {
    await ok(
      ['apply', '-f', '-'],
      podYaml('needs-four', '4') +
        podYaml(
          'db',
          '12',
          '  tolerations: [{key: dedicated, operator: Equal, value: db, effect: NoSchedule}]',
        ) +
        podYaml('on-ssd', '1', '  nodeSelector: {disk: ssd}'),
    );
    await boundTo('needs-four', 'big');
    await boundTo('db', 'tainted');
    await boundTo('on-ssd', 'ssd');
    const events = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=db,reason=Scheduled',
      '-o',
      'jsonpath={.items[*].message}',
    ]);
    expect(events).toBe('Successfully assigned default/db to tainted');
  });

  it('runs `kubectl run` pods too', async () => {
    await ok(['run', 'web', '--image=nginx']);
    await waitFor(async () => expect(await nodeOf('web')).not.toBe(''));
  });

  it('records FailedScheduling with the FitError, shows PodScheduled=False, and binds once a fitting node appears', async () => {
    await ok(['apply', '-f', '-'], podYaml('huge', '32'));
    const message = await waitFor(async () => {
      const m = await ok([
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=huge,reason=FailedScheduling',
        '-o',
        'jsonpath={.items[0].message}',
      ]);
      expect(m).not.toBe('');
      return m;
    });
    expect(message).toBe(
      '0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: db}, 3 Insufficient cpu. ' +
        'preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    );
    const describe = await waitFor(async () => {
      const d = await ok(['describe', 'pod', 'huge']);
      expect(d).toMatch(/PodScheduled\s+False/);
      return d;
    });
    expect(describe).toContain('FailedScheduling');
    const reason = await ok([
      'get',
      'pod',
      'huge',
      '-o',
      'jsonpath={.status.conditions[?(@.type=="PodScheduled")].reason}',
    ]);
    expect(reason).toBe('Unschedulable');
    await ok(['apply', '-f', '-'], nodeYaml('giant', '64'));
    await boundTo('huge', 'giant');
  });

  it('serves pods by schedulerName from a two-profile config and ignores pods of other schedulers', async () => {
    await ok(
      ['apply', '-f', '-'],
      podYaml('for-alpha', '1', '  schedulerName: alpha') +
        podYaml('for-beta', '1', '  schedulerName: beta') +
        podYaml('for-gamma', '1', '  schedulerName: gamma'),
    );
    await waitFor(async () => expect(await nodeOf('for-alpha')).not.toBe(''));
    await waitFor(async () => expect(await nodeOf('for-beta')).not.toBe(''));
    const reporters = await ok([
      'get',
      'events',
      '--field-selector',
      'reason=Scheduled',
      '-o',
      'jsonpath={range .items[*]}{.involvedObject.name}={.reportingComponent}{"\\n"}{end}',
    ]);
    expect(reporters).toContain('for-alpha=alpha');
    expect(reporters).toContain('for-beta=beta');
    expect(await nodeOf('for-gamma')).toBe('');
    const gammaEvents = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=for-gamma',
      '-o',
      'name',
    ]);
    expect(gammaEvents).toBe('');
  });

  it('serves /healthz, /readyz and /metrics over HTTPS with upstream metric names', async () => {
    const base = scheduler.started.secureServing!;
    const get = async (path: string) => {
      const { request } = await import('node:https');
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${base}${path}`, { rejectUnauthorized: false }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => {
            body += d.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    };
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok' });
    expect((await get('/readyz')).body).toContain('[+]sched-handler-sync ok');
    const metrics = (await get('/metrics')).body;
    expect(metrics).toContain(
      'scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"}',
    );
    expect(metrics).toContain('scheduler_pending_pods{queue="unschedulable"}');
    expect(metrics).toContain('scheduler_scheduling_attempt_duration_seconds_bucket');
    expect(metrics).toContain('scheduler_pod_scheduling_sli_duration_seconds_bucket');
    for (const point of [
      'PreFilter',
      'PreScore',
      'Score',
      'Reserve',
      'Permit',
      'PreBind',
      'Bind',
      'PostBind',
    ]) {
      expect(metrics).toContain(
        `scheduler_framework_extension_point_duration_seconds_count{extension_point="${point}",status="Success",profile="default-scheduler"}`,
      );
    }
  });

  it('exits non-zero naming the field of a bad config', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: a\n- plugins: {}\n',
    );
    const run = await runScheduler(['--kubeconfig', kubeconfig, '--config', bad, '--secure-port', '0']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('profiles[1].schedulerName: Required value');
    const range = join(dir, 'range.yaml');
    writeFileSync(
      range,
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 120\n',
    );
    const run2 = await runScheduler(['--config', range]);
    expect(run2.code).not.toBe(0);
    expect(run2.stderr).toContain('percentageOfNodesToScore: Invalid value: 120: not in valid range [0-100]');
  });

  it('writes the defaulted configuration with --write-config-to and exits 0', async () => {
    const out = join(dir, 'written.yaml');
    const run = await runScheduler(['--write-config-to', out]);
    expect(run.code).toBe(0);
    const { parse } = await import('yaml');
    const { readFileSync } = await import('node:fs');
    const written = parse(readFileSync(out, 'utf8'));
    expect(written).toMatchObject({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      parallelism: 16,
      podMaxBackoffSeconds: 10,
    });
    expect(written.profiles[0].schedulerName).toBe('default-scheduler');
  });
});
