// Tests the HTTP ApiClient over a real loopback server: paths and bodies, errors, timeouts, aborts and watches.
import { firstValueFrom, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, InvalidInputError, KubeRxError, TimeoutError } from '../../../operators/errors.ts';
import { listerWatcher } from '../../../streams/api-client.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { LEASES, leaseClient } from '../../../streams/lease-client.ts';
import { DEPLOYMENTS, NODES, PODS } from '../../../streams/resources.ts';
import {
  type Handler,
  httpKubeconfig,
  json,
  type LoopbackServer,
  loopbackServer,
  sleep,
  until,
} from './loopback-server.ts';

let server: LoopbackServer | undefined;
let closeClient: (() => void) | undefined;
afterEach(async () => {
  closeClient?.();
  await server?.close();
  server = undefined;
});

async function setup(handler: Handler, config: Parameters<typeof kubeApiClient>[0] = {}) {
  server = await loopbackServer(handler);
  const client = kubeApiClient({
    kubeConfig: { from: 'string', yaml: httpKubeconfig(server.url) },
    ...config,
  });
  closeClient = () => client.close();
  return { client, server };
}

const echo: Handler = (req, res, body) =>
  json(
    res,
    req.method === 'POST' ? 201 : 200,
    body
      ? { ...JSON.parse(body), echoed: true }
      : { kind: 'PodList', metadata: { resourceVersion: '5' }, items: [] },
  );

