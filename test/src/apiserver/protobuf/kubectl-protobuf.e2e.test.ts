// kubectl's protobuf-sending generators against the embedded API server, and a protobuf watch client.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { PROTOBUF_CONTENT_TYPE } from '../../../../src/apiserver/protobuf/content-types.ts';
import { decodeObject, encodeObject } from '../../../../src/apiserver/protobuf/object-codec.ts';
import type { WatchEventJson } from '../../../../src/apiserver/protobuf/watch-frame.ts';
import { WatchFrameDecoder } from '../../../../src/apiserver/protobuf/watch-frame-decoder.ts';
import { KUBECTL } from '../../../helpers/kubectl.ts';

if (!KUBECTL) console.warn('kubectl protobuf end-to-end tests skipped: kubectl is not installed');

type Json = Record<string, unknown>;

/** Every key of `expected` is in `actual` with the same value, recursively (arrays element-wise). */
function expectContains(actual: unknown, expected: unknown, path: string): void {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    expect(actual, path).toBeTypeOf('object');
    for (const [k, v] of Object.entries(expected)) {
      if (v === null || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)) continue;
      expectContains((actual as Json)[k], v, `${path}.${k}`);
    }
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, path).toBe(expected.length);
    for (const [i, v] of expected.entries()) expectContains((actual as unknown[])[i], v, `${path}[${i}]`);
  } else {
    expect(actual, path).toEqual(expected);
  }
}

/** The generators of the brief: [resource to get, name, kubectl create arguments]. */
const GENERATORS: readonly (readonly [string, string, readonly string[]])[] = [
  ['deployment', 'web', ['deployment', 'web', '--image=nginx']],
  ['namespace', 'x', ['namespace', 'x']],
  ['configmap', 'c', ['configmap', 'c', '--from-literal=a=b']],
  ['secret', 's', ['secret', 'generic', 's', '--from-literal=p=q']],
  ['job', 'j', ['job', 'j', '--image=busybox']],
  ['cronjob', 'cj', ['cronjob', 'cj', '--image=busybox', '--schedule=*/1 * * * *']],
  ['service', 'svc', ['service', 'clusterip', 'svc', '--tcp=80:8080']],
  ['priorityclass', 'high', ['priorityclass', 'high', '--value=1000']],
];

describe.skipIf(!KUBECTL)('kubectl in protobuf against the embedded API server', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;

  const kubectl = (args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        KUBECTL!,
        ['--kubeconfig', kubeconfig, ...args],
        { timeout: 120_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  const ok = async (args: readonly string[]): Promise<string> => {
    const r = await kubectl(args);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };

  /** The admin credential the server's kubeconfig carries (authentication is on by default). */
  const auth = (): Record<string, string> =>
    server.token ? { Authorization: `Bearer ${server.token}` } : {};

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-kubectl-pb-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(GENERATORS)(
    'kubectl create %s %s succeeds and stores what --dry-run=client prints',
    async (resource, name, args) => {
      const expected = JSON.parse(await ok(['create', ...args, '--dry-run=client', '-o', 'json'])) as Json;
      await ok(['create', ...args]);
      const stored = JSON.parse(await ok(['get', resource, name, '-o', 'json'])) as Json;
      for (const field of ['spec', 'data', 'type', 'value']) {
        if (expected[field] !== undefined) expectContains(stored[field], expected[field], field);
      }
      expectContains(stored.metadata, expected.metadata, 'metadata');
      // The protobuf body kubectl sent decodes to the JSON kubectl prints for the same object.
      expect(decodeObject(encodeObject(expected))).toEqual(expected);
    },
    180_000,
  );

  it('streams a protobuf watch whose frames a decoder reads back', async () => {
    const url = new URL('/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=30', server.url);
    const events: WatchEventJson[] = [];
    const decoder = new WatchFrameDecoder();
    const contentType = await new Promise<string>((resolve, reject) => {
      const req = request(
        url,
        { ca: server.caPem, headers: { ...auth(), Accept: `${PROTOBUF_CONTENT_TYPE};stream=watch` } },
        (res) => {
          const type = String(res.headers['content-type']);
          res.on('data', (chunk: Buffer) => {
            events.push(...decoder.push(chunk));
            if (events.some((e) => e.type === 'ADDED' && (e.object.metadata as Json).name === 'watched')) {
              req.destroy();
              resolve(type);
            }
          });
          res.on('error', () => {});
        },
      );
      req.on('error', reject);
      req.end();
      setTimeout(() => {
        void kubectl(['create', 'configmap', 'watched', '--from-literal=k=v']);
      }, 0);
    });
    expect(contentType).toBe(`${PROTOBUF_CONTENT_TYPE};stream=watch`);
    const added = events.find((e) => (e.object.metadata as Json).name === 'watched')!;
    expect(added.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { k: 'v' } });
  }, 180_000);

  it('answers get and list in protobuf when Accept prefers it, JSON for Table', async () => {
    const get = (path: string, accept: string) =>
      new Promise<{ type: string; body: Buffer }>((resolve, reject) => {
        const req = request(
          new URL(path, server.url),
          { ca: server.caPem, headers: { ...auth(), Accept: accept } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ type: String(res.headers['content-type']), body: Buffer.concat(chunks) }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    const one = await get(
      '/api/v1/namespaces/default/configmaps/c',
      `${PROTOBUF_CONTENT_TYPE}, application/json`,
    );
    expect(one.type).toBe(PROTOBUF_CONTENT_TYPE);
    expect(decodeObject(one.body)).toMatchObject({ kind: 'ConfigMap', data: { a: 'b' } });
    const list = await get('/apis/apps/v1/namespaces/default/deployments', PROTOBUF_CONTENT_TYPE);
    expect(list.type).toBe(PROTOBUF_CONTENT_TYPE);
    const decoded = decodeObject(list.body) as { kind: string; items: Json[] };
    expect(decoded.kind).toBe('DeploymentList');
    expect(decoded.items.map((i) => (i.metadata as Json).name)).toEqual(['web']);
    const table = await get(
      '/api/v1/namespaces/default/configmaps',
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    );
    expect(table.type).toBe('application/json');
    expect(JSON.parse(table.body.toString()).kind).toBe('Table');
  }, 180_000);

  it('scales and deletes through protobuf-speaking kubectl commands', async () => {
    await ok(['scale', 'deployment', 'web', '--replicas=3']);
    expect((await ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).trim()).toBe('3');
    await ok(['delete', 'configmap', 'c']);
    const gone = await kubectl(['get', 'configmap', 'c']);
    expect(gone.stderr).toContain('NotFound');
  }, 180_000);
});
