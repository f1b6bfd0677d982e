// The namespace and serviceaccount controllers end to end: the embedded API server (as kube-apiserver: deletion left to the controller), the controller manager, kube-rx scheduler, simulated kubelets and kubectl.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noopWorkQueueMetrics } from '../../../../operators/work-queue-metrics.ts';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import {
  CONTROLLER_FEATURE_GATES,
  controllerDescriptors,
  DEFAULT_TERMINATED_POD_GC_THRESHOLD,
} from '../../../../src/controller-manager/controller-descriptors.ts';
import { controllerManager } from '../../../../src/controller-manager/controller-manager.ts';
import { namespaceController } from '../../../../src/controllers/namespace/namespace-controller.ts';
import { defaultKubeletConfiguration } from '../../../../src/kubelet/kubelet-configuration.ts';
import { type RunningKubelets, runKubelets } from '../../../../src/kubelet/run-kubelets.ts';
import { type KubeApiClient, kubeApiClient } from '../../../../streams/client-node/kube-api-client.ts';
import {
  KUBECTL,
  kubectl,
  type SchedulerProcess,
  startSchedulerProcess,
} from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

const TEAM = `apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team}
data: {a: b}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: c, image: busybox, command: [sleep, "3600"]}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: workers, namespace: team}
spec:
  replicas: 2
  selector: {matchLabels: {app: workers}}
  template:
    metadata: {labels: {app: workers}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: c, image: busybox, command: [sleep, "3600"]}]
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: gadget, namespace: team}
spec: {size: 3}
`;

describe.skipIf(!KUBECTL)('namespace and serviceaccount controllers end to end', { timeout: 120_000 }, () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  let scheduler: SchedulerProcess;
  let client: KubeApiClient;
  let kubelets: RunningKubelets;
  let manager: Subscription;

  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(kubeconfig, args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };
  const get = async (args: string[]) => (await kubectl(kubeconfig, ['get', ...args])).stdout.trim();

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-ns-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    client = kubeApiClient({
      kubeConfig: { from: 'string', yaml: server.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
    });
    kubelets = await runKubelets({
      client,
      nodeName: 'sim',
      config: defaultKubeletConfiguration(),
      runtime: 'simulated',
      simulatedNodes: 2,
      rootDir: join(dir, 'kubelet'),
    });
    scheduler = await startSchedulerProcess([
      '--kubeconfig',
      kubeconfig,
      '--leader-elect=false',
      '--secure-port',
      '0',
    ]);
    // upstream's controllers, the namespace controller with a shorter wait before each pass (upstream: 5 s)
    const descriptors = controllerDescriptors([
      {
        name: 'namespace-controller',
        aliases: [],
        init: (ctx) =>
          namespaceController({
            client: ctx.client,
            informerFactory: ctx.informerFactory,
            deletionGracePeriodMs: 200,
            scheduler: ctx.scheduler,
            logger: ctx.logger,
          }),
      },
    ]);
    manager = controllerManager({
      client,
      descriptors,
      controllers: [
        'namespace-controller',
        'serviceaccount-controller',
        'replicaset-controller',
        'deployment-controller',
      ],
      options: {
        concurrency: {},
        terminatedPodGCThreshold: DEFAULT_TERMINATED_POD_GC_THRESHOLD,
        featureGates: CONTROLLER_FEATURE_GATES,
      },
      workQueueMetrics: noopWorkQueueMetrics,
    }).subscribe();
    await ok(['apply', '-f', '-'], CRD);
    await ok(['wait', '--for=condition=established', 'crd/widgets.example.com', '--timeout=30s']);
  });

  afterAll(async () => {
    manager?.unsubscribe();
    await kubelets?.stop();
    expect(await scheduler?.stop()).toBe(0);
    client?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a new namespace gets a default ServiceAccount, and a deleted one comes back', async () => {
    await ok(['create', 'namespace', 'accounts']);
    await waitFor(async () =>
      expect(await get(['serviceaccount', 'default', '-n', 'accounts', '-o', 'name'])).toBe(
        'serviceaccount/default',
      ),
    );
    const uid = await get(['serviceaccount', 'default', '-n', 'accounts', '-o', 'jsonpath={.metadata.uid}']);
    await ok(['delete', 'serviceaccount', 'default', '-n', 'accounts']);
    await waitFor(async () => {
      const again = await get([
        'serviceaccount',
        'default',
        '-n',
        'accounts',
        '-o',
        'jsonpath={.metadata.uid}',
      ]);
      expect(again).not.toBe('');
      expect(again).not.toBe(uid);
    });
  });

  it('`kubectl delete namespace team` takes pods, configmaps, deployments, replica sets and custom resources with it', async () => {
    await ok(['apply', '-f', '-'], TEAM);
    // the pods of both the replica set and the deployment are scheduled and running
    await waitFor(async () => {
      const phases = (await get(['pods', '-n', 'team', '-o', 'jsonpath={.items[*].status.phase}'])).split(
        ' ',
      );
      expect(phases).toEqual(['Running', 'Running', 'Running', 'Running']);
    }, 60_000);
    const d = await kubectl(kubeconfig, ['delete', 'namespace', 'team', '--wait=false']);
    expect(d.stdout).toContain('namespace "team" deleted');
    expect(await get(['namespace', 'team', '-o', 'jsonpath={.status.phase}'])).toBe('Terminating');
    const refused = await kubectl(kubeconfig, ['create', 'configmap', 'late', '-n', 'team']);
    expect(refused.stderr).toContain('because it is being terminated');
    const waited = await kubectl(kubeconfig, ['wait', '--for=delete', 'namespace/team', '--timeout=60s']);
    expect(waited.code, waited.stderr).toBe(0);
    for (const kind of ['pods', 'configmaps', 'deployments', 'replicasets', 'widgets']) {
      expect(await get([kind, '-n', 'team', '-o', 'name']), kind).toBe('');
    }
    expect(await get(['pods', '-A', '-o', 'jsonpath={.items[*].metadata.namespace}'])).not.toContain('team');
  });

  it('a finalizer on one object keeps the namespace, with NamespaceFinalizersRemaining, until it is removed', async () => {
    await ok(['create', 'namespace', 'held']);
    await ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep, namespace: held, finalizers: [example.com/hold]}\n',
    );
    await ok(['create', 'configmap', 'free', '-n', 'held']);
    await kubectl(kubeconfig, ['delete', 'namespace', 'held', '--wait=false']);
    const condition = `jsonpath={.status.conditions[?(@.type=="NamespaceFinalizersRemaining")]}`;
    const held = await waitFor(async () => {
      const c = JSON.parse((await get(['namespace', 'held', '-o', condition])) || '{}');
      expect(c.status).toBe('True');
      return c;
    }, 30_000);
    expect(held).toMatchObject({
      reason: 'SomeFinalizersRemain',
      message:
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect(await get(['configmaps', '-n', 'held', '-o', 'name'])).toBe('configmap/keep');
    expect(await get(['namespace', 'held', '-o', 'jsonpath={.spec.finalizers}'])).toBe('["kubernetes"]');
    await ok([
      'patch',
      'configmap',
      'keep',
      '-n',
      'held',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    ]);
    const waited = await kubectl(kubeconfig, ['wait', '--for=delete', 'namespace/held', '--timeout=60s']);
    expect(waited.code, waited.stderr).toBe(0);
  });
});
