// The protobuf bodies kubectl really sends, recorded on their way to the embedded API server, decode to
// exactly the JSON the same command prints with `--dry-run=client -o json`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { PROTOBUF_CONTENT_TYPE } from '../../../../src/apiserver/protobuf/content-types.ts';
import { hasProtobufMagic } from '../../../../src/apiserver/protobuf/envelope.ts';
import { decodeObject } from '../../../../src/apiserver/protobuf/object-codec.ts';
import { KUBECTL } from '../../../helpers/kubectl.ts';

interface Recorded {
  method: string;
  url: string;
  contentType: string;
  body: Buffer;
}

/** kubectl create generators, each with a distinct name (the recorder keys on it). */
const COMMANDS: readonly (readonly string[])[] = [
  ['deployment', 'cap-web', '--image=nginx', '--replicas=2', '--port=80'],
  ['namespace', 'cap-ns'],
  ['configmap', 'cap-cm', '--from-literal=a=b', '--from-literal=c=d'],
  ['secret', 'generic', 'cap-secret', '--from-literal=p=q'],
  [
    'secret',
    'docker-registry',
    'cap-reg',
    '--docker-server=r.example',
    '--docker-username=u',
    '--docker-password=p',
  ],
  ['job', 'cap-job', '--image=busybox', '--', 'echo', 'hi'],
  ['cronjob', 'cap-cj', '--image=busybox', '--schedule=*/1 * * * *'],
  ['service', 'clusterip', 'cap-svc', '--tcp=80:8080', '--tcp=443:8443'],
  ['service', 'nodeport', 'cap-np', '--tcp=80:8080'],
  ['priorityclass', 'cap-pc', '--value=100', '--description=d'],
  ['poddisruptionbudget', 'cap-pdb', '--selector=app=x', '--min-available=1'],
];

describe.skipIf(!KUBECTL)('protobuf bodies recorded from kubectl', () => {
  let server: RunningApiServer;
  let proxy: Server;
  let dir: string;
  let kubeconfig: string;
  const recorded: Recorded[] = [];

  beforeAll(async () => {
    // Plain HTTP so the recorder can read the bodies; kubectl sends no bearer token over plain HTTP,
    // so this loopback-only server lets unauthenticated requests in.
    server = await startApiServer({ plainHttp: true, insecureAllowUnauthenticated: true });
    const upstream = new URL(server.url);
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        recorded.push({
          method: req.method ?? '',
          url: req.url ?? '',
          contentType: String(req.headers['content-type'] ?? ''),
          body,
        });
        const out = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        out.on('error', () => res.destroy());
        out.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as AddressInfo).port;
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-kubectl-cap-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, server.kubeconfig.replace(server.url, `http://127.0.0.1:${port}`));
  }, 120_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const kubectl = (args: readonly string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        KUBECTL!,
        ['--kubeconfig', kubeconfig, ...args],
        { timeout: 120_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it.each(COMMANDS.map((c) => [c.join(' '), c] as const))(
    'kubectl create %s: the body it sends decodes to its --dry-run=client -o json',
    async (_, args) => {
      // Flags go before a `--` that starts the container's command.
      const cut = args.includes('--') ? args.indexOf('--') : args.length;
      const printed = await kubectl([
        'create',
        ...args.slice(0, cut),
        '--dry-run=client',
        '-o',
        'json',
        ...args.slice(cut),
      ]);
      expect(printed.stderr).toBe('');
      const expected = JSON.parse(printed.stdout) as { metadata: { name: string } };
      const created = await kubectl(['create', ...args]);
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      const post = recorded.find(
        (r) =>
          r.method === 'POST' &&
          r.contentType === PROTOBUF_CONTENT_TYPE &&
          bodyNames(r, expected.metadata.name),
      );
      expect(post, 'kubectl sent a protobuf POST').toBeDefined();
      expect(hasProtobufMagic(post!.body)).toBe(true);
      expect(decodeObject(post!.body)).toEqual(expected);
    },
    180_000,
  );
});

function bodyNames(r: Recorded, name: string): boolean {
  try {
    return (decodeObject(r.body).metadata as { name?: string } | undefined)?.name === name;
  } catch {
    return false;
  }
}