describe('kubeApiClient: requests', () => {
  it.each([
    [
      'list core namespaced',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.list(PODS, { namespace: 'ns', limit: 500, labelSelector: 'app=web' }),
      'GET',
      '/api/v1/namespaces/ns/pods?limit=500&labelSelector=app%3Dweb',
    ],
    [
      'list group across namespaces',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.list(DEPLOYMENTS, { resourceVersion: '0', fieldSelector: 'metadata.name=x' }),
      'GET',
      '/apis/apps/v1/deployments?resourceVersion=0&fieldSelector=metadata.name%3Dx',
    ],
    [
      'list cluster-scoped ignores namespace',
      (c: ReturnType<typeof kubeApiClient>) => c.list(NODES, { namespace: 'ns', continue: 'tok' }),
      'GET',
      '/api/v1/nodes?continue=tok',
    ],
    [
      'get',
      (c: ReturnType<typeof kubeApiClient>) => c.get(PODS, 'p', { namespace: 'ns' }),
      'GET',
      '/api/v1/namespaces/ns/pods/p',
    ],
    [
      'create takes the object namespace',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.create(PODS, { metadata: { name: 'p', namespace: 'ns' } }, { fieldManager: 'me', dryRun: true }),
      'POST',
      '/api/v1/namespaces/ns/pods?dryRun=All&fieldManager=me',
    ],
    [
      'update',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.update(DEPLOYMENTS, { metadata: { name: 'd', namespace: 'ns', resourceVersion: '3' } }),
      'PUT',
      '/apis/apps/v1/namespaces/ns/deployments/d',
    ],
    [
      'updateStatus',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.updateStatus(PODS, { metadata: { name: 'p', namespace: 'ns' } }),
      'PUT',
      '/api/v1/namespaces/ns/pods/p/status',
    ],
    [
      'patch a subresource',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.patch(DEPLOYMENTS, 'd', { spec: { replicas: 2 } }, 'merge', {
          namespace: 'ns',
          subresource: 'scale',
        }),
      'PATCH',
      '/apis/apps/v1/namespaces/ns/deployments/d/scale',
    ],
    [
      'delete',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.delete(PODS, 'p', { namespace: 'ns', gracePeriodSeconds: 0, propagationPolicy: 'Background' }),
      'DELETE',
      '/api/v1/namespaces/ns/pods/p',
    ],
    [
      'bind',
      (c: ReturnType<typeof kubeApiClient>) =>
        c.bind({ namespace: 'ns', name: 'p', nodeName: 'n1', uid: 'u' }),
      'POST',
      '/api/v1/namespaces/ns/pods/p/binding',
    ],
    [
      'a lease read',
      (c: ReturnType<typeof kubeApiClient>) => leaseClient(c).get('kube-system', 'lock'),
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/lock',
    ],
  ] as const)('%s', async (_name, call, method, url) => {
    const { client, server } = await setup(echo);
    await firstValueFrom(call(client) as Observable<unknown>);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method, url });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-token');
  });

  it('sends the bodies the API server expects', async () => {
    const { client, server } = await setup(echo);
    await firstValueFrom(
      client.delete(PODS, 'p', { namespace: 'ns', gracePeriodSeconds: 0, propagationPolicy: 'Foreground' }),
    );
    await firstValueFrom(client.bind({ namespace: 'ns', name: 'p', nodeName: 'n1', uid: 'u' }));
    await firstValueFrom(
      client.patch(PODS, 'p', [{ op: 'remove', path: '/x' }], 'json', { namespace: 'ns' }),
    );
    await firstValueFrom(client.patch(PODS, 'p', { a: 1 }, 'strategic', { namespace: 'ns' }));
    const [del, bind, jsonPatch, strategic] = server.requests;
    expect(JSON.parse(del!.body)).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      propagationPolicy: 'Foreground',
    });
    expect(JSON.parse(bind!.body)).toEqual({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'p', namespace: 'ns', uid: 'u' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
    });
    expect(jsonPatch!.headers['content-type']).toBe('application/json-patch+json');
    expect(strategic!.headers['content-type']).toBe('application/strategic-merge-patch+json');
  });

  it('names the missing field of bad input, without a request', async () => {
    const { client, server } = await setup(echo);
    await expect(firstValueFrom(client.create(PODS, { metadata: { name: 'p' } }))).rejects.toThrow(
      /metadata.namespace/,
    );
    await expect(firstValueFrom(client.update(PODS, { metadata: { namespace: 'ns' } }))).rejects.toThrow(
      InvalidInputError,
    );
    expect(server.requests).toHaveLength(0);
  });

  // client-go's metadata client (metadata.go) sends these, protobuf aside; plain JSON stays acceptable
  // so that a server without the metadata form still answers
  const META_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
  const META_ONE = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
  it.each([
    ['list', (c: ReturnType<typeof kubeApiClient>) => c.list(PODS, { metadataOnly: true }), META_LIST],
    [
      'get',
      (c: ReturnType<typeof kubeApiClient>) => c.get(PODS, 'p', { namespace: 'ns', metadataOnly: true }),
      META_ONE,
    ],
    [
      'watch',
      (c: ReturnType<typeof kubeApiClient>) => c.watch(PODS, { metadataOnly: true }).pipe(toArray()),
      META_ONE,
    ],
    [
      'a scoped ListerWatcher list',
      (c: ReturnType<typeof kubeApiClient>) =>
        listerWatcher(c, PODS, { namespace: 'ns', metadataOnly: true }).list({ limit: 5 }),
      META_LIST,
    ],
    [
      'a scoped ListerWatcher watch',
      (c: ReturnType<typeof kubeApiClient>) =>
        listerWatcher(c, PODS, { metadataOnly: true }).watch({}).pipe(toArray()),
      META_ONE,
    ],
    ['a plain list', (c: ReturnType<typeof kubeApiClient>) => c.list(PODS, {}), 'application/json'],
    [
      'a plain watch',
      (c: ReturnType<typeof kubeApiClient>) => c.watch(PODS, { metadataOnly: false }).pipe(toArray()),
      'application/json',
    ],
  ] as const)('metadataOnly: %s sends Accept %s', async (_name, call, accept) => {
    const { client, server } = await setup((req, res) =>
      req.url?.includes('watch=true') ? res.end() : echo(req, res, ''),
    );
    await lastValueFrom(call(client) as Observable<unknown>);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.accept).toBe(accept);
    expect(server.requests[0]!.url).not.toMatch(/metadataOnly/);
  });

  it('exposes the context namespace and server', async () => {
    const { client, server } = await setup(echo);
    expect(client.namespace).toBe('team-a');
    expect(client.server).toBe(server.url);
  });
});

