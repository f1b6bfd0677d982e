// The API server's /metrics: request labels as upstream's, and the families scraped after real requests.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import {
  ApiServerMetrics,
  REQUEST_DURATION_BUCKETS,
  requestLabels,
} from '../../../../src/apiserver/metrics/index.ts';
import { request, watchLines } from '../fixtures/http.ts';

describe('requestLabels', () => {
  it.each([
    // [method, path, content type, verb, resource, subresource, scope]
    ['GET', '/api/v1/pods', '', 'LIST', 'pods', '', 'cluster'],
    ['GET', '/api/v1/namespaces/a/pods', '', 'LIST', 'pods', '', 'namespace'],
    ['GET', '/api/v1/namespaces/a/pods?watch=true', '', 'WATCH', 'pods', '', 'namespace'],
    ['GET', '/api/v1/watch/namespaces/a/pods', '', 'WATCH', 'pods', '', 'namespace'],
    ['GET', '/api/v1/namespaces/a/pods/p', '', 'GET', 'pods', '', 'resource'],
    ['POST', '/api/v1/namespaces/a/pods', 'application/json', 'POST', 'pods', '', 'resource'],
    ['PUT', '/api/v1/namespaces/a/pods/p/status', 'application/json', 'PUT', 'pods', 'status', 'resource'],
    [
      'PATCH',
      '/apis/apps/v1/namespaces/a/deployments/d',
      'application/strategic-merge-patch+json',
      'PATCH',
      'deployments',
      '',
      'resource',
    ],
    [
      'PATCH',
      '/apis/apps/v1/namespaces/a/deployments/d',
      'application/apply-patch+yaml',
      'APPLY',
      'deployments',
      '',
      'resource',
    ],
    ['DELETE', '/api/v1/namespaces/a/pods', '', 'DELETE', 'pods', '', 'namespace'],
    ['GET', '/api/v1/nodes/n', '', 'GET', 'nodes', '', 'resource'],
    ['GET', '/api/v1/namespaces/a/pods/p/exec', '', 'CONNECT', 'pods', 'exec', 'resource'],
  ])('%s %s (%s) is %s of %s/%s, scope %s', (method, path, type, verb, resource, subresource, scope) => {
    const labels = requestLabels(method, new URL(path, 'https://x'), type);
    expect(labels).toMatchObject({ verb, resource, subresource, scope, component: 'apiserver', dry_run: '' });
  });

  it.each([
    ['/healthz', '/healthz'],
    ['/openapi/v3/apis/apps/v1', '/openapi/v3/'],
    ['/apis/apps/v1', '/apis/<group>/<version>'],
    ['/no/such/thing', 'other'],
  ])('a non-resource request to %s is reported as %s', (path, subresource) => {
    expect(requestLabels('GET', new URL(path, 'https://x'), undefined)).toMatchObject({
      verb: 'GET',
      group: '',
      resource: '',
      scope: '',
      subresource,
    });
  });

  it('reads dryRun=All', () => {
    const labels = requestLabels('POST', new URL('/api/v1/namespaces/a/pods?dryRun=All', 'https://x'), '');
    expect(labels.dry_run).toBe('All');
  });
});

describe('ApiServerMetrics', () => {
  it('counts a request in flight until it ends, then by code, with its duration in upstream buckets', async () => {
    let now = 10;
    const m = new ApiServerMetrics(() => [['pods', 3]]);
    const labels = requestLabels('POST', new URL('/api/v1/namespaces/a/pods', 'https://x'), '');
    const end = m.begin(labels, () => now);
    expect(await m.text()).toContain('apiserver_current_inflight_requests{request_kind="mutating"} 1');
    now = 10.3;
    end(201);
    end(201); // a second end is ignored
    const text = await m.text();
    expect(text).toContain('apiserver_current_inflight_requests{request_kind="mutating"} 0');
    expect(text).toMatch(/apiserver_request_total\{[^}]*verb="POST"[^}]*resource="pods"[^}]*code="201"\} 1/);
    expect(text).toMatch(/apiserver_request_duration_seconds_bucket\{le="0.2",[^}]*verb="POST"[^}]*\} 0/);
    expect(text).toMatch(/apiserver_request_duration_seconds_bucket\{le="0.4",[^}]*verb="POST"[^}]*\} 1/);
    expect(text).toContain('apiserver_storage_objects{resource="pods"} 3');
    expect(REQUEST_DURATION_BUCKETS.at(-1)).toBe(60);
  });
});

