// End to end: a pod's own process (Node 22) uses in-cluster config — KUBERNETES_SERVICE_HOST/PORT, the projected token and kube-root-ca.crt — to list pods.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Pod as ConfigPod } from '../../../../operators/pod-config/types.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { rootCACertPublisher } from '../../../../src/controllers/root-ca-cert-publisher/root-ca-cert-publisher.ts';
import { type Kubelet, startKubelet } from '../../../../src/kubelet/kubelet.ts';
import { kubeletPodConfig } from '../../../../src/kubelet/kubelet-pod-config.ts';
import { listerWatcher, type ResourceDescriptor } from '../../../../streams/api-client.ts';
import { NODES, PODS } from '../../../../streams/resources.ts';
import { detectPodNamespaces } from '../../../../streams/runtimes/process/pod-namespaces.ts';
import { processRuntime } from '../../../../streams/runtimes/process/process-runtime.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitForPod } from '../kubelet-fixture.ts';

const NODE = 'node-token';
const NODE22 = resolve('node_modules/node/bin/node');
const ROLE_BINDINGS: ResourceDescriptor = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'rolebindings',
  kind: 'RoleBinding',
  namespaced: true,
};
const cluster = useEmbeddedCluster({ port: 0 });
let kubelet: Kubelet;
let rootDir: string;
let stopPublisher: () => void;

// what an in-cluster client does: service env, token, CA and namespace from the standard place
const SCRIPT = `
const fs = require('node:fs'), https = require('node:https');
const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
const token = fs.readFileSync(dir + '/token', 'utf8');
const ca = fs.readFileSync(dir + '/ca.crt');
const ns = fs.readFileSync(dir + '/namespace', 'utf8');
const req = https.get({
  host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT,
  path: '/api/v1/namespaces/' + ns + '/pods', ca, headers: { authorization: 'Bearer ' + token },
}, (res) => {
  let body = '';
  res.on('data', (d) => { body += d; });
  res.on('end', () => {
    if (res.statusCode !== 200) { console.log('status ' + res.statusCode + ' ' + body); process.exit(1); }
    console.log('pods: ' + JSON.parse(body).items.map((p) => p.metadata.name).join(','));
    process.exit(0);
  });
});
req.setTimeout(10000, () => { console.log('timeout'); process.exit(3); });
req.on('error', (e) => { console.log('error ' + e.message); process.exit(2); });
`;

beforeAll(async () => {
  const sub = rootCACertPublisher({ client: cluster.api, rootCA: cluster.server.caPem }).subscribe();
  stopPublisher = () => sub.unsubscribe();
  await firstValueFrom(
    cluster.api.create(ROLE_BINDINGS, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'default-view', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'default' }],
    } as KubeObject),
  );
  await firstValueFrom(
    cluster.api.create(NODES, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: NODE },
      status: {
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      },
    }),
  );
  rootDir = await mkdtemp(join(tmpdir(), 'kube-rx-token-'));
  const podConfig = kubeletPodConfig({
    nodeName: NODE,
    apiserver: { listerWatcher: listerWatcher<ConfigPod>(cluster.api, PODS) },
  });
  // namespaces where the host allows them (root with bwrap/unshare), so the volume is at its mountPath
  const runtime = processRuntime({ closeGraceSeconds: 1, hostIP: '127.0.0.1' });
  kubelet = startKubelet({
    nodeName: NODE,
    client: cluster.api,
    runtime,
    podConfig,
    rootDir,
    nodeIP: '127.0.0.1',
  });
});
afterAll(async () => {
  await kubelet?.stop();
  stopPublisher?.();
  if (rootDir) await rm(rootDir, { recursive: true, force: true });
});

// plain host processes see volumes at their host paths, not at /var/run/secrets/...
const namespaced = detectPodNamespaces().kind !== 'none';

describe('a pod using in-cluster config', () => {
  it.skipIf(!namespaced)(
    'lists pods with its mounted service-account token',
    async () => {
      const pod: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'in-cluster', namespace: 'default' },
        spec: {
          nodeName: NODE,
          restartPolicy: 'Never',
          containers: [{ name: 'main', image: 'node:22', command: [NODE22, '-e', SCRIPT] }],
        },
      };
      const created = await firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
      // the ServiceAccount admission plugin added the projected volume the kubelet fills
      const volume = created.spec.volumes?.find((v) => v.name.startsWith('kube-api-access-'));
      expect(volume?.projected).toBeDefined();
      const done = await waitForPod(
        cluster.api,
        'in-cluster',
        (p) => p?.status?.phase === 'Succeeded' || p?.status?.phase === 'Failed',
        'the pod to finish',
        30_000,
      );
      const logDir = join(rootDir, 'logs', 'pods', `default_in-cluster_${created.metadata.uid}`, 'main');
      const log = await readFile(join(logDir, (await readdir(logDir))[0] ?? '0.log'), 'utf8');
      expect(log).toContain('pods: in-cluster');
      expect(done?.status?.phase).toBe('Succeeded');

      // the token file is the atomic writer's link into ..data, and the token is bound to this pod
      const dir = join(
        rootDir,
        'pods',
        created.metadata.uid ?? '',
        'volumes',
        'kubernetes.io~projected',
        volume?.name ?? '',
      );
      const token = await readFile(join(dir, 'token'), 'utf8');
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
      expect(claims.sub).toBe('system:serviceaccount:default:default');
      expect(claims['kubernetes.io']?.pod).toMatchObject({ name: 'in-cluster', uid: created.metadata.uid });
      expect(await readFile(join(dir, 'ca.crt'), 'utf8')).toBe(cluster.server.caPem);
    },
    45_000,
  );
});
