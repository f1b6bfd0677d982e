// Informer benchmark: kube-rx's shared informer vs @kubernetes/client-node's informer vs a bare node:http baseline, against one loopback list/watch server.
//
// Run: `npm run bench -- informer` or `node bench/informer.ts` (Node 22). Knobs: BENCH_REPS, BENCH_LIST_PODS,
// BENCH_WATCH_PODS, BENCH_WATCH_EVENTS, BENCH_CLIENTS=kube-rx,baseline, BENCH_SKIP_SLOW=1,
// BENCH_INSTRUCTIONS=20000 (count instructions per event under valgrind instead of timing: ~15 minutes;
// free of the machine's timing noise, though a client's count still moves with how the stream is chunked:
// kube-rx's repeated within 0.5%, the baseline's within 7%; only the main thread is counted, since
// kube-rx's kubeconfig host thread does time-driven work that would fall into the longer run),
// BENCH_CHILD_FLAGS=--cpu-prof, and BENCH_KRX_STAGE=client|listwatch to time kube-rx's lower layers alone.
// For diagnosis: BENCH_CHILD_WRAP='perf record -k mono -e cpu-clock -o /tmp/perf-%c.data --' runs each child
// under a wrapper (%c: client-phase), BENCH_MARK=1 prints the watch window's CLOCK_MONOTONIC bounds (for
// `perf report --time`), BENCH_CHILD_LOG=file keeps each child's output (e.g. with BENCH_CHILD_FLAGS=--trace-gc)
// and callgrind's summary lines, BENCH_VALGRIND_FLAGS adds valgrind options (e.g. --cache-sim=yes), and
// BENCH_SETTLE_MS pauses before each child so that memory the previous child freed settles first,
// BENCH_RAW=file appends every child's result as a JSON line (for per-repetition analysis), and
// BENCH_HEAP_SNAPSHOT=dir writes each watch child's heap as it stands when the last event has arrived.
// The watch columns also show system time and minor page faults per event (fresh memory touched), and
// `events × paired`: the median over repetitions of the client's rate over the baseline's in the same
// repetition, which a machine drifting between repetitions moves less than the ratio of the medians.
// Besides events/s (wall clock), the watch phase reports each client's CPU time per event (all threads, GC
// included) and `CPU ×`, the baseline's CPU time per event over the client's (above 1: cheaper than the
// baseline), with its spread over the repetitions: on a shared 2-core machine one process' figure moves by
// ±15% from run to run, so read the median with its spread. The client order rotates per repetition, and the
// server encodes its watch events before any client connects, so that the client, not the server, sets the pace.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LIST_PODS = Number(process.env.BENCH_LIST_PODS ?? 50_000);
const WATCH_PODS = Number(process.env.BENCH_WATCH_PODS ?? 10_000);
const WATCH_EVENTS = Number(process.env.BENCH_WATCH_EVENTS ?? 100_000);
/** Fresh processes per client and phase: 9 by default, since one process' event rate moves by ±10% here. */
const REPS = Number(process.env.BENCH_REPS ?? 9);
/** `BENCH_INSTRUCTIONS=20000`: instead of timing, count instructions per watch event under callgrind (slow). */
const INSTR_EVENTS = Number(process.env.BENCH_INSTRUCTIONS ?? 0);
const ALL_CLIENTS = ['baseline', 'kube-rx', 'client-node'] as const;
type Client = (typeof ALL_CLIENTS)[number];
/** `BENCH_CLIENTS=kube-rx,baseline` runs only some (e.g. while profiling with `BENCH_CHILD_FLAGS=--cpu-prof`). */
const CLIENTS = ALL_CLIENTS.filter(
  (c) => !process.env.BENCH_CLIENTS || process.env.BENCH_CLIENTS.split(',').includes(c),
);
type Phase = 'list' | 'watch' | 'slow';

// ---------------------------------------------------------------------------------------------------
// Realistic pods: ~3 KB of JSON each, managedFields included. The resourceVersion and a label vary.

