// Benchmark of the embedded API server: writes per second, list latency over 50,000 pods, watch fan-out.
// Run: node bench/apiserver.ts   (prints a table; numbers are for this machine only)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { JOURNAL_FILE } from '../src/apiserver/file-journal.ts';
import { type RunningApiServer, startApiServer } from '../src/apiserver/index.ts';

const PODS = Number(process.env.BENCH_PODS ?? 50_000);
const WRITES = Number(process.env.BENCH_WRITES ?? 5_000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 100);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);

function call(
  server: RunningApiServer,
  agent: Agent,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(new URL(path, server.url), {
      method,
      agent,
      headers: payload
        ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
        : {},
    });
    req.on('response', (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A pod of about 3 KB, as a realistic scheduled pod is. */
function realisticPod(i: number, namespace = 'bench') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `pod-${String(i).padStart(6, '0')}`,
      namespace,
      labels: { app: `app-${i % 50}`, tier: i % 2 ? 'web' : 'worker', 'pod-template-hash': '5d8f7c9b6d' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2025-01-01T00:00:00Z', note: 'x'.repeat(600) },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `rs-${i % 50}`,
          uid: '0b6c7a1e-7f0e-4c1b-9d4b-3c2a1b0e9f8d',
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: `node-${i % 100}`,
      containers: [
        {
          name: 'main',
          image: 'registry.example.com/team/service:1.2.3',
          ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
          env: Array.from({ length: 10 }, (_, k) => ({
            name: `ENV_${k}`,
            value: `value-${k}-${'v'.repeat(20)}`,
          })),
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
          volumeMounts: [{ name: 'config', mountPath: '/etc/config' }],
        },
      ],
      volumes: [{ name: 'config', configMap: { name: 'service-config' } }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
    },
    status: {
      phase: 'Running',
      podIP: `10.0.${(i >> 8) & 255}.${i & 255}`,
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: '2025-01-01T00:00:00Z',
      })),
      containerStatuses: [
        {
          name: 'main',
          ready: true,
          restartCount: 0,
          image: 'registry.example.com/team/service:1.2.3',
          state: { running: { startedAt: '2025-01-01T00:00:00Z' } },
        },
      ],
    },
  };
}

interface LoadJob {
  url: string;
  caPem: string;
  kind: 'pods' | 'configmaps';
  namespace: string;
  count: number;
  concurrency: number;
}

/** Creates `count` objects with `concurrency` clients; runs in a worker thread so the server keeps its own. */
async function load(job: LoadJob): Promise<number> {
  const server = { url: job.url, caPem: job.caPem } as RunningApiServer;
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency, ca: job.caPem });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.count) {
        const i = next++;
        let body: unknown;
        if (job.kind === 'pods') {
          const pod = realisticPod(i, job.namespace);
          delete (pod as { status?: unknown }).status;
          body = pod;
        } else {
          body = { metadata: { name: `cm-${i}` }, data: { i: String(i) } };
        }
        const r = await call(server, agent, 'POST', `/api/v1/namespaces/${job.namespace}/${job.kind}`, body);
        if (r.status !== 201) throw new Error(`create ${i}: ${r.status}`);
      }
    }),
  );
  agent.destroy();
  return performance.now() - t0;
}

function loadInWorker(job: LoadJob): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.once('message', (ms: number) => resolve(ms));
    worker.once('error', reject);
  });
}

async function writesPerSecond(dataDir: string | undefined, n: number): Promise<number> {
  const server = await startApiServer({ dataDir });
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem });
  try {
    await call(server, agent, 'POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
    const ms = await loadInWorker({
      url: server.url,
      caPem: server.caPem,
      kind: 'pods',
      namespace: 'bench',
      count: n,
      concurrency: 16,
    });
    return n / (ms / 1000);
  } finally {
    agent.destroy();
    await server.close();
  }
}

