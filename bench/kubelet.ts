// Kubelet benchmark: pod start latency (bound → Running, as watch events from the embedded API server show it) on the process and simulated runtimes.
//
// Run: `npm run bench -- kubelet` or `node --expose-gc bench/kubelet.ts` (Node 22). Each runtime runs in its own
// fresh process (this file re-runs itself with BENCH_CHILD=<runtime>).
// Knobs: BENCH_RUNTIMES=process,simulated (default both), BENCH_PROCESS_PODS (default 100, one node),
// BENCH_SIM_PODS (default 3,000) on BENCH_SIM_NODES simulated kubelets in one process (default 30),
// BENCH_SCALE=0.1 (multiplies the pod counts), BENCH_CREATE_CONCURRENCY (default 32), BENCH_CREATE_RATE (pods
// per second, default unpaced), BENCH_TIMEOUT_MS,
// BENCH_CHILD_FLAGS=--cpu-prof, BENCH_PROFILE_DIR=/tmp/prof (a CPU profile from the first create to the last
// pod Running, <runtime>.cpuprofile).
//
// Each pod is created already bound (spec.nodeName set) with one container running `sleep 3600`. A watch on
// pods, opened before the first create, stamps each pod's ADDED event (bound) and the first event whose
// status.phase is Running; the latency is the difference, both as seen in the API server's watch. `status
// updates/s` is the MODIFIED pod events per second between the first ADDED and the last Running. `memory/pod`
// is the growth of this process' RSS (API server, clients and kubelets share it) from before the first create
// to when every pod runs, over the pods; the process runtime's container processes are not counted in it.
// `CPU ms/pod` is this process' CPU time (user + system) from the first create to the last Running, per pod:
// the whole control plane's cost of a pod start, which the load of other processes moves little.
// Beside: the upstream pod-startup SLO (p99 ≤ 5 s, image pulls excluded) and issue 13's aim (p99 < 200 ms).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { firstValueFrom } from 'rxjs';
import type { Pod } from '../operators/api/core-v1.ts';
import type { KubeObject } from '../operators/types.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import { defaultKubeletConfiguration } from '../src/kubelet/kubelet-configuration.ts';
import { runKubelets } from '../src/kubelet/run-kubelets.ts';
import { kubeApiClient } from '../streams/client-node/kube-api-client.ts';
import { PODS } from '../streams/resources.ts';
import { fmt, machineLine, pooled, printTable, quantile } from './lib/stats.ts';

type Runtime = 'process' | 'simulated';
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const CONCURRENCY = Number(process.env.BENCH_CREATE_CONCURRENCY ?? 32);
const SLO_P99_MS = 5000;
const AIM_P99_MS = 200;

interface Result {
  runtime: Runtime;
  nodes: number;
  pods: number;
  running: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statusUpdatesPerSecond: number;
  memoryPerPodKiB: number;
  seconds: number;
  /** CPU time (user + system, all threads) of this process per pod, from the first create to the last Running. */
  cpuMsPerPod: number;
}

function benchPod(i: number, nodeName: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `start-${String(i).padStart(5, '0')}`,
      namespace: 'default',
      labels: { bench: 'kubelet' },
    },
    spec: {
      nodeName,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'sleep', image: 'busybox', command: ['sleep', '3600'] }],
    },
  } as Pod;
}