const BASE_RV = 1000;

function podJson(i: number, rv: number): string {
  const name = `web-${((i * 2654435761) % 1e9) >>> 0}-${i}`;
  const ns = `team-${i % 50}`;
  const pod = {
    metadata: {
      name,
      generateName: `web-${i % 97}-`,
      namespace: ns,
      uid: `5f3c${String(i).padStart(8, '0')}-8d2a-4c1e-9b7f-${String(rv).padStart(12, '0')}`,
      resourceVersion: String(rv),
      creationTimestamp: '2026-01-12T08:31:07Z',
      labels: { app: 'web', tier: 'frontend', 'pod-template-hash': `7d9f${i % 1000}`, rev: String(rv % 7) },
      annotations: {
        'kubectl.kubernetes.io/restartedAt': '2026-01-12T08:30:00Z',
        'prometheus.io/scrape': 'true',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `web-${i % 97}`,
          uid: 'a1b2c3d4-0000-4000-8000-000000000001',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-01-12T08:31:07Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:generateName': {},
              'f:labels': { '.': {}, 'f:app': {}, 'f:tier': {}, 'f:pod-template-hash': {} },
              'f:ownerReferences': { '.': {}, 'k:{"uid":"a1b2c3d4"}': {} },
            },
            'f:spec': {
              'f:containers': {
                'k:{"name":"web"}': {
                  '.': {},
                  'f:image': {},
                  'f:imagePullPolicy': {},
                  'f:name': {},
                  'f:ports': {},
                  'f:resources': {},
                },
              },
              'f:dnsPolicy': {},
              'f:restartPolicy': {},
            },
          },
        },
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-01-12T08:31:12Z',
          fieldsType: 'FieldsV1',
          subresource: 'status',
          fieldsV1: {
            'f:status': {
              'f:conditions': {},
              'f:containerStatuses': {},
              'f:hostIP': {},
              'f:phase': {},
              'f:podIP': {},
              'f:startTime': {},
            },
          },
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.example.com/team/web:1.27.3',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          ],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
          volumeMounts: [
            {
              name: 'kube-api-access',
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              readOnly: true,
            },
          ],
          readinessProbe: {
            httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' },
            periodSeconds: 10,
            timeoutSeconds: 1,
          },
          terminationMessagePath: '/dev/termination-log',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }],
            defaultMode: 420,
          },
        },
      ],
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: `node-${i % 500}`,
      schedulerName: 'default-scheduler',
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: '2026-01-12T08:31:07Z' },
        { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-12T08:31:12Z' },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: '2026-01-12T08:31:12Z' },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-01-12T08:31:07Z' },
      ],
      hostIP: `10.0.${(i >> 8) & 255}.${i & 255}`,
      podIP: `10.244.${(i >> 8) & 255}.${i & 255}`,
      startTime: '2026-01-12T08:31:07Z',
      containerStatuses: [
        {
          name: 'web',
          state: { running: { startedAt: '2026-01-12T08:31:11Z' } },
          ready: true,
          restartCount: 0,
          image: 'registry.example.com/team/web:1.27.3',
          imageID: 'registry.example.com/team/web@sha256:4f1c0a7e9b',
          containerID: `containerd://${String(i).padStart(16, '0')}`,
          started: true,
        },
      ],
      qosClass: 'Burstable',
    },
  };
  return `{"apiVersion":"v1","kind":"Pod",${JSON.stringify(pod).slice(1)}`;
}

// ---------------------------------------------------------------------------------------------------
// The loopback server: paginated lists (limit/continue) at resourceVersion BASE_RV, and a watch that
// streams MODIFIED events from there (respecting TCP backpressure), then stays open.

interface Dataset {
  pods: number;
  events: number;
}

