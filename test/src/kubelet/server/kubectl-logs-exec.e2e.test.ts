// kubectl logs and kubectl exec end to end: real kubectl → embedded API server → pods/log and pods/exec proxy → kubelet server → process runtime.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:https';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { KubeConfig, PortForward } from '@kubernetes/client-node';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Pod as ConfigPod } from '../../../../operators/pod-config/types.ts';
import { type Kubelet, startKubelet } from '../../../../src/kubelet/kubelet.ts';
import { kubeletPodConfig } from '../../../../src/kubelet/kubelet-pod-config.ts';
import {
  CHANNEL,
  decodeChannelFrame,
  encodeChannelFrame,
} from '../../../../src/kubelet/server/channel-frame.ts';
import { listerWatcher } from '../../../../streams/api-client.ts';
import { NODES, PODS } from '../../../../streams/resources.ts';
import { processRuntime } from '../../../../streams/runtimes/process/process-runtime.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { shellPod, waitForPod } from '../kubelet-fixture.ts';

const NODE = 'node-kubectl-streams';
const cluster = useEmbeddedCluster({ port: 0 });
let kubelet: Kubelet;
let kubeletPort: number;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-kubelet-server-'));
  kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, cluster.server.kubeconfig);
  const runtime = processRuntime({ namespaces: 'none', closeGraceSeconds: 1, hostIP: '127.0.0.1' });
  const podConfig = kubeletPodConfig({
    nodeName: NODE,
    apiserver: { listerWatcher: listerWatcher<ConfigPod>(cluster.api, PODS) },
  });
  kubelet = startKubelet({
    nodeName: NODE,
    client: cluster.api,
    runtime,
    podConfig,
    rootDir: join(dir, 'root'),
    nodeIP: '127.0.0.1',
    server: { port: 0, address: '127.0.0.1' },
  });
  kubeletPort = await kubelet.server!.ready;
  await firstValueFrom(
    cluster.api.create(NODES, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: NODE },
      status: {
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
      },
    }),
  );
}, 30_000);
afterAll(async () => {
  await kubelet?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function kubectl(args: string[], input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** Runs kubectl until `check` holds for its output (logs can lag the pod's Running status). */
async function kubectlUntil(args: string[], check: (r: Run) => boolean, ms = 10_000): Promise<Run> {
  const deadline = Date.now() + ms;
  for (;;) {
    const run = await kubectl(args);
    if (check(run) || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const create = (pod: Pod) => firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
const running = (pod: Pod | undefined) => pod?.status?.phase === 'Running';

function httpsGet(path: string): Promise<{ code: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: kubeletPort, path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('kubectl logs through the kubelet server', () => {
  beforeAll(async () => {
    await create(shellPod('talker', NODE, 'echo one; echo two; echo three; sleep 1000'));
    await waitForPod(cluster.api, 'talker', running, 'Running');
  }, 30_000);

  it('shows the pod output', async () => {
    const run = await kubectlUntil(['logs', 'talker'], (r) => r.stdout.includes('three'));
    expect(run).toMatchObject({ code: 0, stdout: 'one\ntwo\nthree\n' });
  });

  it('--tail 1 shows the last line only', async () => {
    const run = await kubectlUntil(['logs', 'talker', '--tail', '1'], (r) => r.stdout === 'three\n');
    expect(run).toMatchObject({ code: 0, stdout: 'three\n' });
  });

  it('--timestamps prefixes each line with its RFC3339Nano time', async () => {
    const run = await kubectl(['logs', 'talker', '--timestamps', '--tail', '1']);
    expect(run.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z three\n$/);
  });

  it('--limit-bytes cuts the output', async () => {
    const run = await kubectl(['logs', 'talker', '--limit-bytes', '5']);
    expect(run.stdout).toBe('one\nt');
  });

  it('-c picks a container; without it a two-container pod is refused naming the containers', async () => {
    await create({
      ...shellPod('pair', NODE, 'echo from-a; sleep 1000'),
      spec: {
        nodeName: NODE,
        restartPolicy: 'Never',
        containers: [
          { name: 'a', image: 'busybox', command: ['sh', '-c', 'echo from-a; sleep 1000'] },
          { name: 'b', image: 'busybox', command: ['sh', '-c', 'echo from-b; sleep 1000'] },
        ],
      },
    });
    await waitForPod(cluster.api, 'pair', running, 'Running');
    const b = await kubectlUntil(['logs', 'pair', '-c', 'b'], (r) => r.stdout.includes('from-b'));
    expect(b).toMatchObject({ code: 0, stdout: 'from-b\n' });
    const wrong = await kubectl(['logs', 'pair', '-c', 'nope']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('container nope is not valid for pod pair');
  });

  it('--previous shows the terminated instance after a restart', async () => {
    const marker = join(dir, 'restarted-once');
    const script = `if [ -f ${marker} ]; then echo second; sleep 1000; else touch ${marker}; echo first; exit 1; fi`;
    await create(shellPod('restarter', NODE, script, { restartPolicy: 'Always' }));
    await waitForPod(
      cluster.api,
      'restarter',
      (p) => running(p) && (p?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
      'Running after a restart',
      30_000,
    );
    const previous = await kubectlUntil(['logs', 'restarter', '--previous'], (r) => r.stdout === 'first\n');
    expect(previous).toMatchObject({ code: 0, stdout: 'first\n' });
    const current = await kubectlUntil(['logs', 'restarter'], (r) => r.stdout === 'second\n');
    expect(current).toMatchObject({ code: 0, stdout: 'second\n' });
  }, 40_000);

  it('--since 5m keeps the recent lines', async () => {
    const run = await kubectl(['logs', 'talker', '--since', '5m']);
    expect(run).toMatchObject({ code: 0, stdout: 'one\ntwo\nthree\n' });
  });

  it('--previous without a terminated instance is a BadRequest naming the container', async () => {
    const run = await kubectl(['logs', 'talker', '--previous']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('previous terminated container "main" in pod "talker" not found');
  });

  it('-f sees a line written after it started', async () => {
    const go = join(dir, 'go');
    await create(
      shellPod(
        'follower',
        NODE,
        `echo before; while [ ! -f ${go} ]; do sleep 0.1; done; echo after; sleep 1000`,
      ),
    );
    await waitForPod(cluster.api, 'follower', running, 'Running');
    await kubectlUntil(['logs', 'follower'], (r) => r.stdout.includes('before'));
    const child: ChildProcess = spawn('kubectl', ['--kubeconfig', kubeconfig, 'logs', '-f', 'follower'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const waiters = new Set<() => void>();
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      for (const check of waiters) check();
    });
    const seen = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`kubectl logs -f did not print ${text}: ${out}`)),
          10_000,
        );
        const check = () => {
          if (!out.includes(text)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    try {
      await seen('before');
      await writeFile(go, '');
      await seen('after');
      expect(out).toBe('before\nafter\n');
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});

describe('kubectl exec through the kubelet server (WebSocket v5.channel.k8s.io)', () => {
  beforeAll(async () => {
    await create(shellPod('shell', NODE, 'sleep 1000'));
    await waitForPod(cluster.api, 'shell', running, 'Running');
  }, 30_000);

  it('kubectl exec POD -- echo hi prints hi', async () => {
    const run = await kubectl(['exec', 'shell', '--', 'echo', 'hi']);
    expect(run).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it("kubectl exec POD -- sh -c 'exit 3' exits 3", async () => {
    const run = await kubectl(['exec', 'shell', '--', 'sh', '-c', 'exit 3']);
    expect(run.code).toBe(3);
  });

  it('stderr comes back on its own stream', async () => {
    const run = await kubectl(['exec', 'shell', '--', 'sh', '-c', 'echo out; echo err >&2']);
    expect(run).toMatchObject({ code: 0, stdout: 'out\n', stderr: 'err\n' });
  });

  it('kubectl exec -i passes piped stdin and its end', async () => {
    const run = await kubectl(['exec', '-i', 'shell', '--', 'sh', '-c', 'cat; echo done'], 'piped\nlines\n');
    expect(run).toMatchObject({ code: 0, stdout: 'piped\nlines\ndone\n' });
  });

  it('a large output arrives whole (reading pauses while the socket is behind)', async () => {
    const run = await kubectl(['exec', 'shell', '--', 'sh', '-c', "head -c 4000000 /dev/zero | tr '\\0' a"]);
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBe(4_000_000);
    expect(/^a+$/.test(run.stdout)).toBe(true);
  }, 30_000);

  it('an unknown container is refused', async () => {
    const run = await kubectl(['exec', 'shell', '-c', 'nope', '--', 'true']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('container nope is not valid for pod shell');
  });
});

describe('the kubelet server directly', () => {
  it('/healthz answers ok', async () => {
    expect(await httpsGet('/healthz')).toEqual({ code: 200, body: 'ok' });
  });

  it('/pods lists the pods the kubelet runs as a PodList', async () => {
    const { code, body } = await httpsGet('/pods');
    expect(code).toBe(200);
    const list = JSON.parse(body) as { kind: string; items: Pod[] };
    expect(list.kind).toBe('PodList');
    expect(list.items.map((p) => p.metadata.name)).toContain('talker');
  });

  it('/metrics/resource reports the running containers with upstream names', async () => {
    const { code, body } = await httpsGet('/metrics/resource');
    expect(code).toBe(200);
    expect(body).toMatch(
      /^container_cpu_usage_seconds_total\{container="main",namespace="default",pod="talker"\} [\d.e+-]+ \d+$/m,
    );
    expect(body).toMatch(
      /^container_memory_working_set_bytes\{container="main",namespace="default",pod="talker"\} \d+ \d+$/m,
    );
    expect(body).toMatch(/^pod_memory_working_set_bytes\{namespace="default",pod="talker"\} \d+ \d+$/m);
    expect(body).toMatch(/^node_cpu_usage_seconds_total [\d.e+-]+ \d+$/m);
  });

  it('/containerLogs rejects a bad query naming the field', async () => {
    const { code, body } = await httpsGet('/containerLogs/default/talker/main?tailLines=-1');
    expect(code).toBe(400);
    expect(body).toContain('tailLines');
  });
});

/** Opens the kubelet's /exec over WebSocket offering `protocols`; collects frames until the server closes. */
function execDirect(
  query: string,
  protocols: string[],
  send: (ws: WebSocket) => void = () => undefined,
): Promise<{ protocol: string; frames: { channel: number; text: string }[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${kubeletPort}/exec/default/shell/main?${query}`, protocols, {
      rejectUnauthorized: false,
    });
    const frames: { channel: number; text: string }[] = [];
    ws.on('open', () => send(ws));
    ws.on('message', (data: Buffer) => {
      const frame = decodeChannelFrame(data);
      if (!(frame instanceof Error))
        frames.push({ channel: frame.channel, text: frame.data.toString('utf8') });
    });
    ws.on('close', () => resolve({ protocol: ws.protocol, frames }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

describe('the kubelet /exec WebSocket protocol', () => {
  it('prefers v5.channel.k8s.io and ends with a Success Status on channel 3', async () => {
    const { protocol, frames } = await execDirect('command=echo&command=five&stdout=true', [
      'v4.channel.k8s.io',
      'v5.channel.k8s.io',
    ]);
    expect(protocol).toBe('v5.channel.k8s.io');
    expect(
      frames
        .filter((f) => f.channel === CHANNEL.stdout)
        .map((f) => f.text)
        .join(''),
    ).toBe('five\n');
    const status = frames.find((f) => f.channel === CHANNEL.error);
    expect(JSON.parse(status!.text)).toEqual({ metadata: {}, status: 'Success' });
  });

  it('speaks v4.channel.k8s.io to a client offering only that, exit code in the Status causes', async () => {
    const { protocol, frames } = await execDirect(
      'command=sh&command=-c&command=exit%205&stdout=true&stderr=true',
      ['v4.channel.k8s.io'],
    );
    expect(protocol).toBe('v4.channel.k8s.io');
    const status = JSON.parse(frames.find((f) => f.channel === CHANNEL.error)!.text) as {
      reason: string;
      details: { causes: { reason: string; message: string }[] };
    };
    expect(status.reason).toBe('NonZeroExitCode');
    expect(status.details.causes).toEqual([{ reason: 'ExitCode', message: '5' }]);
  });

  it('stdin frames reach the command; the v5 close frame for stdin ends its input; resize is accepted', async () => {
    const { frames } = await execDirect('command=cat&stdin=true&stdout=true', ['v5.channel.k8s.io'], (ws) => {
      ws.send(encodeChannelFrame(CHANNEL.resize, JSON.stringify({ Width: 80, Height: 24 })));
      ws.send(encodeChannelFrame(CHANNEL.stdin, 'typed\n'));
      ws.send(encodeChannelFrame(CHANNEL.close, Buffer.of(CHANNEL.stdin)));
    });
    expect(
      frames
        .filter((f) => f.channel === CHANNEL.stdout)
        .map((f) => f.text)
        .join(''),
    ).toBe('typed\n');
  });

  it('refuses a SPDY upgrade with 400, so the client is told to use WebSocket', async () => {
    const { code, body } = await new Promise<{ code: number; body: string }>((resolve, reject) => {
      get(
        {
          host: '127.0.0.1',
          port: kubeletPort,
          path: '/exec/default/shell/main?command=true&stdout=true',
          rejectUnauthorized: false,
          headers: {
            Connection: 'Upgrade',
            Upgrade: 'SPDY/3.1',
            'X-Stream-Protocol-Version': 'v4.channel.k8s.io',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => {
            text += d.toString();
          });
          res.on('end', () => resolve({ code: res.statusCode ?? 0, body: text }));
        },
      ).on('error', reject);
    });
    expect(code).toBe(400);
    expect(body).toContain('use WebSocket');
  });

  it('refuses an exec without any of stdin, stdout, stderr', async () => {
    await expect(execDirect('command=true', ['v5.channel.k8s.io'])).rejects.toThrow('refused with 400');
  });
});

/** A free TCP port on 127.0.0.1 (bound, read, released). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('pods/portforward over WebSocket (v4.channel.k8s.io, as @kubernetes/client-node speaks it)', () => {
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    const echo = `require('net').createServer((s) => s.pipe(s)).listen(${port}, '127.0.0.1')`;
    await create({
      ...shellPod('echo-server', NODE, ''),
      spec: {
        nodeName: NODE,
        restartPolicy: 'Never',
        containers: [{ name: 'main', image: 'node', command: [process.execPath, '-e', echo] }],
      },
    });
    await waitForPod(cluster.api, 'echo-server', running, 'Running');
  }, 30_000);

  it('relays bytes to the pod port and back through the API server and the kubelet', async () => {
    const config = new KubeConfig();
    config.loadFromString(cluster.server.kubeconfig);
    const output = new PassThrough();
    const input = new PassThrough();
    let received = '';
    output.on('data', (d: Buffer) => {
      received += d.toString();
    });
    const deadline = Date.now() + 10_000;
    // the echo server may still be starting after the pod is Running: retry until it answers
    for (;;) {
      const ws = (await new PortForward(config).portForward(
        'default',
        'echo-server',
        [port],
        output,
        null,
        input,
      )) as {
        close(): void;
      };
      input.write('ping\n');
      const until = Date.now() + 1_000;
      while (!received.includes('ping') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      ws.close();
      if (received.includes('ping') || Date.now() > deadline) break;
    }
    expect(received).toBe('ping\n');
  }, 20_000);

  it('kubectl port-forward (SPDY tunnelled in WebSocket) relays to the same pod port', async () => {
    const local = await freePort();
    const child = spawn(
      'kubectl',
      ['--kubeconfig', kubeconfig, 'port-forward', 'pod/echo-server', `${local}:${port}`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = once(child, 'close');
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          if (d.toString().includes('Forwarding from')) resolve();
        });
        void exited.then(() => reject(new Error('kubectl port-forward exited')));
      });
      const socket = connect(local, '127.0.0.1');
      let echoed = '';
      socket.on('data', (d: Buffer) => {
        echoed += d.toString();
      });
      socket.end('pong\n');
      await once(socket, 'close');
      expect(echoed).toBe('pong\n');
    } finally {
      child.kill('SIGTERM');
      await exited;
      clearTimeout(guard);
    }
  }, 20_000);
});

describe('the API server proxy refusals', () => {
  it('a pod with no node is a BadRequest: it does not have a host assigned', async () => {
    const pod = shellPod('unscheduled', NODE, 'true');
    delete pod.spec!.nodeName;
    await create(pod);
    const run = await kubectl(['logs', 'unscheduled']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('pod unscheduled does not have a host assigned');
  });

  it('a node whose kubelet does not answer is an InternalError naming the kubelet address', async () => {
    const port = await freePort();
    await firstValueFrom(
      cluster.api.create(NODES, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'ghost' },
        status: {
          addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
          daemonEndpoints: { kubeletEndpoint: { Port: port } },
        },
      }),
    );
    await create(shellPod('haunted', 'ghost', 'true'));
    const logs = await kubectl(['logs', 'haunted']);
    expect(logs.code).not.toBe(0);
    expect(logs.stderr).toContain(`https://127.0.0.1:${port}/containerLogs/default/haunted/main`);
    const exec = await kubectl(['exec', 'haunted', '--', 'true']);
    expect(exec.code).not.toBe(0);
  });
});
