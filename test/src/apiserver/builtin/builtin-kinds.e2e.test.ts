// kubectl end to end against the built-in kinds and the admission chain: service accounts, RBAC, quotas, priority, ingresses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../../helpers/kubectl.ts';

describe.skipIf(!KUBECTL)('kubectl and the built-in kinds', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;

  const { kubectl, ok } = kubectlRunner(() => kubeconfig);

  /** The header line of `kubectl get`, split into column names. */
  const header = (out: string): string[] =>
    out
      .split('\n')[0]!
      .trim()
      .split(/\s{2,}/);

  beforeAll(async () => {
    // a server alone: it gives new namespaces their default ServiceAccount itself
    server = await startApiServer({ builtinNamespaceControllers: true });
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-builtin-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates a service account and lists it with the default one', async () => {
    expect(await ok(['create', 'serviceaccount', 'x'])).toBe('serviceaccount/x created\n');
    const out = await ok(['get', 'serviceaccounts']);
    expect(header(out)).toEqual(['NAME', 'SECRETS', 'AGE']);
    expect(out).toMatch(/^default\s+0\s+/m);
    expect(out).toMatch(/^x\s+0\s+/m);
  });

  it('creates a token for a service account, signed by the server and naming it', async () => {
    await ok(['create', 'serviceaccount', 'robot']);
    const token = (await ok(['create', 'token', 'robot', '--duration=20m'])).trim();
    const [head, payload] = token.split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString('utf8')).alg).toBe('RS256');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const sa = JSON.parse(await ok(['get', 'sa', 'robot', '-o', 'json']));
    expect(claims.sub).toBe('system:serviceaccount:default:robot');
    expect(claims['kubernetes.io']).toEqual({
      namespace: 'default',
      serviceaccount: { name: 'robot', uid: sa.metadata.uid },
    });
    expect(claims.exp - claims.iat).toBe(1200);
    expect(claims.aud).toEqual(['https://kubernetes.default.svc.cluster.local']);
    const missing = await kubectl(['create', 'token', 'nobody']);
    expect(missing.stderr).toContain('serviceaccounts "nobody" not found');
  });

  it('gives every new namespace a default service account', async () => {
    await ok(['create', 'namespace', 'team-a']);
    expect(await ok(['get', 'sa', 'default', '-n', 'team-a', '-o', 'name'])).toBe('serviceaccount/default\n');
  });

  it('creates a role and a role binding and shows them as upstream does', async () => {
    expect(await ok(['create', 'role', 'r', '--verb=get', '--resource=pods'])).toBe(
      'role.rbac.authorization.k8s.io/r created\n',
    );
    const role = JSON.parse(await ok(['get', 'role', 'r', '-o', 'json']));
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    expect(header(await ok(['get', 'roles']))).toEqual(['NAME', 'CREATED AT']);
    await ok(['create', 'rolebinding', 'rb', '--role=r', '--user=alice', '--serviceaccount=default:x']);
    const wide = await ok(['get', 'rolebinding', 'rb', '-o', 'wide']);
    expect(header(wide)).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    expect(wide).toMatch(/^rb\s+Role\/r\s+\S+\s+alice\s+default:x/m);
  });

  it('has the default cluster roles and cluster-admin bound to system:masters', async () => {
    const roles = await ok(['get', 'clusterroles', '-o', 'name']);
    for (const name of ['cluster-admin', 'admin', 'edit', 'view'])
      expect(roles).toContain(`clusterrole.rbac.authorization.k8s.io/${name}\n`);
    const binding = JSON.parse(await ok(['get', 'clusterrolebinding', 'cluster-admin', '-o', 'json']));
    expect(binding.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' },
    ]);
  });

  it('refuses the pod over a pods quota, naming the quota, and tracks usage in its status', async () => {
    await ok(['create', 'namespace', 'quota-ns']);
    expect(await ok(['create', 'quota', 'q', '--hard=pods=2', '-n', 'quota-ns'])).toBe(
      'resourcequota/q created\n',
    );
    await ok(['run', 'p1', '--image=nginx', '-n', 'quota-ns']);
    await ok(['run', 'p2', '--image=nginx', '-n', 'quota-ns']);
    const third = await kubectl(['run', 'p3', '--image=nginx', '-n', 'quota-ns']);
    expect(third.code).not.toBe(0);
    expect(third.stderr).toContain(
      'pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );
    const quota = await ok(['get', 'quota', '-n', 'quota-ns']);
    expect(header(quota)).toEqual(['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    expect(quota).toMatch(/^q\s+\S+\s+pods: 2\/2\s*$/m);
  });

  it('creates a priority class and gives pods their priority, service account and tolerations', async () => {
    expect(await ok(['create', 'priorityclass', 'p', '--value=1000'])).toBe(
      'priorityclass.scheduling.k8s.io/p created\n',
    );
    const classes = await ok(['get', 'priorityclasses']);
    expect(classes).toMatch(/^system-node-critical\s+2000001000\s+false\s+/m);
    expect(classes).toMatch(/^system-cluster-critical\s+2000000000\s+false\s+/m);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'prio' },
      spec: { priorityClassName: 'p', containers: [{ name: 'c', image: 'nginx' }] },
    };
    await ok(['create', '-f', '-'], JSON.stringify(pod));
    const got = JSON.parse(await ok(['get', 'pod', 'prio', '-o', 'json']));
    expect(got.spec.priority).toBe(1000);
    expect(got.spec.serviceAccountName).toBe('default');
    const volume = got.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    expect(volume.projected.sources[0]).toEqual({
      serviceAccountToken: { expirationSeconds: 3607, path: 'token' },
    });
    expect(got.spec.containers[0].volumeMounts).toEqual([
      { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ]);
    expect(got.spec.tolerations).toEqual([
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    const unknown = await kubectl(
      ['create', '-f', '-'],
      JSON.stringify({ ...pod, metadata: { name: 'u' }, spec: { ...pod.spec, priorityClassName: 'nope' } }),
    );
    expect(unknown.stderr).toContain('no PriorityClass with name nope was found');
  });

  it('defaults a DaemonSet as upstream: RollingUpdate (maxUnavailable 1, maxSurge 0), 10 revisions kept', async () => {
    await ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'plain' },
        spec: {
          selector: { matchLabels: { app: 'plain' } },
          template: {
            metadata: { labels: { app: 'plain' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      }),
    );
    const spec = JSON.parse(await ok(['get', 'ds', 'plain', '-o', 'jsonpath={.spec}']));
    expect(spec).toMatchObject({
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    });
  });

  it('creates an ingress and shows class, hosts and ports', async () => {
    expect(await ok(['create', 'ingress', 'web', '--class=nginx', '--rule=shop.example.com/=svc:80'])).toBe(
      'ingress.networking.k8s.io/web created\n',
    );
    const out = await ok(['get', 'ingress']);
    expect(header(out)).toEqual(['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
    expect(out).toMatch(/^web\s+nginx\s+shop\.example\.com\s+80\s+/m);
  });

  it.each([
    ['endpoints', ['NAME', 'ENDPOINTS', 'AGE']],
    ['podtemplates', ['NAME', 'CONTAINERS', 'IMAGES', 'POD LABELS']],
    ['replicationcontrollers', ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']],
    ['limitranges', ['NAME', 'CREATED AT']],
    [
      'persistentvolumes',
      [
        'NAME',
        'CAPACITY',
        'ACCESS MODES',
        'RECLAIM POLICY',
        'STATUS',
        'CLAIM',
        'STORAGECLASS',
        'VOLUMEATTRIBUTESCLASS',
        'REASON',
        'AGE',
      ],
    ],
    [
      'persistentvolumeclaims',
      [
        'NAME',
        'STATUS',
        'VOLUME',
        'CAPACITY',
        'ACCESS MODES',
        'STORAGECLASS',
        'VOLUMEATTRIBUTESCLASS',
        'AGE',
      ],
    ],
    ['endpointslices', ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']],
    ['controllerrevisions', ['NAME', 'CONTROLLER', 'REVISION', 'AGE']],
    [
      'storageclasses',
      ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'],
    ],
    [
      'csidrivers',
      [
        'NAME',
        'ATTACHREQUIRED',
        'PODINFOONMOUNT',
        'STORAGECAPACITY',
        'TOKENREQUESTS',
        'REQUIRESREPUBLISH',
        'MODES',
        'AGE',
      ],
    ],
    ['volumeattachments', ['NAME', 'ATTACHER', 'PV', 'NODE', 'ATTACHED', 'AGE']],
    ['ingressclasses', ['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE']],
    ['networkpolicies', ['NAME', 'POD-SELECTOR', 'AGE']],
    ['horizontalpodautoscalers', ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']],
    [
      'certificatesigningrequests',
      ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION'],
    ],
    ['runtimeclasses', ['NAME', 'HANDLER', 'AGE']],
    [
      'daemonsets',
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
    ],
  ])('kubectl get %s shows upstream columns', async (resource, columns) => {
    const manifests: Record<string, object> = {
      daemonsets: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'ds' },
        spec: {
          selector: { matchLabels: { app: 'ds' } },
          template: {
            metadata: { labels: { app: 'ds' } },
            spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
      endpoints: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'e' },
        subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }],
      },
      podtemplates: {
        apiVersion: 'v1',
        kind: 'PodTemplate',
        metadata: { name: 't' },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
      replicationcontrollers: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'rc' },
        spec: {
          replicas: 0,
          template: {
            metadata: { labels: { a: 'b' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
      limitranges: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'lr' },
        spec: { limits: [{ type: 'Container', max: { cpu: '64' } }] },
      },
      persistentvolumes: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'pv' },
        spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp' } },
      },
      persistentvolumeclaims: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'pvc' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
      endpointslices: {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'es' },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.0.0.1'] }],
        ports: [{ port: 80 }],
      },
      controllerrevisions: {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: { name: 'cr' },
        revision: 1,
      },
      storageclasses: {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'sc' },
        provisioner: 'kube-rx.io/hostpath',
      },
      csidrivers: {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'csi.example.com' },
        spec: {},
      },
      volumeattachments: {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'VolumeAttachment',
        metadata: { name: 'va' },
        spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } },
      },
      ingressclasses: {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IngressClass',
        metadata: { name: 'nginx' },
        spec: { controller: 'k8s.io/ingress-nginx' },
      },
      networkpolicies: {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'np' },
        spec: { podSelector: { matchLabels: { app: 'web' } } },
      },
      horizontalpodautoscalers: {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'hpa' },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 },
      },
      certificatesigningrequests: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'csr' },
        spec: { request: 'LS0tLS1CRUdJTg==', signerName: 'kubernetes.io/kube-apiserver-client' },
      },
      runtimeclasses: {
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: 'gvisor' },
        handler: 'runsc',
      },
    };
    await ok(['create', '-f', '-'], JSON.stringify(manifests[resource]));
    const out = await ok(['get', resource]);
    expect(header(out)).toEqual(columns);
    expect(out.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(2);
  });
  it('approves and denies certificate signing requests through the approval subresource', async () => {
    const csr = (name: string) =>
      JSON.stringify({
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name },
        spec: {
          request: 'LS0tLS1CRUdJTg==',
          signerName: 'kubernetes.io/kube-apiserver-client',
          usages: ['client auth'],
        },
      });
    await ok(['create', '-f', '-'], csr('yes'));
    await ok(['create', '-f', '-'], csr('no'));
    expect(await ok(['certificate', 'approve', 'yes'])).toBe(
      'certificatesigningrequest.certificates.k8s.io/yes approved\n',
    );
    expect(await ok(['certificate', 'deny', 'no'])).toBe(
      'certificatesigningrequest.certificates.k8s.io/no denied\n',
    );
    const out = await ok(['get', 'csr', 'yes', 'no']);
    expect(out).toMatch(/^yes\s+\S+\s+kubernetes.io\/kube-apiserver-client\s+\S*\s+<none>\s+Approved\s*$/m);
    expect(out).toMatch(/^no\s+.*\s+Denied\s*$/m);
    const yes = JSON.parse(await ok(['get', 'csr', 'yes', '-o', 'json']));
    expect(yes.status.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True', reason: 'KubectlApprove' }),
    ]);
  });
  it('drains a node through evictions, refused while a budget allows no disruption', async () => {
    await ok(['create', 'namespace', 'drain']);
    await ok(
      ['create', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }),
    );
    const podOn = (name: string, app: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'drain', labels: { app } },
        spec: {
          nodeName: 'n1',
          terminationGracePeriodSeconds: 0,
          containers: [{ name: 'c', image: 'nginx:1.27' }],
        },
      });
    await ok(['create', '-f', '-'], podOn('guarded', 'db'));
    await ok(['create', '-f', '-'], podOn('free', 'web'));
    await ok(['create', 'pdb', 'db', '-n', 'drain', '--selector=app=db', '--min-available=1']);
    // Ready too: an unready pod may be evicted past a healthy budget, as upstream's eviction allows
    const running = JSON.stringify({
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    for (const pod of ['guarded', 'free'])
      await ok(['patch', 'pod', pod, '-n', 'drain', '--subresource=status', '--type=merge', '-p', running]);
    await ok([
      'patch',
      'pdb',
      'db',
      '-n',
      'drain',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({
        status: {
          observedGeneration: 1,
          disruptionsAllowed: 0,
          currentHealthy: 1,
          desiredHealthy: 1,
          expectedPods: 1,
        },
      }),
    ]);
    const refused = await kubectl(['drain', 'n1', '--force', '--timeout=2s', '--pod-selector=app=db']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    const drained = await kubectl(['drain', 'n1', '--force', '--timeout=10s', '--pod-selector=app=web']);
    expect(drained.stdout).toContain('pod/free evicted');
    expect(await ok(['get', 'pods', '-n', 'drain', '-o', 'name'])).toBe('pod/guarded\n');
  });
  it('scales a replication controller through its scale subresource', async () => {
    await ok(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'legacy' },
        spec: {
          replicas: 1,
          template: {
            metadata: { labels: { app: 'legacy' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      }),
    );
    expect(await ok(['scale', 'rc', 'legacy', '--replicas=3'])).toBe('replicationcontroller/legacy scaled\n');
    const scale = JSON.parse(
      await ok(['get', '--raw', '/api/v1/namespaces/default/replicationcontrollers/legacy/scale']),
    );
    expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 3 }, status: { selector: 'app=legacy' } });
  });
  it('shows a core event through events.k8s.io/v1 with its fields renamed', async () => {
    await ok(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1' },
        involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
        reason: 'Pulled',
        message: 'Container image already present',
        type: 'Normal',
      }),
    );
    const out = await ok(['get', 'events.events.k8s.io', 'web.1']);
    expect(header(out)).toEqual(['NAME', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE', 'AGE']);
    expect(out).toMatch(/^web\.1\s+Normal\s+Pulled\s+pod\/web\s+Container image already present\s+/m);
    const v1 = JSON.parse(await ok(['get', 'events.v1.events.k8s.io', 'web.1', '-o', 'json']));
    expect(v1).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      note: 'Container image already present',
      regarding: { name: 'web' },
    });
  });
});