function startServer(data: Dataset): Promise<{ url: string; close: () => Promise<void> }> {
  const items = Array.from({ length: data.pods }, (_, i) => podJson(i, BASE_RV - data.pods + i));
  const batches = encodeWatchBatches(data);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/api/v1/pods') {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"kind":"Status","code":404}');
      return;
    }
    if (url.searchParams.get('watch') === 'true') {
      serveWatch(res, Number(url.searchParams.get('resourceVersion') || BASE_RV), data, batches);
      return;
    }
    const limit = Number(url.searchParams.get('limit') || 0);
    const from = Number(url.searchParams.get('continue') || 0);
    const to = limit > 0 ? Math.min(items.length, from + limit) : items.length;
    const more = to < items.length ? `,"continue":"${to}","remainingItemCount":${items.length - to}` : '';
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write(
      `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${BASE_RV}"${more}},"items":[`,
    );
    const chunk = 200;
    let i = from;
    const pump = () => {
      while (i < to) {
        const end = Math.min(to, i + chunk);
        const part = (i === from ? '' : ',') + items.slice(i, end).join(',');
        i = end;
        if (!res.write(part)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end(']}');
    };
    pump();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

const BATCH = 16;
const eventLine = (n: number, data: Dataset) =>
  `{"type":"MODIFIED","object":${podJson(n % data.pods, BASE_RV + 1 + n)}}\n`;

/**
 * The watch's events, encoded once before any client connects, in batches of BATCH: the server then only
 * copies bytes, so on a 2-core machine the client under test, not the server's JSON encoding, sets the pace.
 */
function encodeWatchBatches(data: Dataset): Buffer[] {
  const batches: Buffer[] = [];
  for (let n = 0; n < data.events; n += BATCH) {
    let batch = '';
    for (let k = n; k < Math.min(data.events, n + BATCH); k++) batch += eventLine(k, data);
    batches.push(Buffer.from(batch));
  }
  return batches;
}

function serveWatch(res: http.ServerResponse, fromRV: number, data: Dataset, batches: Buffer[]): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  let n = Math.max(0, fromRV - BASE_RV);
  // a watch resumed mid-batch gets the rest of that batch encoded now, then the prepared batches
  if (n % BATCH !== 0 && n < data.events) {
    let head = '';
    for (; n % BATCH !== 0 && n < data.events; n++) head += eventLine(n, data);
    res.write(head);
  }
  let b = n / BATCH;
  const pump = () => {
    while (b < batches.length) {
      if (!res.write(batches[b++])) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

/** The expected final state of the watch dataset: per pod the rv of its last event. */
function expectedChecksum(data: Dataset): number {
  let sum = 0;
  for (let p = 0; p < data.pods; p++) {
    let last = BASE_RV - data.pods + p;
    for (let n = data.events - 1; n >= 0; n--) {
      if (n % data.pods === p) {
        last = BASE_RV + 1 + n;
        break;
      }
    }
    sum += last;
  }
  return sum;
}

// ---------------------------------------------------------------------------------------------------
// Child: one client, one phase, in a fresh process. Prints one JSON line.

interface Result {
  client: Client;
  phase: Phase;
  listMs?: number;
  peakRssMb?: number;
  bytesPerPod?: number;
  eventsPerSec?: number;
  /** CPU time (user + system) of the client's process per watch event, in µs: less sensitive to a busy machine. */
  cpuUsPerEvent?: number;
  /** Of which system time (page faults are charged there), µs per event. */
  sysUsPerEvent?: number;
  /** Minor page faults per 1,000 watch events: fresh memory the process touched. */
  faultsPerKEvent?: number;
  correct?: boolean;
  /** Which repetition (set by the parent). */
  rep?: number;
  samples?: { t: number; heapMb: number; pending: number; handled: number; received: number }[];
}

/**
 * This process' peak resident set in MB. Linux's VmHWM, not getrusage's maxRSS: maxRSS survives exec, so a
 * child spawned by a parent holding a large heap reports the parent's peak.
 */
function peakRssMb(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

function kubeconfig(url: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: bench, cluster: {server: "${url}", insecure-skip-tls-verify: true}}]`,
    'users: [{name: bench, user: {}}]',
    'contexts: [{name: bench, context: {cluster: bench, user: bench}}]',
    'current-context: bench',
  ].join('\n');
}

type KubeObjectLike = { metadata?: { namespace?: string; name?: string; resourceVersion?: string } };

/** What a client must offer the phases: start, a count of cached pods, a checksum of rvs, and an update counter. */
interface Running {
  size(): number;
  checksum(): number;
  updates(): number;
  stop(): void;
}

async function startClient(client: Client, url: string, onReady: () => void, slow = false): Promise<Running> {
  if (client === 'baseline') return startBaseline(url, onReady);
  if (client === 'kube-rx') return startKubeRx(url, onReady, slow);
  return startClientNode(url, onReady);
}

function startBaseline(url: string, onReady: () => void): Running {
  const cache = new Map<string, { metadata: { resourceVersion: string } }>();
  let updates = 0;
  let watchReq: http.ClientRequest | undefined;
  const key = (o: { metadata: { namespace?: string; name: string } }) =>
    `${o.metadata.namespace}/${o.metadata.name}`;
  http.get(`${url}/api/v1/pods`, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const list = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const item of list.items) cache.set(key(item), item);
      onReady();
      watchReq = http.get(
        `${url}/api/v1/pods?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
        (w) => {
          w.setEncoding('utf8');
          let pending = '';
          w.on('data', (text: string) => {
            const buf = pending + text;
            let start = 0;
            for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n', start)) {
              const event = JSON.parse(buf.slice(start, nl));
              start = nl + 1;
              if (event.type === 'DELETED') cache.delete(key(event.object));
              else cache.set(key(event.object), event.object);
              updates++;
            }
            pending = buf.slice(start);
          });
        },
      );
      watchReq.on('error', () => {});
    });
  });
  return {
    size: () => cache.size,
    checksum: () => [...cache.values()].reduce((s, o) => s + Number(o.metadata.resourceVersion), 0),
    updates: () => updates,
    stop: () => watchReq?.destroy(),
  };
}

