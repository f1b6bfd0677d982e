// metricsApi over a Registry with a fake kubelet scrape: discovery documents, list and get of NodeMetrics and PodMetrics, quantities, and the NotFound words kubectl shows.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../../../../src/apiserver/api-status.ts';
import { metricsApi } from '../../../../src/apiserver/metrics-api/metrics-api.ts';
import { ObjectStore } from '../../../../src/apiserver/object-store.ts';
import { Registry } from '../../../../src/apiserver/registry.ts';
import { findResource, RESOURCES } from '../../../../src/apiserver/resource-table.ts';

const T0 = Date.UTC(2026, 0, 1);

/** A cluster of one node `n1` (kubelet at 10.0.0.1:10250) running pod default/web, and a scripted kubelet. */
function setup() {
  const registry = new Registry(new ObjectStore(), RESOURCES);
  registry.bootstrap();
  const def = (r: string) => findResource(registry.table, '', 'v1', r)!;
  registry.create(def('nodes'), undefined, {
    metadata: { name: 'n1', labels: { zone: 'a' } },
    status: {
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    },
  });
  const pod = registry.create(def('pods'), 'default', {
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'x' }] },
  });
  registry.update(def('pods'), 'default', 'web', { ...pod, status: { phase: 'Running' } }, 'status');
  let clock = T0;
  let scrapes = 0;
  const scheduler = new VirtualTimeScheduler();
  const fetched: string[] = [];
  const api = metricsApi({
    registry,
    now: () => clock,
    scheduler,
    fetch: async (host, port) => {
      fetched.push(`${host}:${port}`);
      scrapes += 1;
      const at = clock;
      // node: 0.5 core busy; container: 0.25 core, 12 MiB
      return [
        `node_cpu_usage_seconds_total ${(scrapes * 0.5).toFixed(3)} ${at}`,
        `node_memory_working_set_bytes ${3 * 1024 ** 3} ${at}`,
        `container_cpu_usage_seconds_total{container="app",namespace="default",pod="web"} ${(scrapes * 0.25).toFixed(3)} ${at}`,
        `container_memory_working_set_bytes{container="app",namespace="default",pod="web"} ${12 * 1024 * 1024} ${at}`,
        `container_start_time_seconds{container="app",namespace="default",pod="web"} ${(T0 - 3_600_000) / 1000} ${at}`,
      ].join('\n');
    },
  });
  /** Runs one GET; the first-window wait (1 s) passes in virtual time, the clock moving with it. */
  const get = async (path: string, query = '', accept?: string): Promise<unknown> => {
    let body = '';
    const res = {
      writeHead: () => res,
      end: (text: string) => {
        body = text;
      },
    } as unknown as ServerResponse;
    const req = { method: 'GET', headers: accept ? { accept } : {} } as IncomingMessage;
    const served = api.serve(req, res, path.split('/').filter(Boolean), new URLSearchParams(query)).then(
      () => undefined,
      (error: unknown) => error,
    );
    for (let i = 0; i < 20 && body === ''; i++) {
      await new Promise((r) => setImmediate(r));
      if (scheduler.actions.length > 0) {
        clock += 1000;
        scheduler.flush();
      }
    }
    const failure = await served;
    if (failure) throw failure;
    return JSON.parse(body);
  };
  return { registry, api, get, fetched, tick: (ms: number) => (clock += ms) };
}

