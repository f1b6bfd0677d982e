// Benchmark of the embedded API server on each storage engine: creates/s, list latency, watch fan-out, restart.
// Run: npm run bench -- apiserver   (prints a table; numbers are for this machine only)
// Knobs: BENCH_ENGINES=memory,sqlite,etcd  BENCH_PARTS=creates,restart,watch  BENCH_WRITES  BENCH_PODS (list)  BENCH_RESTART_OBJECTS  BENCH_WATCHERS  BENCH_EVENTS
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';
import { JOURNAL_FILE } from '../src/apiserver/file-journal.ts';
import { type ApiServerOptions, type RunningApiServer, startApiServer } from '../src/apiserver/index.ts';
import { PROTOBUF_CONTENT_TYPE } from '../src/apiserver/protobuf/content-types.ts';
import { encodeObject } from '../src/apiserver/protobuf/object-codec.ts';
import {
  ETCD_BINARY,
  type PrivateEtcd,
  startPrivateEtcd,
} from '../test/src/apiserver/storage/private-etcd.ts';

type Engine = 'memory' | 'sqlite' | 'etcd';
const ENGINES = (process.env.BENCH_ENGINES ?? 'memory,sqlite,etcd').split(',') as Engine[];
const PODS = Number(process.env.BENCH_PODS ?? 50_000);
const WRITES = Number(process.env.BENCH_WRITES ?? 3_000);
const RESTART_OBJECTS = Number(process.env.BENCH_RESTART_OBJECTS ?? 100_000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 100);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
const CLIENTS = 16;
/** Which measures to run: creates, restart (with the lists), watch. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'creates,restart,watch').split(','));

type Server = Pick<RunningApiServer, 'url' | 'caPem' | 'token'>;

function call(
  server: Server,
  agent: Agent,
  method: string,
  path: string,
  body?: unknown,
  form: 'json' | 'protobuf' = 'json',
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const payload =
      body === undefined ? undefined : form === 'protobuf' ? encodeObject(body) : JSON.stringify(body);
    const req = request(new URL(path, server.url), {
      method,
      agent,
      headers: {
        ...(server.token ? { Authorization: `Bearer ${server.token}` } : {}),
        ...(payload
          ? {
              'Content-Type': form === 'protobuf' ? PROTOBUF_CONTENT_TYPE : 'application/json',
              'Content-Length': Buffer.byteLength(payload),
            }
          : {}),
      },
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
  server: Server;
  kind: 'pods' | 'configmaps';
  form: 'json' | 'protobuf';
  namespace: string;
  count: number;
}

/** Creates `count` objects with CLIENTS clients; runs in a worker thread so the server keeps its own. */
async function load(job: LoadJob): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS, ca: job.server.caPem });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < job.count) {
        const i = next++;
        let body: unknown;
        if (job.kind === 'pods') {
          const pod = realisticPod(i, job.namespace);
          delete (pod as { status?: unknown }).status;
          body = pod;
        } else {
          body = {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i}` },
            data: { i: String(i) },
          };
        }
        const path = `/api/v1/namespaces/${job.namespace}/${job.kind}`;
        const r = await call(job.server, agent, 'POST', path, body, job.form);
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

const plain = (s: RunningApiServer): Server => ({ url: s.url, caPem: s.caPem, token: s.token });

/** Where each engine's server keeps its objects; etcd gets a fresh prefix per use. */
class Engines {
  private etcd: PrivateEtcd | undefined;
  private prefixes = 0;
  private readonly dirs: string[] = [];
  async etcdUrl(): Promise<string> {
    this.etcd ??= await startPrivateEtcd(3600);
    return this.etcd.url;
  }
  dir(): string {
    const d = mkdtempSync(join(tmpdir(), 'kube-rx-bench-'));
    this.dirs.push(d);
    return d;
  }
  async options(engine: Engine, dir = this.dir()): Promise<ApiServerOptions> {
    if (engine === 'memory') return {};
    if (engine === 'sqlite') return { dataDir: dir };
    return { dataDir: dir, etcdServers: [await this.etcdUrl()], etcdPrefix: `/bench-${++this.prefixes}` };
  }
  async close(): Promise<void> {
    await this.etcd?.stop();
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}

async function createsPerSecond(
  engines: Engines,
  engine: Engine,
  form: 'json' | 'protobuf',
): Promise<number> {
  const server = await startApiServer(await engines.options(engine));
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem });
  try {
    await call(server, agent, 'POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
    const ms = await loadInWorker({
      server: plain(server),
      kind: 'pods',
      form,
      namespace: 'bench',
      count: WRITES,
    });
    return WRITES / (ms / 1000);
  } finally {
    agent.destroy();
    await server.close();
  }
}

const namespaceObject = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, uid: `uid-${name}`, resourceVersion: '1' },
});

/** RESTART_OBJECTS pods, PODS of them in namespace `bench`, the rest in `bench-rest`. */
function* seedPods(): Generator<{ key: string; pod: ReturnType<typeof realisticPod> }> {
  for (let i = 0; i < RESTART_OBJECTS; i++) {
    const pod = realisticPod(i, i < PODS ? 'bench' : 'bench-rest');
    yield { key: `${pod.metadata.namespace}/${pod.metadata.name}`, pod };
  }
}

/** Seeds a data dir as the old JSONL journal did; the first start migrates it into SQLite. */
function seedSqlite(dir: string): void {
  const lines = [
    JSON.stringify({
      type: 'SNAPSHOT',
      rv: 1,
      resource: 'namespaces',
      key: 'bench',
      object: namespaceObject('bench'),
    }),
    JSON.stringify({
      type: 'SNAPSHOT',
      rv: 1,
      resource: 'namespaces',
      key: 'bench-rest',
      object: namespaceObject('bench-rest'),
    }),
  ];
  let rv = 1;
  for (const { key, pod } of seedPods()) {
    (pod.metadata as Record<string, unknown>).resourceVersion = String(++rv);
    lines.push(JSON.stringify({ type: 'ADDED', rv, resource: 'pods', key, object: pod }));
  }
  writeFileSync(join(dir, JOURNAL_FILE), `${lines.join('\n')}\n`);
}

/** Seeds etcd directly under `prefix`, 64 puts in flight. */
async function seedEtcd(url: string, prefix: string): Promise<void> {
  const client = new Etcd3({ hosts: url });
  try {
    await client.put(`${prefix}/namespaces/bench`).value(JSON.stringify(namespaceObject('bench')));
    await client.put(`${prefix}/namespaces/bench-rest`).value(JSON.stringify(namespaceObject('bench-rest')));
    const pods = seedPods();
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        for (let n = pods.next(); !n.done; n = pods.next())
          await client.put(`${prefix}/pods/${n.value.key}`).value(JSON.stringify(n.value.pod));
      }),
    );
  } finally {
    client.close();
  }
}

interface Stored {
  firstStartMs?: number;
  restartMs: number;
  listFull: number;
  listBytes: number;
  listPage: number;
  listSelected: number;
}

/**
 * Restart time over RESTART_OBJECTS stored pods, then list latency over the PODS in one namespace.
 * The restarted server runs in a fresh process (as a real restart does), not in this one's heap.
 */
async function restartAndList(engines: Engines, engine: 'sqlite' | 'etcd'): Promise<Stored> {
  const options = await engines.options(engine);
  let firstStartMs: number | undefined;
  if (engine === 'sqlite') {
    seedSqlite(options.dataDir!);
    firstStartMs = (await inFreshProcess(options, false)).restartMs;
  } else await seedEtcd(options.etcdServers![0]!, options.etcdPrefix!);
  return {
    ...(firstStartMs !== undefined ? { firstStartMs } : {}),
    ...(await inFreshProcess(options, true)),
  };
}

function inFreshProcess(options: ApiServerOptions, list: boolean): Promise<Omit<Stored, 'firstStartMs'>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_RESTART: JSON.stringify({ options, list }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!))
        : reject(new Error(`restart child exited with ${code}`)),
    );
  });
}

/** In the fresh process: start over the stored objects, time it, then time the lists. */
async function restartChild(options: ApiServerOptions, list: boolean): Promise<Omit<Stored, 'firstStartMs'>> {
  const t0 = performance.now();
  const server = await startApiServer(options);
  const restartMs = performance.now() - t0;
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem });
  try {
    if (!list) return { restartMs, listFull: 0, listBytes: 0, listPage: 0, listSelected: 0 };
    const time = async (path: string, runs: number) => {
      let best = Number.POSITIVE_INFINITY;
      let bytes = 0;
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const r = await call(server, agent, 'GET', path);
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
        best = Math.min(best, performance.now() - t);
        bytes = r.bytes;
      }
      return { ms: best, bytes };
    };
    const full = await time('/api/v1/namespaces/bench/pods', 3);
    const page = await time('/api/v1/namespaces/bench/pods?limit=500', 5);
    const selected = await time('/api/v1/namespaces/bench/pods?labelSelector=app%3Dapp-7', 5);
    return {
      restartMs,
      listFull: full.ms,
      listBytes: full.bytes,
      listPage: page.ms,
      listSelected: selected.ms,
    };
  } finally {
    agent.destroy();
    await server.close();
  }
}

async function watchFanOut(
  engines: Engines,
  engine: Engine,
): Promise<{ seconds: number; delivered: number }> {
  const server = await startApiServer({ ...(await engines.options(engine)), historyWindow: EVENTS * 2 });
  const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: server.caPem });
  const watchers: { destroy(): void }[] = [];
  try {
    await call(server, agent, 'POST', '/api/v1/namespaces', { metadata: { name: 'fan' } });
    const done: Promise<void>[] = [];
    const opened: Promise<void>[] = [];
    for (let w = 0; w < WATCHERS; w++) {
      let markOpen!: () => void;
      opened.push(new Promise((r) => (markOpen = r)));
      done.push(
        new Promise((resolve, reject) => {
          const req = request(
            new URL('/api/v1/namespaces/fan/configmaps?watch=true&resourceVersion=0', server.url),
            {
              ca: server.caPem,
              agent: false,
              headers: { Authorization: `Bearer ${server.token}` },
            },
          );
          watchers.push(req);
          req.on('response', (res) => {
            markOpen();
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
    await Promise.all(opened);
    const t0 = performance.now();
    await loadInWorker({
      server: plain(server),
      kind: 'configmaps',
      form: 'json',
      namespace: 'fan',
      count: EVENTS,
    });
    await Promise.all(done);
    const seconds = (performance.now() - t0) / 1000;
    return { seconds, delivered: (WATCHERS * EVENTS) / seconds };
  } finally {
    for (const w of watchers) w.destroy();
    agent.destroy();
    await server.close();
  }
}

async function main(): Promise<void> {
  const engines = new Engines();
  const rows: [string, string][] = [];
  const run = ENGINES.filter((e) => e !== 'etcd' || ETCD_BINARY);
  if (run.length < ENGINES.length)
    rows.push(['etcd', 'skipped: no etcd binary on PATH (Debian package etcd-server)']);
  try {
    for (const engine of PARTS.has('creates') ? run : []) {
      for (const form of ['json', 'protobuf'] as const) {
        const rate = await createsPerSecond(engines, engine, form);
        rows.push([
          `creates/s, ${engine}, ${form} bodies (${CLIENTS} clients, ${WRITES} pods)`,
          rate.toFixed(0),
        ]);
      }
    }
    for (const engine of PARTS.has('restart') ? run : []) {
      if (engine === 'memory') continue;
      const s = await restartAndList(engines, engine);
      if (s.firstStartMs !== undefined)
        rows.push([
          `first start, ${engine}, migrating a ${RESTART_OBJECTS}-pod JSONL journal`,
          `${s.firstStartMs.toFixed(0)} ms`,
        ]);
      rows.push([`restart, ${engine}, ${RESTART_OBJECTS} pods stored`, `${s.restartMs.toFixed(0)} ms`]);
      rows.push([
        `list ${PODS} pods (~3 KB each), ${engine}, full`,
        `${s.listFull.toFixed(0)} ms (${(s.listBytes / 1e6).toFixed(0)} MB)`,
      ]);
      rows.push([`list ${PODS} pods, ${engine}, limit=500 first page`, `${s.listPage.toFixed(1)} ms`]);
      rows.push([`list ${PODS} pods, ${engine}, labelSelector (1/50)`, `${s.listSelected.toFixed(1)} ms`]);
    }
    for (const engine of PARTS.has('watch') ? run : []) {
      const fan = await watchFanOut(engines, engine);
      rows.push([
        `watch fan-out, ${engine}, ${WATCHERS} watchers x ${EVENTS} events`,
        `${fan.seconds.toFixed(2)} s (${(fan.delivered / 1000).toFixed(0)}k events/s delivered)`,
      ]);
    }
  } finally {
    await engines.close();
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`${'measure'.padEnd(width)}  result`);
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  console.log(
    `load average (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
}

if (process.env.BENCH_RESTART) {
  const { options, list } = JSON.parse(process.env.BENCH_RESTART) as {
    options: ApiServerOptions;
    list: boolean;
  };
  console.log(JSON.stringify(await restartChild(options, list)));
} else if (isMainThread) await main();
else parentPort!.postMessage(await load(workerData as LoadJob));