/** Loads a client's modules before anything is measured, so import time and code size are not counted. */
async function preload(client: Client): Promise<void> {
  if (client === 'kube-rx') {
    await import('../streams/client-node/kube-api-client.ts');
    await import('../streams/api-client.ts');
    await import('../src/informers/shared-informer.ts');
    // kube-rx loads client-node in its kubeconfig host thread: start the host now (and keep it, by
    // leaving this connection open), as the other clients have client-node imported before timing
    const { loadKubeConnection } = await import('../streams/client-node/kube-config.ts');
    loadKubeConnection({ from: 'string', yaml: kubeconfig('http://127.0.0.1:9') });
  } else if (client === 'client-node') {
    await import('@kubernetes/client-node');
  }
}

async function startKubeRx(url: string, onReady: () => void, slow: boolean): Promise<Running> {
  const { kubeApiClient } = await import('../streams/client-node/kube-api-client.ts');
  const { listerWatcher } = await import('../streams/api-client.ts');
  const { sharedInformer } = await import('../src/informers/shared-informer.ts');
  const api = kubeApiClient({ kubeConfig: { from: 'string', yaml: kubeconfig(url) } });
  const PODS = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
  const stage = process.env.BENCH_KRX_STAGE;
  if (stage) {
    const { listWatch } = await import('../streams/list-watch.ts');
    const cache = new Map<string, KubeObjectLike>();
    let n = 0;
    const key = (o: KubeObjectLike) => `${o.metadata?.namespace}/${o.metadata?.name}`;
    const sub =
      stage === 'client'
        ? api.list(PODS).subscribe((list) => {
            for (const o of list.items) cache.set(key(o), o);
            onReady();
            api.watch(PODS, { resourceVersion: list.metadata.resourceVersion }).subscribe((e) => {
              cache.set(key(e.object), e.object);
              n++;
            });
          })
        : listWatch(listerWatcher(api, PODS), { watchList: false }).subscribe((e) => {
            if (e.type === 'Replace') {
              for (const o of e.items) cache.set(key(o), o);
              onReady();
            } else if (e.type !== 'Bookmark') {
              cache.set(key(e.object), e.object);
              n++;
            }
          });
    return {
      size: () => cache.size,
      checksum: () => [...cache.values()].reduce((s, o) => s + Number(o.metadata?.resourceVersion), 0),
      updates: () => n,
      stop: () => sub.unsubscribe(),
    };
  }
  const informer = sharedInformer({
    source: listerWatcher(api, PODS),
    name: 'pods',
    listWatch: { watchList: false },
    ...(process.env.BENCH_FREEZE ? { freeze: process.env.BENCH_FREEZE as 'none' } : {}),
  });
  let updates = 0;
  let handled = 0;
  const reg = informer.addEventHandler({
    onUpdate: slow
      ? () => {
          handled++;
          return new Promise<void>((r) => setTimeout(r, 1));
        }
      : () => {
          updates++;
        },
  });
  const syncSub = informer.hasSynced$.subscribe((s) => {
    if (s) onReady();
  });
  if (slow) {
    // the slow handler must not slow the cache: count what arrives through a second, fast handler
    informer.addEventHandler({
      onUpdate: () => {
        updates++;
      },
    });
  }
  return {
    size: () => informer.getStore().size,
    checksum: () =>
      informer
        .getStore()
        .list()
        .reduce((s, o) => s + Number(o.metadata?.resourceVersion), 0),
    updates: () => updates,
    stop: () => {
      syncSub.unsubscribe();
      reg.remove();
      api.close();
    },
    ...(slow ? { pending: () => reg.pending, handled: () => handled } : {}),
  } as Running;
}