describe('metricsApi', () => {
  it('serves its group and resource list as metrics-server registers them', async () => {
    const { get } = setup();
    expect(await get('')).toMatchObject({
      kind: 'APIGroup',
      name: 'metrics.k8s.io',
      preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' },
    });
    expect(await get('v1beta1')).toMatchObject({
      kind: 'APIResourceList',
      groupVersion: 'metrics.k8s.io/v1beta1',
      resources: [
        { name: 'nodes', kind: 'NodeMetrics', namespaced: false, verbs: ['get', 'list'] },
        { name: 'pods', kind: 'PodMetrics', namespaced: true, verbs: ['get', 'list'] },
      ],
    });
  });

  it('the first request scrapes twice, a window apart, and answers with rates', async () => {
    const { get, fetched } = setup();
    const list = (await get('v1beta1/nodes')) as { kind: string; items: unknown[] };
    expect(fetched).toEqual(['10.0.0.1:10250', '10.0.0.1:10250']);
    expect(list.kind).toBe('NodeMetricsList');
    expect(list.items).toEqual([
      {
        kind: 'NodeMetrics',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: { name: 'n1', creationTimestamp: '2026-01-01T00:00:01Z', labels: { zone: 'a' } },
        timestamp: '2026-01-01T00:00:01Z',
        window: '1s',
        usage: { cpu: '500m', memory: '3Gi' },
      },
    ]);
  });

  it('lists and gets PodMetrics per namespace with each container', async () => {
    const { get } = setup();
    const pods = (await get('v1beta1/namespaces/default/pods')) as { items: unknown[] };
    const web = {
      kind: 'PodMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {
        name: 'web',
        namespace: 'default',
        creationTimestamp: '2026-01-01T00:00:01Z',
        labels: { app: 'web' },
      },
      timestamp: '2026-01-01T00:00:01Z',
      window: '1s',
      containers: [{ name: 'app', usage: { cpu: '250m', memory: '12Mi' } }],
    };
    expect(pods.items).toEqual([web]);
    expect(await get('v1beta1/namespaces/default/pods/web')).toEqual(web);
    expect(((await get('v1beta1/pods')) as { items: unknown[] }).items).toHaveLength(1);
    expect(((await get('v1beta1/namespaces/other/pods')) as { items: unknown[] }).items).toEqual([]);
    expect(
      ((await get('v1beta1/namespaces/default/pods', 'labelSelector=app%3Dnone')) as { items: unknown[] })
        .items,
    ).toEqual([]);
  });

  it('requests within a second share one scrape; later ones scrape again', async () => {
    const { get, fetched, tick } = setup();
    await get('v1beta1/nodes');
    await get('v1beta1/nodes');
    expect(fetched).toHaveLength(2);
    tick(5000);
    await get('v1beta1/nodes');
    expect(fetched).toHaveLength(3);
  });

  it.each([
    ['v1beta1/nodes/nope', 404, 'nodes "nope" not found'],
    ['v1beta1/namespaces/default/pods/nope', 404, 'pods "nope" not found'],
    ['v1beta1/namespaces/default/services', 404, 'the server could not find the requested resource'],
    ['v2/nodes', 404, 'the server could not find the requested resource'],
  ])('GET %s is %i: %s', async (path, code, message) => {
    const { get } = setup();
    const error = await get(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(error).toMatchObject({ statusCode: code, message });
  });

  it('a pod that is not Running, or a node not yet scraped twice, has no metrics: NotFound in metrics-server words', async () => {
    const { registry, api, get } = setup();
    const pods = findResource(registry.table, '', 'v1', 'pods')!;
    registry.create(pods, 'default', {
      metadata: { name: 'waiting', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    });
    const error = await get('v1beta1/namespaces/default/pods/waiting').catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 404,
      message: 'podmetrics.metrics.k8s.io "default/waiting" not found',
    });
    const nodes = findResource(registry.table, '', 'v1', 'nodes')!;
    registry.create(nodes, undefined, { metadata: { name: 'n2' } }); // no address: cannot be scraped
    const missing = await get('v1beta1/nodes/n2').catch((e: unknown) => e);
    expect(missing).toMatchObject({ statusCode: 404, message: 'nodemetrics.metrics.k8s.io "n2" not found' });
    const req = { method: 'DELETE', headers: {} } as IncomingMessage;
    await expect(
      api.serve(req, {} as ServerResponse, ['v1beta1', 'nodes'], new URLSearchParams()),
    ).rejects.toMatchObject({
      statusCode: 405,
    });
  });

  it('answers the Table form kubectl get asks for: Name, cpu, memory, Window, a pod summed over its containers', async () => {
    const { get } = setup();
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    const table = (await get('v1beta1/namespaces/default/pods', '', accept)) as {
      kind: string;
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[]; object: { kind: string } }[];
    };
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'cpu', 'memory', 'Window']);
    expect(table.rows.map((r) => r.cells)).toEqual([['web', '250m', '12Mi', '1s']]);
    expect(table.rows[0]!.object.kind).toBe('PodMetrics');
    const node = (await get('v1beta1/nodes/n1', '', accept)) as { rows: { cells: unknown[] }[] };
    expect(node.rows.map((r) => r.cells)).toEqual([['n1', '500m', '3Gi', '1s']]);
  });
});