async function runChild(runtime: Runtime): Promise<Result> {
  const nodes = runtime === 'process' ? 1 : Number(process.env.BENCH_SIM_NODES ?? 30);
  const pods = Math.max(
    1,
    Math.round(
      (runtime === 'process'
        ? Number(process.env.BENCH_PROCESS_PODS ?? 100)
        : Number(process.env.BENCH_SIM_PODS ?? 3000)) * SCALE,
    ),
  );
  const server = await startApiServer({});
  const make = () =>
    kubeApiClient({ kubeConfig: { from: 'string', yaml: server.kubeconfig }, qps: Number.POSITIVE_INFINITY });
  const kubeletClient = make();
  const benchClient = make();
  const kubelets = await runKubelets({
    client: kubeletClient,
    nodeName: 'bench-node',
    config: defaultKubeletConfiguration(),
    runtime,
    ...(runtime === 'simulated' ? { simulatedNodes: nodes } : {}),
  });
  const bound = new Map<string, number>();
  const started = new Map<string, number>();
  let modified = 0;
  let firstAdded = Number.NaN;
  let allRunning!: () => void;
  const done = new Promise<void>((resolve) => {
    allRunning = resolve;
  });
  const watch = benchClient.watch<Pod & KubeObject>(PODS, { namespace: 'default' }).subscribe((event) => {
    const now = performance.now();
    if (event.type === 'ERROR' || event.type === 'BOOKMARK') return;
    const name = event.object.metadata?.name ?? '';
    if (event.type === 'ADDED' && event.object.spec?.nodeName && !bound.has(name)) {
      bound.set(name, now);
      if (Number.isNaN(firstAdded)) firstAdded = now;
    }
    if (event.type === 'MODIFIED') modified++;
    if (event.object.status?.phase === 'Running' && !started.has(name) && bound.has(name)) {
      started.set(name, now);
      if (started.size === pods) allRunning();
    }
  });
  // Let the watch open before the first create.
  await new Promise((r) => setTimeout(r, 500));
  global.gc?.();
  const rssBefore = process.memoryUsage.rss();
  const cpu0 = process.cpuUsage();
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profiler = profileDir ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  // With BENCH_CREATE_RATE, create i is not sent before i / rate seconds: pods arrive at a steady pace.
  const rate = Number(process.env.BENCH_CREATE_RATE ?? 0);
  const createStart = performance.now();
  await pooled(pods, CONCURRENCY, async (i) => {
    const due = rate > 0 ? createStart + (i * 1000) / rate - performance.now() : 0;
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    return firstValueFrom(
      benchClient.create(PODS, benchPod(i, kubelets.nodeNames[i % kubelets.nodeNames.length]!) as KubeObject),
    );
  });
  const limitMs = Number(process.env.BENCH_TIMEOUT_MS ?? 10 * 60_000);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise((r) => (timer = setTimeout(r, limitMs)))]);
  clearTimeout(timer);
  const cpu = process.cpuUsage(cpu0);
  if (profiler && profileDir) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(join(profileDir, `${runtime}.cpuprofile`), JSON.stringify(profile));
    profiler.disconnect();
  }
  const lastRunning = Math.max(...started.values());
  global.gc?.();
  const rssAfter = process.memoryUsage.rss();
  const latencies = [...started].map(([name, t]) => t - bound.get(name)!);
  const seconds = (lastRunning - firstAdded) / 1000;
  watch.unsubscribe();
  await kubelets.stop();
  kubeletClient.close();
  benchClient.close();
  await server.close();
  return {
    runtime,
    nodes,
    pods,
    running: started.size,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    maxMs: quantile(latencies, 1),
    statusUpdatesPerSecond: modified / Math.max(seconds, 0.001),
    memoryPerPodKiB: (rssAfter - rssBefore) / 1024 / pods,
    seconds,
    cpuMsPerPod: (cpu.user + cpu.system) / 1000 / pods,
  };
}

async function main(): Promise<void> {
  const child = process.env.BENCH_CHILD as Runtime | undefined;
  if (child) {
    process.stdout.write(`RESULT ${JSON.stringify(await runChild(child))}\n`);
    process.exit(0);
  }
  const runtimes = (process.env.BENCH_RUNTIMES ?? 'process,simulated').split(',').map((s) => s.trim());
  for (const r of runtimes) {
    if (r !== 'process' && r !== 'simulated')
      throw new Error(`BENCH_RUNTIMES: ${r} is not process|simulated`);
  }
  process.stdout.write(`kubelet: scale ${SCALE}, ${new Date().toISOString()}\nmachine: ${machineLine()}\n`);
  const rows: string[][] = [];
  for (const runtime of runtimes) {
    const flags = process.env.BENCH_CHILD_FLAGS?.split(' ').filter(Boolean) ?? [];
    const out = spawnSync(process.execPath, ['--expose-gc', ...flags, import.meta.filename], {
      env: { ...process.env, BENCH_CHILD: runtime },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 2 ** 20,
    });
    const line = out.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) {
      rows.push([runtime, '', '', `failed (${out.status ?? out.signal})`, '', '', '', '', '', '']);
      continue;
    }
    const r = JSON.parse(line.slice(7)) as Result;
    rows.push([
      runtime,
      `${fmt(r.pods)} on ${r.nodes}`,
      r.running === r.pods ? fmt(r.running) : `${fmt(r.running)} (timed out)`,
      fmt(r.p50Ms, 1),
      fmt(r.p99Ms, 1),
      fmt(r.maxMs, 1),
      `${(SLO_P99_MS / r.p99Ms).toFixed(1)}× under`,
      r.p99Ms < AIM_P99_MS ? 'met' : 'not met',
      fmt(r.statusUpdatesPerSecond),
      fmt(r.memoryPerPodKiB),
      fmt(r.cpuMsPerPod, 1),
    ]);
  }
  printTable(
    [
      'runtime',
      'pods on nodes',
      'running',
      'p50 ms',
      'p99 ms',
      'max ms',
      'SLO p99 ≤ 5 s',
      'aim p99 < 200 ms',
      'status updates/s',
      'RSS KiB/pod',
      'CPU ms/pod',
    ],
    rows,
  );
}

await main();
