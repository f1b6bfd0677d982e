// kubectl port-forward end to end: real kubectl → embedded API server (WebSocket tunnel or SPDY) → kubelet server → an HTTP server in a process-runtime pod.
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { firstValueFrom } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { NODES, PODS } from '../../../../streams/resources.ts';
import { KUBECTL } from '../../../helpers/kubectl.ts';
import { waitForPod } from '../kubelet-fixture.ts';
import { freePort } from './free-port.ts';
import { useServingKubelet } from './serving-kubelet.ts';

const NODE = 'node-port-forward';
const serving = useServingKubelet(NODE);
const cluster = serving.cluster;
let podPort: number;

/** An HTTP server that answers GET with a greeting and POST with the body it received. */
const SERVER_SCRIPT = `
const http = require('node:http');
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = req.method === 'POST' ? Buffer.concat(chunks) : Buffer.from('hello from web\\n');
    res.writeHead(200, { 'Content-Length': body.length });
    res.end(body);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
setTimeout(() => process.exit(0), 120000);
`;

beforeAll(async () => {
  podPort = await freePort();
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      nodeName: NODE,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: 'web',
          image: 'node',
          command: [process.execPath, '-e', SERVER_SCRIPT],
          env: [{ name: 'PORT', value: String(podPort) }],
          ports: [{ containerPort: podPort }],
        },
      ],
    },
  };
  await firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
  await waitForPod(cluster.api, 'web', (p) => p?.status?.phase === 'Running', 'Running', 20_000);
}, 40_000);

/** A running `kubectl port-forward`, killed by `stop()` or after 30 s whatever happens. */
interface Forward {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

async function portForward(args: string[], extraEnv: Record<string, string> = {}): Promise<Forward> {
  const child = spawn(KUBECTL!, ['--kubeconfig', serving.kubeconfig, 'port-forward', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...extraEnv },
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Forwarding from 127.0.0.1')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('close', (code) => reject(new Error(`kubectl port-forward exited ${code}: ${output}`)));
  });
  return {
    child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      clearTimeout(guard);
    },
  };
}

function http(port: number, method: 'GET' | 'POST', body?: Buffer): Promise<{ code: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error('no answer through the forwarded port')));
    req.end(body);
  });
}

/** Runs a kubectl port-forward that is expected to fail: its exit code and stderr (killed after 20 s). */
async function failingPortForward(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(KUBECTL!, ['--kubeconfig', serving.kubeconfig, 'port-forward', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(guard);
  return { code, stderr };
}

/** 300 KiB of varied bytes: more than one SPDY window and several frames each way. */
const BIG = Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 7 + (i >> 8)) & 0xff));

describe.skipIf(!KUBECTL)('kubectl port-forward through the API server', () => {
  it.each([
    ['WebSocket tunnel (kubectl 1.31+ default)', {}],
    ['SPDY upgrade (KUBECTL_PORT_FORWARD_WEBSOCKETS=false)', { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' }],
  ])(
    '%s carries bytes both ways',
    async (_name, env) => {
      const local = await freePort();
      const forward = await portForward(['pod/web', `${local}:${podPort}`], env);
      try {
        const hello = await http(local, 'GET');
        expect(hello).toMatchObject({ code: 200 });
        expect(hello.body.toString()).toBe('hello from web\n');
        const echoed = await http(local, 'POST', BIG);
        expect(echoed.code).toBe(200);
        expect(echoed.body.equals(BIG)).toBe(true);
        // a second connection over the same session
        expect((await http(local, 'GET')).body.toString()).toBe('hello from web\n');
      } finally {
        await forward.stop();
      }
      expect(forward.output()).toContain(`Forwarding from 127.0.0.1:${local} -> ${podPort}`);
    },
    40_000,
  );

  it('a port nothing listens on reports the kubelet error through kubectl', async () => {
    const local = await freePort();
    const closed = await freePort();
    const forward = await portForward(['pod/web', `${local}:${closed}`]);
    try {
      await expect(http(local, 'GET')).rejects.toThrow();
      const deadline = Date.now() + 10_000;
      while (!forward.output().includes('error forwarding port') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      await forward.stop();
    }
    expect(forward.output()).toContain(
      `error forwarding port ${closed} to pod web, uid ${(await firstValueFrom(cluster.api.get<Pod>(PODS, 'web', { namespace: 'default' }))).metadata.uid}: dial tcp4 127.0.0.1:${closed}: connect: connection refused`,
    );
  }, 40_000);

  it('a pod whose kubelet does not answer fails with the address the API server dialled', async () => {
    const ghostPort = await freePort();
    await firstValueFrom(
      cluster.api.create(NODES, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'ghost-pf' },
        status: {
          addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
          daemonEndpoints: { kubeletEndpoint: { Port: ghostPort } },
        },
      }),
    );
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stranded', namespace: 'default' },
      spec: { nodeName: 'ghost-pf', containers: [{ name: 'c', image: 'x' }] },
    };
    const created = await firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
    // kubectl forwards only to a Running pod: say it runs, though no kubelet will answer for it
    await firstValueFrom(cluster.api.updateStatus<Pod>(PODS, { ...created, status: { phase: 'Running' } }));
    const local = await freePort();
    const { code, stderr } = await failingPortForward(['pod/stranded', `${local}:80`]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`127.0.0.1:${ghostPort}`);
  }, 30_000);

  it('a pod that does not exist is NotFound', async () => {
    const local = await freePort();
    const { code, stderr } = await failingPortForward(['pod/nope', `${local}:80`]);
    expect(code).not.toBe(0);
    expect(stderr).toContain('pods "nope" not found');
  }, 30_000);
});
