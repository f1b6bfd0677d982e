// kubectl end to end: the API server refuses objects upstream's validation refuses, naming the field, and keeps the valid ones of a manifest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../../../helpers/kubectl.ts';

describe.skipIf(!KUBECTL)('kubectl and per-kind validation', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const { kubectl, ok } = kubectlRunner(() => kubeconfig);

  beforeAll(async () => {
    server = await startApiServer({ builtinNamespaceControllers: true });
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-validation-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl apply of a pod requesting more CPU than its limit is refused with the field path', async () => {
    const file = join(dir, 'greedy.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: greedy}',
        'spec:',
        '  containers:',
        '  - name: app',
        '    image: nginx:1.27',
        '    resources: {requests: {cpu: "2"}, limits: {cpu: "1"}}',
        '',
      ].join('\n'),
    );
    const r = await kubectl(['apply', '-f', file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'The Pod "greedy" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    );
    expect((await kubectl(['get', 'pod', 'greedy'])).stderr).toContain('NotFound');
  });

  it('a manifest with one bad and one good object creates the good one', async () => {
    const file = join(dir, 'mixed.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: stuck}',
        'spec:',
        '  selector: {matchLabels: {app: stuck}}',
        '  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}',
        '  template:',
        '    metadata: {labels: {app: stuck}}',
        '    spec: {containers: [{name: app, image: nginx:1.27}]}',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata: {name: web}',
        'spec:',
        '  selector: {app: web}',
        '  ports: [{port: 80, targetPort: 8080}]',
        '',
      ].join('\n'),
    );
    const r = await kubectl(['apply', '-f', file]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('service/web created');
    expect(r.stderr).toContain(
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    );
    expect(await ok(['get', 'service', 'web', '-o', 'name'])).toBe('service/web\n');
    expect((await kubectl(['get', 'deployment', 'stuck'])).stderr).toContain('NotFound');
  });

  it('kubectl create cronjob with a malformed schedule names the schedule and the parser’s reason', async () => {
    const r = await kubectl(['create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 25 * * *']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25',
    );
    expect(await ok(['create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 2 * * *'])).toBe(
      'cronjob.batch/nightly created\n',
    );
  });

  it('kubectl create refuses an ingress host that is an IP and a fractional pod quota', async () => {
    const ingress = await kubectl(['create', 'ingress', 'direct', '--rule=10.0.0.1/=web:80']);
    expect(ingress.code).not.toBe(0);
    expect(ingress.stderr).toContain(
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
    );
    const quota = await kubectl(['create', 'quota', 'half', '--hard=pods=2.5']);
    expect(quota.code).not.toBe(0);
    expect(quota.stderr).toContain('spec.hard[pods]: Invalid value: "2500m": must be an integer');
    expect(await ok(['create', 'ingress', 'named', '--rule=*.example.com/=web:80'])).toBe(
      'ingress.networking.k8s.io/named created\n',
    );
  });

  it('a claim’s access modes stay after creation', async () => {
    const file = join(dir, 'claim.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: PersistentVolumeClaim',
        'metadata: {name: data}',
        'spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}',
        '',
      ].join('\n'),
    );
    expect(await ok(['apply', '-f', file])).toBe('persistentvolumeclaim/data created\n');
    const modes = await kubectl(['patch', 'pvc', 'data', '-p', '{"spec":{"accessModes":["ReadOnlyMany"]}}']);
    expect(modes.code).not.toBe(0);
    expect(modes.stderr).toContain(
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    );
  });
});
