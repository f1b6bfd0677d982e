// The namespace and serviceaccount controllers end to end: the embedded API server (as kube-apiserver: deletion left to the controller), the controller manager, kube-rx scheduler, simulated kubelets and kubectl.
import { beforeAll, describe, expect, it } from 'vitest';
import { namespaceController } from '../../../../src/controllers/namespace/namespace-controller.ts';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
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
  const plane = useControlPlane({
    controllerManager: [
      ...['--leader-elect=false', '--kube-api-qps', '1000', '--kube-api-burst', '1000'],
      ...['--controllers', 'namespace,serviceaccount,replicaset,deployment'],
    ],
    // upstream's namespace controller with a shorter wait before each pass (upstream: 5 s)
    controllers: [
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
    ],
  });
  const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);
  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };
  const get = async (args: string[]) => (await kubectl(['get', ...args])).stdout.trim();

  beforeAll(async () => {
    await ok(['apply', '-f', '-'], CRD);
    await ok(['wait', '--for=condition=established', 'crd/widgets.example.com', '--timeout=30s']);
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
    const d = await kubectl(['delete', 'namespace', 'team', '--wait=false']);
    expect(d.stdout).toContain('namespace "team" deleted');
    expect(await get(['namespace', 'team', '-o', 'jsonpath={.status.phase}'])).toBe('Terminating');
    const refused = await kubectl(['create', 'configmap', 'late', '-n', 'team']);
    expect(refused.stderr).toContain('because it is being terminated');
    const waited = await kubectl(['wait', '--for=delete', 'namespace/team', '--timeout=60s']);
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
    await kubectl(['delete', 'namespace', 'held', '--wait=false']);
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
    const waited = await kubectl(['wait', '--for=delete', 'namespace/held', '--timeout=60s']);
    expect(waited.code, waited.stderr).toBe(0);
  });
});
