// Every `kubectl create <generator>` of kubectl 1.32, and `kubectl expose`, against the embedded API server: each is created and read back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servingCertificates } from '../../../src/apiserver/certificates.ts';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../helpers/kubectl.ts';

describe.skipIf(!KUBECTL)('kubectl create, every generator', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const { ok } = kubectlRunner(() => kubeconfig);

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-generators-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    const tls = servingCertificates('web.example');
    writeFileSync(join(dir, 'tls.crt'), tls.certPem);
    writeFileSync(join(dir, 'tls.key'), tls.keyPem);
    await ok(['create', 'namespace', 'gen']);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // [what kubectl prints, the arguments after `kubectl create`, what `kubectl get` reads back]
  it.each([
    [
      'clusterrole.rbac.authorization.k8s.io/reader',
      ['clusterrole', 'reader', '--verb=get,list', '--resource=pods'],
      ['clusterrole', 'reader'],
    ],
    [
      'clusterrolebinding.rbac.authorization.k8s.io/reader',
      ['clusterrolebinding', 'reader', '--clusterrole=reader', '--user=alice'],
      ['clusterrolebinding', 'reader'],
    ],
    [
      'configmap/settings',
      ['configmap', 'settings', '--from-literal=a=1', '-n', 'gen'],
      ['configmap', 'settings', '-n', 'gen'],
    ],
    [
      'cronjob.batch/nightly',
      ['cronjob', 'nightly', '--image=busybox', '--schedule=0 1 * * *', '-n', 'gen', '--', 'date'],
      ['cronjob', 'nightly', '-n', 'gen'],
    ],
    [
      'deployment.apps/web',
      ['deployment', 'web', '--image=nginx', '--replicas=2', '--port=80', '-n', 'gen'],
      ['deployment', 'web', '-n', 'gen'],
    ],
    [
      'ingress.networking.k8s.io/shop',
      ['ingress', 'shop', '--rule=shop.example.com/=web:80', '-n', 'gen'],
      ['ingress', 'shop', '-n', 'gen'],
    ],
    [
      'job.batch/once',
      ['job', 'once', '--image=busybox', '-n', 'gen', '--', 'echo', 'hi'],
      ['job', 'once', '-n', 'gen'],
    ],
    [
      'job.batch/from-cron',
      ['job', 'from-cron', '--from=cronjob/nightly', '-n', 'gen'],
      ['job', 'from-cron', '-n', 'gen'],
    ],
    ['namespace/other', ['namespace', 'other'], ['namespace', 'other']],
    [
      'poddisruptionbudget.policy/web',
      ['poddisruptionbudget', 'web', '--selector=app=web', '--min-available=1', '-n', 'gen'],
      ['pdb', 'web', '-n', 'gen'],
    ],
    [
      'priorityclass.scheduling.k8s.io/high',
      ['priorityclass', 'high', '--value=1000', '--description=important'],
      ['priorityclass', 'high'],
    ],
    ['resourcequota/pods', ['quota', 'pods', '--hard=pods=10', '-n', 'gen'], ['quota', 'pods', '-n', 'gen']],
    [
      'role.rbac.authorization.k8s.io/editor',
      ['role', 'editor', '--verb=get,update', '--resource=deployments.apps', '-n', 'gen'],
      ['role', 'editor', '-n', 'gen'],
    ],
    [
      'rolebinding.rbac.authorization.k8s.io/editor',
      ['rolebinding', 'editor', '--role=editor', '--serviceaccount=gen:robot', '-n', 'gen'],
      ['rolebinding', 'editor', '-n', 'gen'],
    ],
    [
      'secret/registry',
      [
        'secret',
        'docker-registry',
        'registry',
        '--docker-server=r.example',
        '--docker-username=u',
        '--docker-password=p',
        '-n',
        'gen',
      ],
      ['secret', 'registry', '-n', 'gen'],
    ],
    [
      'secret/plain',
      ['secret', 'generic', 'plain', '--from-literal=password=s3cret', '-n', 'gen'],
      ['secret', 'plain', '-n', 'gen'],
    ],
    [
      'service/cip',
      ['service', 'clusterip', 'cip', '--tcp=80:8080', '-n', 'gen'],
      ['service', 'cip', '-n', 'gen'],
    ],
    [
      'service/ext',
      ['service', 'externalname', 'ext', '--external-name=db.example.com', '-n', 'gen'],
      ['service', 'ext', '-n', 'gen'],
    ],
    [
      'service/lb',
      ['service', 'loadbalancer', 'lb', '--tcp=443:8443', '-n', 'gen'],
      ['service', 'lb', '-n', 'gen'],
    ],
    [
      'service/np',
      ['service', 'nodeport', 'np', '--tcp=80:8080', '-n', 'gen'],
      ['service', 'np', '-n', 'gen'],
    ],
    [
      'serviceaccount/robot',
      ['serviceaccount', 'robot', '-n', 'gen'],
      ['serviceaccount', 'robot', '-n', 'gen'],
    ],
  ])('%s', async (name, args, get) => {
    expect(await ok(['create', ...args])).toBe(`${name} created\n`);
    const read = JSON.parse(await ok(['get', ...get, '-o', 'json'])) as { metadata: { name: string } };
    expect(read.metadata.name).toBe(name.split('/')[1]);
  });

  it('secret tls from files, token for a service account, and expose of a deployment', async () => {
    expect(
      await ok([
        'create',
        'secret',
        'tls',
        'web-tls',
        `--cert=${join(dir, 'tls.crt')}`,
        `--key=${join(dir, 'tls.key')}`,
        '-n',
        'gen',
      ]),
    ).toBe('secret/web-tls created\n');
    const tls = JSON.parse(await ok(['get', 'secret', 'web-tls', '-n', 'gen', '-o', 'json'])) as {
      type: string;
    };
    expect(tls.type).toBe('kubernetes.io/tls');
    const token = (await ok(['create', 'token', 'robot', '-n', 'gen'])).trim();
    expect(token.split('.')).toHaveLength(3);
    await ok(['create', 'deployment', 'api', '--image=nginx', '--port=8080', '-n', 'gen']);
    expect(await ok(['expose', 'deployment', 'api', '--port=80', '--target-port=8080', '-n', 'gen'])).toBe(
      'service/api exposed\n',
    );
    const svc = JSON.parse(await ok(['get', 'service', 'api', '-n', 'gen', '-o', 'json'])) as {
      spec: { selector: Record<string, string>; ports: { port: number; targetPort: number }[] };
    };
    expect(svc.spec.selector).toEqual({ app: 'api' });
    expect(svc.spec.ports[0]).toMatchObject({ port: 80, targetPort: 8080 });
  });

  it('a job gets a selector by its uid and its pods the job labels, as upstream generates them; Duration is start to completion', async () => {
    await ok(['create', 'job', 'labelled', '--image=busybox', '-n', 'gen', '--', 'true']);
    const job = JSON.parse(await ok(['get', 'job', 'labelled', '-n', 'gen', '-o', 'json'])) as {
      metadata: { uid: string };
      spec: {
        selector: { matchLabels: Record<string, string> };
        template: { metadata: { labels: Record<string, string> } };
      };
    };
    const uid = job.metadata.uid;
    expect(job.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    expect(job.spec.template.metadata.labels).toMatchObject({
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'labelled',
      'controller-uid': uid,
      'job-name': 'labelled',
    });
    const status = {
      startTime: '2026-11-25T00:00:00Z',
      completionTime: '2026-11-25T00:00:42Z',
      succeeded: 1,
    };
    await ok([
      'patch',
      'job',
      'labelled',
      '-n',
      'gen',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    const row = (await ok(['get', 'job', 'labelled', '-n', 'gen', '--no-headers'])).trim().split(/\s+/);
    expect(row.slice(0, 4)).toEqual(['labelled', 'Running', '1/1', '42s']);
  });
});
