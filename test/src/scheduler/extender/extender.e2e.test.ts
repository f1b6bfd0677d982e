// End to end: kube-rx's scheduler against the embedded API server with real node:http extenders (filter, prioritize, bind, preempt; ignorable and non-ignorable extenders down).
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import type { KubeSchedulerConfiguration } from '../../../../src/scheduler/config/types.ts';
import { type RunningScheduler, startScheduler } from '../../../../src/scheduler/start-scheduler.ts';
import { EVENTS, NODES, PODS, PRIORITY_CLASSES } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../wait-for.ts';
import { type ExtenderServer, startExtenderServer } from './extender-server.ts';

const node = (name: string, cpu = '4'): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: {},
  status: { allocatable: { cpu, memory: '8Gi', pods: '110' } },
});
const pod = (name: string, o: { cpu?: string; priorityClassName?: string; nodeName?: string } = {}): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: {
    terminationGracePeriodSeconds: 0,
    ...(o.priorityClassName ? { priorityClassName: o.priorityClassName } : {}),
    ...(o.nodeName ? { nodeName: o.nodeName } : {}),
    containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: o.cpu ?? '100m' } } }],
  },
});
const DOWN = 'http://127.0.0.1:1/scheduler';

describe('the scheduler with HTTP extenders', { timeout: 60_000 }, () => {
  const cluster = useEmbeddedCluster();
  let extender: ExtenderServer;
  let running: RunningScheduler | undefined;

  const start = async (extenders: KubeSchedulerConfiguration['extenders']) => {
    running = await startScheduler({
      client: cluster.api,
      config: { leaderElection: { leaderElect: false }, extenders },
      signal: AbortSignal.timeout(20_000),
    });
  };
  const getPod = (name: string) =>
    firstValueFrom(cluster.api.get(PODS, name, { namespace: 'default' })) as Promise<Pod>;
  const events = async (name: string) => {
    const list = await firstValueFrom(
      cluster.api.list(EVENTS, { namespace: 'default', fieldSelector: `involvedObject.name=${name}` }),
    );
    return list.items as unknown as { reason: string; message: string; type: string }[];
  };
  const boundTo = (name: string) =>
    waitFor(async () => {
      const p = await getPod(name);
      expect(p.spec.nodeName).toBeTruthy();
      return p.spec.nodeName;
    });

  beforeAll(async () => {
    extender = await startExtenderServer();
    for (const n of ['blocked', 'plain', 'favourite'])
      await firstValueFrom(cluster.api.create(NODES, node(n)));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    extender.requests.length = 0;
    for (const k of Object.keys(extender.handlers)) delete extender.handlers[k];
  });
  afterAll(async () => {
    await extender?.close();
  });

  it('filter rejects a node, prioritize steers, and the extender binds the pod', async () => {
    extender.handlers.filter = (body) => {
      const names = body.NodeNames as string[];
      return {
        NodeNames: names.filter((n) => n !== 'blocked'),
        FailedNodes: names.includes('blocked') ? { blocked: 'blocked by the extender' } : {},
      };
    };
    extender.handlers.prioritize = (body) =>
      (body.NodeNames as string[]).map((n) => ({ Host: n, Score: n === 'favourite' ? 10 : 0 }));
    extender.handlers.bind = async (body) => {
      await firstValueFrom(
        cluster.api.bind({
          namespace: String(body.PodNamespace),
          name: String(body.PodName),
          uid: String(body.PodUID),
          nodeName: String(body.Node),
        }),
      );
      return {};
    };
    await start([
      {
        urlPrefix: extender.urlPrefix,
        filterVerb: 'filter',
        prioritizeVerb: 'prioritize',
        bindVerb: 'bind',
        weight: 5,
        nodeCacheCapable: true,
      },
    ]);
    await firstValueFrom(cluster.api.create(PODS, pod('steered')));
    expect(await boundTo('steered')).toBe('favourite');
    const verbs = extender.requests.map((r) => r.verb);
    expect(verbs).toEqual(['filter', 'prioritize', 'bind']);
    expect(extender.requests[0]!.body.NodeNames).toEqual(
      expect.arrayContaining(['blocked', 'plain', 'favourite']),
    );
    expect((extender.requests[1]!.body.NodeNames as string[]).sort()).toEqual(['favourite', 'plain']);
    expect(extender.requests[2]!.body).toMatchObject({
      PodName: 'steered',
      PodNamespace: 'default',
      Node: 'favourite',
    });
    await waitFor(async () => {
      expect((await events('steered')).map((e) => e.reason)).toContain('Scheduled');
    });
  });

  it('a filter rejecting every node gives FailedScheduling with its reasons', async () => {
    extender.handlers.filter = (body) => ({
      Nodes: { items: [] },
      FailedAndUnresolvableNodes: Object.fromEntries(
        (body.Nodes as { items: Node[] }).items.map((n) => [n.metadata.name, 'not on my watch']),
      ),
    });
    await start([{ urlPrefix: extender.urlPrefix, filterVerb: 'filter' }]);
    await firstValueFrom(cluster.api.create(PODS, pod('refused')));
    const failed = await waitFor(async () => {
      const e = (await events('refused')).find((x) => x.reason === 'FailedScheduling');
      expect(e).toBeDefined();
      return e!;
    });
    expect(failed.message).toMatch(/^0\/3 nodes are available: 3 not on my watch\./);
    expect((await getPod('refused')).spec.nodeName).toBeUndefined();
    await firstValueFrom(cluster.api.delete(PODS, 'refused', { namespace: 'default' }));
  });

  it('an ignorable extender that is down is skipped and the pod is bound', async () => {
    await start([
      { urlPrefix: DOWN, filterVerb: 'filter', prioritizeVerb: 'prioritize', weight: 1, ignorable: true },
    ]);
    await firstValueFrom(cluster.api.create(PODS, pod('despite')));
    expect(['blocked', 'plain', 'favourite']).toContain(await boundTo('despite'));
  });

  it('a non-ignorable extender that is down leaves the pod pending with FailedScheduling', async () => {
    await start([{ urlPrefix: DOWN, filterVerb: 'filter', httpTimeout: '2s' }]);
    await firstValueFrom(cluster.api.create(PODS, pod('stuck')));
    const failed = await waitFor(async () => {
      const e = (await events('stuck')).find((x) => x.reason === 'FailedScheduling');
      expect(e).toBeDefined();
      return e!;
    });
    expect(failed.type).toBe('Warning');
    expect(failed.message).toMatch(/^Post "http:\/\/127\.0\.0\.1:1\/scheduler\/filter": .*ECONNREFUSED/);
    const p = await getPod('stuck');
    expect(p.spec.nodeName).toBeUndefined();
    expect(p.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'SchedulerError',
    });
    await firstValueFrom(cluster.api.delete(PODS, 'stuck', { namespace: 'default' }));
  });

  it('a managed resource ignored by the scheduler is left to the extender (NodeResourcesFit does not count it)', async () => {
    extender.handlers.filter = (body) => ({ NodeNames: body.NodeNames });
    await start([
      {
        urlPrefix: extender.urlPrefix,
        filterVerb: 'filter',
        nodeCacheCapable: true,
        managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }],
      },
    ]);
    const gpu: Pod = {
      metadata: { name: 'wants-gpu', namespace: 'default' },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } },
          },
        ],
      },
    };
    const plain = pod('no-gpu');
    await firstValueFrom(cluster.api.create(PODS, gpu));
    await firstValueFrom(cluster.api.create(PODS, plain));
    // no node has example.com/gpu, yet the pod is bound: the extender manages it
    expect(['blocked', 'plain', 'favourite']).toContain(await boundTo('wants-gpu'));
    await boundTo('no-gpu');
    // only the pod using the managed resource was sent to the extender
    const asked = extender.requests.map((r) => (r.body.Pod as Pod).metadata.name);
    expect(asked).toContain('wants-gpu');
    expect(asked).not.toContain('no-gpu');
  });

  it('a preempting extender picks the node; its victim gets the Preempted event', async () => {
    await firstValueFrom(
      cluster.api.create(PRIORITY_CLASSES, {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'high' },
        value: 1000,
      } as never),
    );
    // Fill every node with a low-priority pod (bound directly), so the preemptor fits nowhere.
    for (const n of ['blocked', 'plain', 'favourite'])
      await firstValueFrom(cluster.api.create(PODS, pod(`filler-${n}`, { cpu: '3900m', nodeName: n })));
    extender.handlers.preempt = (body) => {
      const victims = body.NodeNameToVictims as Record<string, { Pods: Pod[] }>;
      const keep = victims.plain;
      return {
        NodeNameToMetaVictims: keep
          ? { plain: { Pods: keep.Pods.map((p) => ({ UID: p.metadata.uid })), NumPDBViolations: 0 } }
          : {},
      };
    };
    await start([{ urlPrefix: extender.urlPrefix, preemptVerb: 'preempt' }]);
    const created = (await firstValueFrom(
      cluster.api.create(PODS, pod('vip', { cpu: '3', priorityClassName: 'high' })),
    )) as Pod;
    expect(await boundTo('vip')).toBe('plain');
    const preemptRequest = extender.requests.find((r) => r.verb === 'preempt')!;
    expect(Object.keys(preemptRequest.body.NodeNameToVictims as object).sort()).toEqual([
      'blocked',
      'favourite',
      'plain',
    ]);
    const preempted = await waitFor(async () => {
      const e = (await events('filler-plain')).find((x) => x.reason === 'Preempted');
      expect(e).toBeDefined();
      return e!;
    });
    expect(preempted).toMatchObject({
      type: 'Normal',
      message: `Preempted by pod ${created.metadata.uid} on node plain`,
    });
    // the other fillers were spared
    for (const n of ['blocked', 'favourite']) expect((await getPod(`filler-${n}`)).spec.nodeName).toBe(n);
  });
});
