// The replicaset and replicationcontroller controllers end to end over HTTP against the embedded API server, driven by kubectl: apply, scale, delete a pod.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { ObjectList } from '../../../../operators/types.ts';
import { replicaSetController } from '../../../../src/controllers/replicaset/replica-set-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { PODS } from '../../../../streams/resources.ts';
import { type EmbeddedCluster, embeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { KUBECTL, kubectlRunner } from '../../../helpers/kubectl.ts';

const replicaSet = (name: string, replicas: number) => `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: web, image: nginx}]
`;

describe.skipIf(!KUBECTL)('replicaset controller end to end', { timeout: 60_000 }, () => {
  let cluster: EmbeddedCluster;
  let dir: string;
  let kubeconfig: string;
  let controllers: Subscription;
  let factory: ReturnType<typeof informerFactory>;
  const { ok } = kubectlRunner(() => kubeconfig);

  const podsOf = async (app: string): Promise<Pod[]> => {
    const list = (await firstValueFrom(
      cluster.api.list<Pod>(PODS, { namespace: 'default', labelSelector: `app=${app}` }),
    )) as ObjectList<Pod>;
    return list.items.filter((p) => !p.metadata.deletionTimestamp);
  };
  let current: Pod[] = [];
  const settle = async (app: string, n: number) => {
    for (let i = 0; i < 200; i++) {
      current = await podsOf(app);
      if (current.length === n) return current;
      await new Promise((r) => setTimeout(r, 50));
    }
    return current;
  };

  beforeAll(async () => {
    cluster = await embeddedCluster();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-rs-'));
    kubeconfig = join(dir, 'kubeconfig');
    await cluster.server.writeKubeconfig(kubeconfig);
    factory = informerFactory({ client: cluster.api });
    controllers = replicaSetController({ client: cluster.api, informerFactory: factory }).subscribe();
    controllers.add(
      replicaSetController({
        client: cluster.api,
        informerFactory: factory,
        kind: 'ReplicationController',
      }).subscribe(),
    );
    factory.start();
  });

  afterAll(async () => {
    controllers?.unsubscribe();
    factory?.shutdown();
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('applies a ReplicaSet of 3, scales it to 1, and replaces a deleted pod', async () => {
    await ok(['apply', '-f', '-'], replicaSet('web', 3));
    const three = await settle('web', 3);
    expect(three).toHaveLength(3);
    for (const pod of three) {
      expect(pod.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(pod.metadata.ownerReferences).toEqual([
        expect.objectContaining({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', controller: true }),
      ]);
    }
    let status = '';
    for (let i = 0; i < 200 && status !== '3'; i++) {
      status = await ok(['get', 'rs', 'web', '-o', 'jsonpath={.status.replicas}']);
    }
    expect(status).toBe('3');

    await ok(['scale', 'rs', 'web', '--replicas=1']);
    const one = await settle('web', 1);
    expect(one).toHaveLength(1);

    const victim = one[0]!.metadata.name!;
    await ok(['delete', 'pod', victim, '--wait=false']);
    let replaced: Pod[] = [];
    for (let i = 0; i < 200; i++) {
      replaced = await podsOf('web');
      if (replaced.length === 1 && replaced[0]!.metadata.name !== victim) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(replaced.map((p) => p.metadata.name)).not.toContain(victim);
    expect(replaced).toHaveLength(1);
    const events = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=web',
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    expect(events).toContain('SuccessfulCreate');
    expect(events).toContain('SuccessfulDelete');
  });

  it('adopts a matching orphan pod instead of creating one', async () => {
    await ok(
      ['create', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: orphan, namespace: default, labels: {app: adopt}}
spec: {containers: [{name: web, image: nginx}]}
`,
    );
    await ok(['apply', '-f', '-'], replicaSet('adopt', 2));
    const pods = await settle('adopt', 2);
    expect(pods.map((p) => p.metadata.name)).toContain('orphan');
    let owner = '';
    for (let i = 0; i < 200 && owner !== 'adopt'; i++) {
      owner = await ok(['get', 'pod', 'orphan', '-o', 'jsonpath={.metadata.ownerReferences[0].name}']);
    }
    expect(owner).toBe('adopt');
  });

  it('runs a ReplicationController the same way', async () => {
    await ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: ReplicationController
metadata: {name: legacy, namespace: default}
spec:
  replicas: 2
  selector: {app: legacy}
  template:
    metadata: {labels: {app: legacy}}
    spec: {containers: [{name: web, image: nginx}]}
`,
    );
    const pods = await settle('legacy', 2);
    expect(pods).toHaveLength(2);
    expect(pods[0]!.metadata.ownerReferences?.[0]).toMatchObject({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: 'legacy',
    });
    await ok(['scale', 'rc', 'legacy', '--replicas=0']);
    expect(await settle('legacy', 0)).toHaveLength(0);
  });
});