describe('kubeApiClient: errors', () => {
  it('an error Status becomes ApiError with reason, code and Retry-After', async () => {
    const { client } = await setup((_req, res) =>
      json(
        res,
        409,
        {
          kind: 'Status',
          status: 'Failure',
          reason: 'Conflict',
          message: 'the object has been modified',
          code: 409,
        },
        { 'Retry-After': '3' },
      ),
    );
    const error = await firstValueFrom(
      client.update(LEASES, { metadata: { name: 'l', namespace: 'ns' } }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 409, reason: 'Conflict', retryAfterSeconds: 3 });
  });

  it('a non-Status error body becomes a Status with the conventional reason', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(403, { 'Content-Type': 'text/html' });
      res.end('<html>nope</html>');
    });
    const error = await firstValueFrom(client.get(PODS, 'p', { namespace: 'ns' })).catch((e) => e);
    expect(error).toMatchObject({ statusCode: 403, reason: 'Forbidden' });
    expect(error.status.message).toContain('nope');
  });

  it('reads retry 503 (honouring Retry-After: 0) and succeed', async () => {
    let calls = 0;
    const { client, server } = await setup((_req, res) => {
      calls += 1;
      if (calls < 3)
        json(res, 503, { kind: 'Status', code: 503, reason: 'ServiceUnavailable' }, { 'Retry-After': '0' });
      else json(res, 200, { kind: 'PodList', metadata: { resourceVersion: '9' }, items: [] });
    });
    const list = await firstValueFrom(client.list(PODS));
    expect(list.metadata.resourceVersion).toBe('9');
    expect(server.requests).toHaveLength(3);
  });

  it('writes are not retried on 500', async () => {
    const { client, server } = await setup((_req, res) =>
      json(res, 500, { kind: 'Status', code: 500, reason: 'InternalError' }),
    );
    await expect(
      firstValueFrom(client.create(PODS, { metadata: { name: 'p', namespace: 'ns' } })),
    ).rejects.toThrow(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('a garbled success body is InvalidInputError naming the call', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200);
      res.end('{"kind": "PodL');
    });
    await expect(firstValueFrom(client.get(PODS, 'p', { namespace: 'ns' }))).rejects.toThrow(
      /get v1\/pods ns\/p \(body\)/,
    );
  });

  it('a refused connection is a KUBE_RX_CONNECTION error after the read retries', async () => {
    const { client, server } = await setup(echo, { maxReadRetries: 1, retryInitialMs: 1 });
    await server.close();
    const error = await firstValueFrom(client.list(PODS)).catch((e) => e);
    expect(error).toBeInstanceOf(KubeRxError);
    expect(error.code).toBe('KUBE_RX_CONNECTION');
  });
});