async function listLatency(): Promise<{ full: number; bytes: number; page: number; selected: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-rx-bench-'));
  try {
    // Seed the journal directly: 50,000 restored pods, no HTTP needed to fill the store.
    const lines = [JSON.stringify({ type: 'RV', rv: PODS + 10 })];
    lines.push(
      JSON.stringify({
        type: 'SNAPSHOT',
        rv: 1,
        resource: 'namespaces',
        key: 'bench',
        object: {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'bench', uid: 'u', resourceVersion: '1' },
        },
      }),
    );
    for (let i = 0; i < PODS; i++) {
      const pod = realisticPod(i);
      (pod.metadata as Record<string, unknown>).resourceVersion = String(i + 2);
      lines.push(
        JSON.stringify({
          type: 'SNAPSHOT',
          rv: i + 2,
          resource: 'pods',
          key: `bench/${pod.metadata.name}`,
          object: pod,
        }),
      );
    }
    writeFileSync(join(dir, JOURNAL_FILE), `${lines.join('\n')}\n`);
    const server = await startApiServer({ dataDir: dir });
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem });
    try {
      const time = async (path: string, runs: number) => {
        let best = Number.POSITIVE_INFINITY;
        let bytes = 0;
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          const r = await call(server, agent, 'GET', path);
          if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
          best = Math.min(best, performance.now() - t0);
          bytes = r.bytes;
        }
        return { ms: best, bytes };
      };
      const full = await time('/api/v1/namespaces/bench/pods', 3);
      const page = await time('/api/v1/namespaces/bench/pods?limit=500', 5);
      const selected = await time('/api/v1/namespaces/bench/pods?labelSelector=app%3Dapp-7', 5);
      return { full: full.ms, bytes: full.bytes, page: page.ms, selected: selected.ms };
    } finally {
      agent.destroy();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function watchFanOut(): Promise<{ seconds: number; delivered: number }> {
  const server = await startApiServer({ historyWindow: EVENTS * 2 });
  const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: server.caPem });
  try {
    await call(server, agent, 'POST', '/api/v1/namespaces', { metadata: { name: 'fan' } });
    let received = 0;
    const done: Promise<void>[] = [];
    const watchers: { destroy(): void }[] = [];
    for (let w = 0; w < WATCHERS; w++) {
      done.push(
        new Promise((resolve, reject) => {
          const req = request(
            new URL('/api/v1/namespaces/fan/configmaps?watch=true&resourceVersion=0', server.url),
            { ca: server.caPem, agent: false },
          );
          watchers.push(req);
          req.on('response', (res) => {
            let seen = 0;
            res.on('data', (c: Buffer) => {
              for (const b of c) if (b === 10) seen++;
              if (seen >= EVENTS) resolve();
            });
          });
          req.on('error', reject);
          req.end();
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    await loadInWorker({
      url: server.url,
      caPem: server.caPem,
      kind: 'configmaps',
      namespace: 'fan',
      count: EVENTS,
      concurrency: 16,
    });
    await Promise.all(done);
    const seconds = (performance.now() - t0) / 1000;
    received = WATCHERS * EVENTS;
    for (const w of watchers) w.destroy();
    return { seconds, delivered: received / seconds };
  } finally {
    agent.destroy();
    await server.close();
  }
}

async function main(): Promise<void> {
  const memory = await writesPerSecond(undefined, WRITES);
  const dir = mkdtempSync(join(tmpdir(), 'kube-rx-bench-dd-'));
  const durable = await writesPerSecond(dir, Math.min(WRITES, 2_000));
  rmSync(dir, { recursive: true, force: true });
  const list = await listLatency();
  const fan = await watchFanOut();

  const rows: [string, string][] = [
    ['creates/s, in memory (16 clients, HTTPS)', memory.toFixed(0)],
    ['creates/s, --data-dir (fsync per write)', durable.toFixed(0)],
    [
      `list ${PODS} pods (~3 KB each), full`,
      `${list.full.toFixed(0)} ms (${(list.bytes / 1e6).toFixed(0)} MB)`,
    ],
    [`list ${PODS} pods, limit=500 first page`, `${list.page.toFixed(1)} ms`],
    [`list ${PODS} pods, labelSelector (1/50)`, `${list.selected.toFixed(1)} ms`],
    [
      `watch fan-out ${WATCHERS} watchers x ${EVENTS} events`,
      `${fan.seconds.toFixed(2)} s (${(fan.delivered / 1000).toFixed(0)}k events/s delivered)`,
    ],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`${'measure'.padEnd(width)}  result`);
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

if (isMainThread) await main();
else parentPort!.postMessage(await load(workerData as LoadJob));