async function startClientNode(url: string, onReady: () => void): Promise<Running> {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfig(url));
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, '/api/v1/pods', () => core.listPodForAllNamespaces());
  let updates = 0;
  informer.on('update', () => {
    updates++;
  });
  informer.on('error', () => {});
  await informer.start();
  onReady();
  return {
    size: () => informer.list().length,
    checksum: () => informer.list().reduce((s, o) => s + Number(o.metadata?.resourceVersion), 0),
    updates: () => updates,
    stop: () => {
      void informer.stop();
    },
  };
}

/**
 * `BENCH_MARK=1`: the watch window's CLOCK_MONOTONIC bounds on stderr (for `perf report --time`);
 * `BENCH_MARK=stdout`: in the child's output instead, between V8's traces (with BENCH_CHILD_LOG).
 */
function mark(what: 'window' | 'end', client: Client): void {
  const where = process.env.BENCH_MARK;
  if (!where) return;
  (where === 'stdout' ? process.stdout : process.stderr).write(
    `${what} ${client} ${Number(process.hrtime.bigint()) / 1e9}\n`,
  );
}

async function child(
  client: Client,
  phase: Phase,
  url: string,
  pods: number,
  events: number,
  checksum: number,
) {
  setTimeout(() => {
    process.stderr.write(`${client} ${phase}: gave up after 10 minutes\n`);
    process.exit(1);
  }, 600_000).unref();
  await preload(client);
  const before = heap();
  const t0 = performance.now();
  let tReady = 0;
  let resolveReady = () => {};
  const ready = new Promise<void>((r) => {
    resolveReady = r;
  });
  const running = await startClient(
    client,
    url,
    () => {
      if (tReady === 0) tReady = performance.now();
      resolveReady();
    },
    phase === 'slow',
  );
  await ready;
  const result: Result = { client, phase };
  if (phase === 'list') {
    while (running.size() < pods) await new Promise((r) => setTimeout(r, 1));
    result.listMs = (tReady || performance.now()) - t0;
    result.peakRssMb = peakRssMb();
    result.bytesPerPod = (heap() - before) / pods;
    result.correct = running.size() === pods;
  } else {
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    const faults0 = process.resourceUsage().minorPageFault;
    mark('window', client);
    const samples: NonNullable<Result['samples']> = [];
    const extra = running as Running & { pending?: () => number; handled?: () => number };
    while (running.updates() < events) {
      // under callgrind a poll costs ~50 times as long: poll less, so that polling stays out of the count
      await new Promise((r) => setTimeout(r, phase === 'slow' ? 100 : INSTR_EVENTS > 0 ? 50 : 2));
      if (phase === 'slow') {
        samples.push({
          t: Math.round(performance.now() - start),
          heapMb: Math.round(heap() / 1e5) / 10,
          pending: extra.pending?.() ?? 0,
          handled: extra.handled?.() ?? 0,
          received: running.updates(),
        });
      }
    }
    result.eventsPerSec = events / ((performance.now() - start) / 1000);
    mark('end', client);
    const cpu = process.cpuUsage(cpu0);
    result.cpuUsPerEvent = (cpu.user + cpu.system) / events;
    result.sysUsPerEvent = cpu.system / events;
    result.faultsPerKEvent = ((process.resourceUsage().minorPageFault - faults0) * 1000) / events;
    if (process.env.BENCH_HEAP_SNAPSHOT) {
      // what the client holds while it watches, before the checks below read its cache
      const { writeHeapSnapshot } = await import('node:v8');
      writeHeapSnapshot(
        join(process.env.BENCH_HEAP_SNAPSHOT, `${client}-${phase}-${process.pid}.heapsnapshot`),
      );
    }
    result.correct = running.size() === pods && running.checksum() === checksum;
    if (phase === 'slow') result.samples = samples;
  }
  running.stop();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------
// Parent: servers, fresh processes, medians, ratios.

/** `BENCH_SETTLE_MS`: a pause before each child, so that memory freed by the previous one settles first. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 0);

async function runChild(args: string[]): Promise<Result> {
  if (SETTLE_MS > 0) await new Promise((r) => setTimeout(r, SETTLE_MS));
  return new Promise((resolve, reject) => {
    const flags = (process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean);
    const wrap = (process.env.BENCH_CHILD_WRAP ?? '')
      .split(' ')
      .filter(Boolean)
      .map((w) => w.replace('%c', `${args[1]}-${args[2]}`));
    const p = spawn(
      wrap[0] ?? process.execPath,
      [
        ...wrap.slice(1),
        ...(wrap.length ? [process.execPath] : []),
        '--expose-gc',
        '--max-old-space-size=4096',
        ...flags,
        import.meta.filename,
        ...args,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    p.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    p.on('exit', (code) => {
      if (process.env.BENCH_CHILD_LOG)
        appendFileSync(process.env.BENCH_CHILD_LOG, `== ${args[1]} ${args[2]}\n${out}`);
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as Result);
      } catch {
        reject(new Error(`child ${args.join(' ')} exited ${code}: ${out.slice(0, 500)}`));
      }
    });
  });
}

/**
 * Instructions the main thread of one child executes, counted by callgrind (V8 on one thread, so that its
 * GC and compiler work is counted the same way in every client). Each thread is counted apart and only the
 * main one is kept: kube-rx's kubeconfig host thread does time-driven work (collecting its freshly loaded
 * heap) that would otherwise fall into whichever run lasts longer.
 */
function countInstructions(args: string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  return new Promise<number>((resolve, reject) => {
    const p = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--separate-threads=yes',
        `--callgrind-out-file=${join(dir, 'out')}`,
        ...(process.env.BENCH_VALGRIND_FLAGS ?? '').split(' ').filter(Boolean),
        process.execPath,
        '--single-threaded',
        '--expose-gc',
        '--max-old-space-size=4096',
        import.meta.filename,
        ...args,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    p.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    p.on('error', (error) =>
      reject(new Error(`valgrind could not start (is it installed?): ${error.message}`)),
    );
    p.on('exit', (code) => {
      // callgrind names the files out-01, out-02, … by thread; 01 is the main thread
      const mainFile = readdirSync(dir).find((f) => f.endsWith('-01'));
      const totals = mainFile
        ? /^(?:totals|summary): (.+)$/m.exec(readFileSync(join(dir, mainFile), 'utf8'))?.[1]
        : undefined;
      if (process.env.BENCH_CHILD_LOG) {
        const lines = err.split('\n').filter((l) => /Collected|Events/.test(l));
        appendFileSync(
          process.env.BENCH_CHILD_LOG,
          `== ${args.join(' ')}\n${lines.join('\n')}\nmain thread: ${totals ?? '?'}\n`,
        );
      }
      if (code === 0 && totals) resolve(Number(totals.split(' ')[0]));
      else reject(new Error(`valgrind ${args.join(' ')} exited ${code}: ${err.slice(-500)}`));
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/**
 * A client's instructions per watch event: two children, one applying INSTR_EVENTS events and one twice
 * as many, run side by side; their difference leaves out start-up, the initial list and everything else
 * that does not grow with the events.
 */
async function instructionsPerEvent(client: Client, url: string): Promise<number> {
  const run = (events: number) =>
    countInstructions(['--child', client, 'watch', url, String(WATCH_PODS), String(events), '0']);
  const [one, two] = await Promise.all([run(INSTR_EVENTS), run(2 * INSTR_EVENTS)]);
  return (two - one) / INSTR_EVENTS;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  // counting instructions runs only watch children: no need to encode the 50,000-pod list
  const listData = { pods: INSTR_EVENTS > 0 ? 0 : LIST_PODS, events: 0 };
  const watchData = { pods: WATCH_PODS, events: WATCH_EVENTS };
  const listServer = await startServer(listData);
  const watchServer = await startServer(watchData);
  const checksum = expectedChecksum(watchData);
  console.log(
    `informer benchmark: list ${LIST_PODS} pods (${podJson(0, 1).length} B each), then ${WATCH_EVENTS} watch events on ${WATCH_PODS} pods; ${REPS} fresh processes per client and phase; node ${process.version}`,
  );
  const results: Result[] = [];
  try {
    if (INSTR_EVENTS > 0) {
      if (2 * INSTR_EVENTS > WATCH_EVENTS)
        throw new Error('BENCH_INSTRUCTIONS must be at most half of BENCH_WATCH_EVENTS');
      console.log(
        `instructions per watch event (callgrind; ${INSTR_EVENTS} and ${2 * INSTR_EVENTS} events, difference over ${INSTR_EVENTS}):`,
      );
      const counts = new Map<Client, number>();
      for (const client of CLIENTS) counts.set(client, await instructionsPerEvent(client, watchServer.url));
      const base = counts.get('baseline');
      console.table(
        CLIENTS.map((client) => ({
          client,
          'instructions/event': Math.round(counts.get(client)!),
          'instructions ×': base === undefined ? '-' : (base / counts.get(client)!).toFixed(3),
        })),
      );
      return;
    }
    for (let rep = 0; rep < REPS; rep++) {
      // the order rotates from one repetition to the next, so that no client always runs first or last
      const order = CLIENTS.map((_, i) => CLIENTS[(i + rep) % CLIENTS.length]!);
      for (const client of order) {
        results.push({
          ...(await runChild(['--child', client, 'list', listServer.url, String(LIST_PODS), '0', '0'])),
          rep,
        });
        results.push({
          ...(await runChild([
            '--child',
            client,
            'watch',
            watchServer.url,
            String(WATCH_PODS),
            String(WATCH_EVENTS),
            String(checksum),
          ])),
          rep,
        });
      }
    }
    if (process.env.BENCH_RAW) {
      appendFileSync(process.env.BENCH_RAW, results.map((r) => `${JSON.stringify(r)}\n`).join(''));
    }
    /**
     * A client's ratio to the baseline in each repetition (the baseline's figure over the client's for a
     * cost, the client's over the baseline's for a rate), sorted: the spread, and a median that is robust
     * against the machine speeding up or slowing down between repetitions.
     */
    const perRep = (client: Client, field: 'cpuUsPerEvent' | 'eventsPerSec') =>
      Array.from({ length: REPS }, (_, rep) => {
        const at = (c: Client) =>
          results.find((r) => r.client === c && r.phase === 'watch' && r.rep === rep)?.[field] ?? Number.NaN;
        return field === 'eventsPerSec' ? at(client) / at('baseline') : at('baseline') / at(client);
      }).sort((a, b) => a - b);
    const spread = (xs: number[]) => `${xs[0]!.toFixed(2)}–${xs.at(-1)!.toFixed(2)}`;

    const stat = (client: Client, phase: Phase, field: keyof Result) =>
      median(results.filter((r) => r.client === client && r.phase === phase).map((r) => r[field] as number));
    const ok = (client: Client) => results.filter((r) => r.client === client).every((r) => r.correct);
    const base = {
      listMs: stat('baseline', 'list', 'listMs'),
      bytesPerPod: stat('baseline', 'list', 'bytesPerPod'),
      eventsPerSec: stat('baseline', 'watch', 'eventsPerSec'),
    };
    const rows = CLIENTS.map((client) => {
      const listMs = stat(client, 'list', 'listMs');
      const bytesPerPod = stat(client, 'list', 'bytesPerPod');
      const eventsPerSec = stat(client, 'watch', 'eventsPerSec');
      const rateRatios = perRep(client, 'eventsPerSec');
      return {
        client,
        'list ms': Math.round(listMs),
        'list ×': (listMs / base.listMs).toFixed(2),
        'peak RSS MB': Math.round(stat(client, 'list', 'peakRssMb')),
        'heap B/pod': Math.round(bytesPerPod),
        'mem ×': (bytesPerPod / base.bytesPerPod).toFixed(2),
        'events/s': Math.round(eventsPerSec),
        'events ×': (eventsPerSec / base.eventsPerSec).toFixed(2),
        'CPU µs/event': stat(client, 'watch', 'cpuUsPerEvent').toFixed(1),
        'CPU ×': (
          stat('baseline', 'watch', 'cpuUsPerEvent') / stat(client, 'watch', 'cpuUsPerEvent')
        ).toFixed(2),
        'sys µs/event': stat(client, 'watch', 'sysUsPerEvent').toFixed(1),
        'faults/1k events': Math.round(stat(client, 'watch', 'faultsPerKEvent')),
        'events × paired': median(rateRatios).toFixed(2),
        'events × per rep': spread(rateRatios),
        'CPU × per rep': spread(perRep(client, 'cpuUsPerEvent')),
        'cache = server': ok(client) ? 'yes' : 'NO',
      };
    });
    console.table(rows);
    if (!CLIENTS.includes('kube-rx') || process.env.BENCH_SKIP_SLOW) return;
    const slow = await runChild([
      '--child',
      'kube-rx',
      'slow',
      watchServer.url,
      String(WATCH_PODS),
      String(WATCH_EVENTS),
      String(checksum),
    ]);
    const samples = slow.samples ?? [];
    const maxHeap = Math.max(...samples.map((s) => s.heapMb));
    const maxPending = Math.max(...samples.map((s) => s.pending));
    console.log(
      `slow consumer (kube-rx, a handler taking ≥1 ms per notification while ${WATCH_EVENTS} events arrive; ` +
        'heap sampled after a forced GC every 100 ms, which slows this run): ' +
        `a second handler and the cache kept up at ${Math.round(slow.eventsPerSec ?? 0)} events/s, correct=${slow.correct}; ` +
        `its buffer peaked at ${maxPending} notifications (${WATCH_PODS} keys); heap peaked at ${maxHeap} MB; ` +
        `the slow handler handled ${samples.at(-1)?.handled ?? 0} coalesced notifications meanwhile`,
    );
    const step = Math.max(1, Math.floor(samples.length / 8));
    console.table(samples.filter((_, i) => i % step === 0 || i === samples.length - 1));
  } finally {
    await listServer.close();
    await watchServer.close();
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const [, client, phase, url, pods, events, checksum] = args;
  await child(client as Client, phase as Phase, url!, Number(pods), Number(events), Number(checksum));
} else {
  await main();
}