/** The value of one sample of the exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...body.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/metrics on the embedded API server', () => {
  let server: RunningApiServer;

  beforeAll(async () => {
    server = await startApiServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('reports requests, stored objects and watches after real requests', async () => {
    const watch = watchLines(server, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0');
    expect(await watch.status).toBe(200);
    for (const name of ['a', 'b'])
      expect(
        (
          await request(server, 'POST', '/api/v1/namespaces/default/configmaps', {
            body: { metadata: { name } },
          })
        ).status,
      ).toBe(201);
    await watch.waitFor(2);
    expect((await request(server, 'GET', '/api/v1/namespaces/default/configmaps/nope')).status).toBe(404);
    expect((await request(server, 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);

    const scrape = await request(server, 'GET', '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain/);
    const text = scrape.text as string;
    const cm = { group: '', version: 'v1', resource: 'configmaps', component: 'apiserver' };
    expect(
      sample(text, 'apiserver_request_total', { ...cm, verb: 'POST', scope: 'resource', code: '201' }),
    ).toBe(2);
    expect(
      sample(text, 'apiserver_request_total', { ...cm, verb: 'GET', scope: 'resource', code: '404' }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_request_total', { ...cm, verb: 'LIST', scope: 'namespace', code: '200' }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_request_duration_seconds_count', { ...cm, verb: 'POST', scope: 'resource' }),
    ).toBe(2);
    expect(sample(text, 'apiserver_storage_objects', { resource: 'configmaps' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'apiserver_storage_objects', { resource: 'namespaces' })).toBeGreaterThanOrEqual(1);
    const kind = { group: '', version: 'v1', kind: 'ConfigMap' };
    expect(sample(text, 'apiserver_registered_watchers', kind)).toBe(1);
    expect(sample(text, 'apiserver_watch_events_total', kind)).toBeGreaterThanOrEqual(2);
    // The watch is long-running: in flight it counts in neither kind; the scrape itself is a read.
    expect(sample(text, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(0);

    watch.close();
    await watch.ended;
    await expect
      .poll(async () =>
        sample((await request(server, 'GET', '/metrics')).text, 'apiserver_registered_watchers', kind),
      )
      .toBe(0);
  });

  it('refuses /metrics without credentials', async () => {
    const anonymous = { ...server, token: undefined };
    const r = await request(anonymous, 'GET', '/metrics');
    expect(r.status).toBe(401);
  });
});

describe('/metrics under RBAC', () => {
  let server: RunningApiServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-metrics-'));
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(
      tokens,
      'prom-token,prometheus,2001,"monitoring-team"\nmon-token,scraper,2002,"system:monitoring"\n',
    );
    server = await startApiServer({ tokenAuthFile: tokens, authorizationMode: 'RBAC' });
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('needs get on the non-resource URL /metrics, as upstream authorizes it', async () => {
    const prometheus = { ...server, token: 'prom-token' };
    const refused = await request(prometheus, 'GET', '/metrics');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('cannot get path "/metrics"');

    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'metrics-reader' },
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
    };
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'metrics-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'monitoring-team' }],
    };
    expect(
      (await request(server, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: role }))
        .status,
    ).toBe(201);
    expect(
      (
        await request(server, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
          body: binding,
        })
      ).status,
    ).toBe(201);
    const allowed = await request(prometheus, 'GET', '/metrics');
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('apiserver_request_total{');
  });

  it('lets the group system:monitoring read /metrics and the health paths through the bootstrap role, and nothing else', async () => {
    const scraper = { ...server, token: 'mon-token' };
    expect((await request(scraper, 'GET', '/metrics')).status).toBe(200);
    expect((await request(scraper, 'GET', '/readyz')).status).toBe(200);
    expect((await request(scraper, 'GET', '/api/v1/pods')).status).toBe(403);
  });
});