describe('kubeApiClient: timeouts and aborts', () => {
  it('a hung write fails with a TimeoutError naming it, and the request is aborted', async () => {
    const { client, server } = await setup(() => {}, { requestTimeoutMs: 150 });
    const error = await firstValueFrom(
      client.create(PODS, { metadata: { name: 'p', namespace: 'ns' } }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/create v1\/pods ns\/p did not answer within 150 ms/);
    await until(() => server.requests[0]?.aborted === true);
  });

  it('a hung list fails with TimeoutError (not retried by the client)', async () => {
    const { client, server } = await setup(() => {}, { requestTimeoutMs: 100 });
    await expect(firstValueFrom(client.list(PODS))).rejects.toThrow(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('unsubscribing aborts the request at once', async () => {
    const { client, server } = await setup(() => {});
    const sub = client.list(PODS).subscribe();
    await until(() => server.requests.length === 1);
    sub.unsubscribe();
    await until(() => server.requests[0]!.aborted);
  });

  it('unsubscribing before the request exists means it is never sent', async () => {
    const { client, server } = await setup(echo);
    client.list(PODS).subscribe().unsubscribe();
    client.watch(PODS).subscribe().unsubscribe();
    await sleep(100);
    expect(server.requests).toHaveLength(0);
  });

  it('leaves no handle behind after teardown', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
    const { client, server } = await setup((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n');
    });
    const sub = client.watch(PODS).subscribe();
    await until(() => server.requests.length === 1);
    sub.unsubscribe();
    client.close();
    await server.close();
    server.requests.length = 0;
    await sleep(20);
    expect(process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length).toBeLessThanOrEqual(
      before,
    );
  });
});

describe('kubeApiClient: watch', () => {
  const lines = [
    { type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '1' }, note: 'héllo ✓ 日本' } },
    { type: 'MODIFIED', object: { metadata: { name: 'a', resourceVersion: '2' } } },
    { type: 'BOOKMARK', object: { metadata: { resourceVersion: '3' } } },
    { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old' } },
  ];
  const body = Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));

  it('sends the watch query and reassembles lines split at arbitrary bytes (incl. inside UTF-8 characters)', async () => {
    const splits = [1, 7, 30, 58, 59, 60, 61, 62, 63, body.length - 1];
    for (const at of splits) {
      const { client, server } = await setup((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(body.subarray(0, at));
        setTimeout(() => res.end(body.subarray(at)), 5);
      });
      const events = await lastValueFrom(
        listerWatcher(client, PODS, { namespace: 'ns', labelSelector: 'a=b' })
          .watch({ resourceVersion: '1', allowWatchBookmarks: true, timeoutSeconds: 300 })
          .pipe(toArray()),
      );
      expect(events).toEqual(lines);
      expect(server.requests[0]!.url).toBe(
        '/api/v1/namespaces/ns/pods?watch=true&resourceVersion=1&allowWatchBookmarks=true&timeoutSeconds=300&labelSelector=a%3Db',
      );
      closeClient?.();
      await server.close();
    }
    server = undefined;
  });

  it('a garbled line errors the watch with InvalidInputError naming the resource and the text', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200);
      res.write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n');
      res.end('{"type":"ADDED","obj\n');
    });
    const seen: unknown[] = [];
    const error = await lastValueFrom(client.watch(DEPLOYMENTS).pipe(toArray())).catch((e) => e);
    client.watch(DEPLOYMENTS).subscribe({ next: (e) => seen.push(e), error: () => {} });
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toContain('watch deployments.apps/v1');
    expect(error.message).toContain('{\\"type\\":\\"ADDED\\",\\"obj');
    await until(() => seen.length === 1);
  });

  it('an error status on the watch request is an ApiError (e.g. 410 Gone)', async () => {
    const { client } = await setup((_req, res) =>
      json(res, 410, { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' }),
    );
    await expect(lastValueFrom(client.watch(PODS, { resourceVersion: '1' }))).rejects.toMatchObject({
      statusCode: 410,
      reason: 'Expired',
    });
  });

  it('a connection cut mid-line errors the watch; a clean end completes it', async () => {
    const { client } = await setup((req, res) => {
      res.writeHead(200);
      res.write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"MOD');
      setTimeout(() => (req.url?.includes('cut') ? res.destroy() : res.end('IFIED","object":{}}\n')), 10);
    });
    const cut = await lastValueFrom(client.watch(PODS, { labelSelector: 'cut' }).pipe(toArray())).catch(
      (e) => e,
    );
    expect(cut).toBeInstanceOf(KubeRxError);
    expect(cut.code).toBe('KUBE_RX_CONNECTION');
    const clean = await lastValueFrom(client.watch(PODS).pipe(toArray()));
    expect(clean.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
  });

  it('a watch whose response head never comes times out', async () => {
    const { client } = await setup(() => {}, { requestTimeoutMs: 100 });
    await expect(lastValueFrom(client.watch(PODS))).rejects.toThrow(TimeoutError);
  });

  it('a watch whose first request is never answered is hedged over a second connection; the first is aborted', async () => {
    let n = 0;
    const { client, server } = await setup((_req, res) => {
      if (++n === 1) return; // the first request is held: no head, ever
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"2"}}}\n');
    });
    const event = await firstValueFrom(client.watch(PODS, { responseHeadHedgeMs: 50 }));
    expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/pods?watch=true', '/api/v1/pods?watch=true']);
    await until(() => server.requests.every((r) => r.aborted));
  });
});
