// Scheduler benchmark: scheduler_perf's workloads through the embedded API server over loopback HTTPS and in-process, beside kube-scheduler's CI thresholds.
//
// Run: `npm run bench -- scheduler` or `node --expose-gc bench/scheduler.ts` (Node 22). Each workload and mode
// runs in its own fresh process (this file re-runs itself with BENCH_CHILD=<workload>:<mode>).
// Knobs: BENCH_WORKLOADS=SchedulingBasic,TopologySpreading (default: all six), BENCH_SCALE=0.1 (nodes and
// pods scaled; default 1, scheduler_perf's 5,000-node sizes), BENCH_MODE=api|inprocess|both (default both),
// BENCH_CREATE_CONCURRENCY (pods in flight from the creating client, default 32), BENCH_CHILD_FLAGS=--cpu-prof,
// BENCH_PROFILE_DIR=/tmp/prof (a CPU profile of the measured phase alone, <workload>-<mode>.cpuprofile).
//
// Modes: `api` starts the embedded API server, creates nodes and pods through a kubeApiClient over loopback
// HTTPS as scheduler_perf's createNodes/createPods ops do, and runs the scheduler as kube-rx runs it
// (startScheduler, its own client, leader election off as scheduler_perf's). The server, the creating client and
// the scheduler share this one process (and its RSS). `inprocess` runs the same scheduler on an in-memory
// ApiClient (bench/lib/memory-api-client.ts): informers, queue, cache and framework run as in production, but
// no HTTP, JSON or admission; binds land in memory at once. The difference is the API's cost.
//
// Figures, as scheduler_perf's SchedulingThroughput: the measured pods scheduled per second, sampled every
// second from scheduler_schedule_attempts_total{result="scheduled"} while the measured pods are scheduled;
// `avg` is measured pods over the measuring time, `p50` the median of the per-second samples. `attempt p99` is
// interpolated from scheduler_scheduling_attempt_duration_seconds over the measured phase. `× CI` is avg over
// kube-scheduler's minimum CI average at 5,000 nodes (ci-benchmark-scheduler-perf, on far larger machines).
// `pods per CPU-s` is the measured pods over the CPU time (user + system) this process used meanwhile: on a
// shared machine it moves far less with the other processes' load than the wall-clock rate does.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { firstValueFrom } from 'rxjs';
import type { Node, Pod } from '../operators/api/core-v1.ts';
import type { KubeObject } from '../operators/types.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import type { KubeSchedulerConfiguration } from '../src/scheduler/config/types.ts';
import { startScheduler } from '../src/scheduler/start-scheduler.ts';
import type { ApiClient } from '../streams/api-client.ts';
import { kubeApiClient } from '../streams/client-node/kube-api-client.ts';
import { NAMESPACES, NODES, PODS, PRIORITY_CLASSES } from '../streams/resources.ts';
import { memoryApiClient } from './lib/memory-api-client.ts';
import {
  counterValue,
  fmt,
  histogramQuantile,
  machineLine,
  peakRss,
  pooled,
  printTable,
  quantile,
} from './lib/stats.ts';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const CONCURRENCY = Number(process.env.BENCH_CREATE_CONCURRENCY ?? 32);
const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';

type Mode = 'api' | 'inprocess';

/** One scheduler_perf workload: its sizes at 5,000 nodes, templates and CI threshold (pods/s). */
interface Workload {
  name: string;
  /** scheduler_perf's name of the 5,000-node variant this follows. */
  upstream: string;
  nodes: number;
  initPods: number;
  measurePods: number;
  threshold?: number;
  nodeLabels: (i: number) => Record<string, string>;
  initPod: (i: number) => Pod;
  measurePod: (i: number) => Pod;
}

/** pod-default: one pause container, requests = limits = 100m / 500Mi. */
function podDefault(name: string, namespace: string, cpu = '100m', memory = '500Mi'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: {
      containers: [
        {
          name: 'pause',
          image: 'registry.k8s.io/pause:3.10',
          resources: { requests: { cpu, memory }, limits: { cpu, memory } },
        },
      ],
    },
  };
}

function withLabels(pod: Pod, labels: Record<string, string>): Pod {
  return { ...pod, metadata: { ...pod.metadata, labels } };
}

/** pod-with-pod-anti-affinity / pod-with-pod-affinity: `color` label and a required term over both namespaces. */
function podAffinityPod(name: string, ns: string, kind: 'affinity' | 'antiAffinity'): Pod {
  const color = kind === 'affinity' ? 'blue' : 'green';
  const term = {
    labelSelector: { matchExpressions: [{ key: 'color', operator: 'In', values: [color] }] },
    topologyKey: kind === 'affinity' ? ZONE : HOSTNAME,
    namespaces: ['sched-0', 'sched-1'],
  };
  const pod = withLabels(podDefault(name, ns), { color });
  const affinity =
    kind === 'affinity'
      ? { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } }
      : { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } };
  return { ...pod, spec: { ...pod.spec!, affinity } } as Pod;
}

const zone1 = (i: number) => ({ [ZONE]: 'zone1', [HOSTNAME]: nodeName(i) });
const host = (i: number) => ({ [HOSTNAME]: nodeName(i) });
const nodeName = (i: number) => `scheduler-perf-${String(i).padStart(5, '0')}`;

const WORKLOADS: Workload[] = [
  {
    name: 'SchedulingBasic',
    upstream: '5000Nodes_10000Pods',
    nodes: 5000,
    initPods: 1000,
    measurePods: 10000,
    threshold: 680,
    nodeLabels: host,
    initPod: (i) => podDefault(`init-${i}`, 'default'),
    measurePod: (i) => podDefault(`measure-${i}`, 'default'),
  },
  {
    name: 'SchedulingNodeAffinity',
    upstream: '5000Nodes_10000Pods',
    nodes: 5000,
    initPods: 5000,
    measurePods: 10000,
    threshold: 220,
    nodeLabels: zone1,
    initPod: (i) => nodeAffinityPod(`init-${i}`),
    measurePod: (i) => nodeAffinityPod(`measure-${i}`),
  },
  {
    name: 'TopologySpreading',
    upstream: '5000Nodes_5000Pods',
    nodes: 5000,
    initPods: 1000,
    measurePods: 5000,
    threshold: 460,
    nodeLabels: (i) => ({ [ZONE]: ['moon-1', 'moon-2', 'moon-3'][i % 3]!, [HOSTNAME]: nodeName(i) }),
    initPod: (i) => podDefault(`init-${i}`, 'default'),
    measurePod: (i) => {
      const pod = withLabels(podDefault(`measure-${i}`, 'default'), { color: 'blue' });
      return {
        ...pod,
        spec: {
          ...pod.spec!,
          topologySpreadConstraints: [
            {
              maxSkew: 5,
              topologyKey: ZONE,
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { color: 'blue' } },
            },
          ],
        },
      } as Pod;
    },
  },
  {
    name: 'SchedulingPodAntiAffinity',
    upstream: '5000Nodes_2000Pods',
    nodes: 5000,
    initPods: 1000,
    measurePods: 2000,
    threshold: 60,
    nodeLabels: host,
    initPod: (i) => podAffinityPod(`init-${i}`, 'sched-0', 'antiAffinity'),
    measurePod: (i) => podAffinityPod(`measure-${i}`, 'sched-1', 'antiAffinity'),
  },
  {
    name: 'SchedulingPodAffinity',
    upstream: '5000Nodes_5000Pods',
    nodes: 5000,
    initPods: 5000,
    measurePods: 5000,
    threshold: 35,
    nodeLabels: zone1,
    initPod: (i) => podAffinityPod(`init-${i}`, 'sched-0', 'affinity'),
    measurePod: (i) => podAffinityPod(`measure-${i}`, 'sched-1', 'affinity'),
  },
  {
    // PreemptionBasic: low-priority pods fill the nodes, each high-priority pod must evict some.
    name: 'SchedulingPreemption',
    upstream: 'PreemptionBasic 1000Nodes (no threshold)',
    nodes: 1000,
    initPods: 4000,
    measurePods: 1000,
    nodeLabels: host,
    // pod-low-priority sets terminationGracePeriodSeconds 0: with no kubelet, victims go at once.
    initPod: (i) => {
      const pod = withPriority(podDefault(`low-${i}`, 'default', '900m', '500Mi'), 'low-priority', 0);
      return { ...pod, spec: { ...pod.spec!, terminationGracePeriodSeconds: 0 } } as Pod;
    },
    measurePod: (i) =>
      withPriority(podDefault(`high-${i}`, 'default', '3000m', '500Mi'), 'high-priority', 10),
  },
];

function nodeAffinityPod(name: string): Pod {
  const pod = podDefault(name, 'default');
  return {
    ...pod,
    spec: {
      ...pod.spec!,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone1', 'zone2'] }] },
            ],
          },
        },
      },
    },
  } as Pod;
}

function withPriority(pod: Pod, className: string, priority: number): Pod {
  return { ...pod, spec: { ...pod.spec!, priorityClassName: className, priority } } as Pod;
}

/** node-default: 110 pods, 4 cpu, 32Gi, Ready. */
function nodeDefault(i: number, labels: Record<string, string>): Node {
  const capacity = { pods: '110', cpu: '4', memory: '32Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeName(i), labels },
    spec: {},
    status: {
      capacity,
      allocatable: capacity,
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
    },
  } as Node;
}

interface Result {
  workload: string;
  mode: Mode;
  nodes: number;
  initPods: number;
  measurePods: number;
  scheduled: number;
  seconds: number;
  avg: number;
  p50: number;
  attemptP99Ms: number;
  peakRssMiB: number;
  /** CPU seconds (user + system, all threads) this process spent in the measured phase. */
  cpuSeconds: number;
  /**
   * Initial pods gone by the end: the preemption victims. (scheduler_preemption_attempts_total is declared in
   * src/scheduler/scheduler-metrics.ts but nothing records it yet, so the pods are counted instead.)
   */
  victims: number;
  threshold?: number;
  timedOut: boolean;
}

const scaled = (n: number) => Math.max(1, Math.round(n * SCALE));
const call = <T>(o: import('rxjs').Observable<T>) => firstValueFrom(o);
const ignoreConflict = (e: unknown) => {
  if ((e as { code?: number; statusCode?: number }).code !== 409) throw e;
};

async function runChild(w: Workload, mode: Mode): Promise<Result> {
  const rss = peakRss();
  const began = performance.now();
  const phase = (what: string) =>
    process.stderr.write(
      `  ${w.name}:${mode} ${what} at ${((performance.now() - began) / 1000).toFixed(1)} s\n`,
    );
  const nodes = scaled(w.nodes);
  const initPods = scaled(w.initPods);
  const measurePods = scaled(w.measurePods);
  const registry = new Registry();
  let creator: ApiClient;
  let schedulerClient: ApiClient;
  let closeAll: () => Promise<void>;
  if (mode === 'api') {
    const server = await startApiServer({});
    const make = () =>
      kubeApiClient({
        kubeConfig: { from: 'string', yaml: server.kubeconfig },
        qps: Number.POSITIVE_INFINITY,
      });
    const c1 = make();
    const c2 = make();
    creator = c1;
    schedulerClient = c2;
    closeAll = async () => {
      c1.close();
      c2.close();
      await server.close();
    };
  } else {
    const memory = memoryApiClient();
    creator = memory;
    schedulerClient = memory;
    closeAll = async () => {};
  }
  for (const ns of ['sched-0', 'sched-1']) {
    await call(
      creator.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    ).catch(ignoreConflict);
  }
  if (w.name === 'SchedulingPreemption') {
    for (const [name, value] of [
      ['low-priority', 0],
      ['high-priority', 10],
    ] as const) {
      await call(
        creator.create(PRIORITY_CLASSES, {
          apiVersion: 'scheduling.k8s.io/v1',
          kind: 'PriorityClass',
          metadata: { name },
          value,
        } as KubeObject),
      ).catch(ignoreConflict);
    }
  }
  await pooled(nodes, CONCURRENCY, async (i) => {
    const node = nodeDefault(i, w.nodeLabels(i));
    const created = (await call(creator.create(NODES, node as KubeObject))) as Node;
    if (!created.status?.allocatable) {
      await call(
        creator.patch(NODES, node.metadata!.name!, { status: node.status }, 'merge', {
          subresource: 'status',
        }),
      );
    }
  });
  phase(`${nodes} nodes created`);
  const running = await startScheduler({
    client: schedulerClient,
    config: { leaderElection: { leaderElect: false } } as KubeSchedulerConfiguration,
    metricsRegistry: registry,
    signal: AbortSignal.timeout(120_000),
  });
  phase('scheduler started');
  const scheduled = () =>
    counterValue(registry, 'scheduler_schedule_attempts_total', { result: 'scheduled' });
  // Polls every 50 ms (so the end is timed closely) and hands `onSecond` the rate of each sample of at least
  // one second: pods scheduled since the last sample over the time since then (a busy event loop can make a
  // sample span more than one second, as scheduler_perf's collector divides by the real interval too).
  const waitFor = async (target: number, deadlineMs: number, onSecond?: (rate: number) => void) => {
    const start = performance.now();
    let last = await scheduled();
    let secondStart = start;
    let atSecondStart = last;
    while (last < target && performance.now() - start < deadlineMs) {
      await new Promise((r) => setTimeout(r, 50));
      last = await scheduled();
      const now = performance.now();
      if (now - secondStart >= 1000) {
        onSecond?.((last - atSecondStart) / ((now - secondStart) / 1000));
        secondStart = now;
        atSecondStart = last;
      }
    }
    return last;
  };
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profiler = profileDir ? new Session() : undefined;
  // Initial pods: created and scheduled before anything is measured.
  await pooled(initPods, CONCURRENCY, (i) => call(creator.create(PODS, w.initPod(i) as KubeObject)));
  phase(`${initPods} initial pods created`);
  const limitMs = Number(process.env.BENCH_TIMEOUT_MS ?? 10 * 60_000);
  await waitFor(initPods, limitMs);
  phase(`${initPods} initial pods scheduled`);
  const attemptsBefore = registry.getSingleMetric('scheduler_scheduling_attempt_duration_seconds');
  (attemptsBefore as { reset?: () => void } | undefined)?.reset?.();
  const before = await scheduled();
  const samples: number[] = [];
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const creating = pooled(measurePods, CONCURRENCY, (i) =>
    call(creator.create(PODS, w.measurePod(i) as KubeObject)),
  );
  const reached = await waitFor(before + measurePods, limitMs, (n) => samples.push(n));
  await creating;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  phase(`${reached - before} measured pods scheduled`);
  if (profiler && profileDir) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(join(profileDir, `${w.name}-${mode}.cpuprofile`), JSON.stringify(profile));
    profiler.disconnect();
  }
  const done = reached - before;
  const attemptP99Ms =
    (await histogramQuantile(registry, 'scheduler_scheduling_attempt_duration_seconds', 0.99)) * 1000;
  const remaining = await call(creator.list(PODS));
  const victims =
    initPods - remaining.items.filter((p) => /^(init|low)-/.test(p.metadata?.name ?? '')).length;
  await running.stop();
  await closeAll();
  return {
    workload: w.name,
    mode,
    nodes,
    initPods,
    measurePods,
    scheduled: done,
    seconds,
    avg: done / seconds,
    p50: quantile(samples, 0.5),
    attemptP99Ms,
    peakRssMiB: rss.stop() / 2 ** 20,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    victims,
    ...(w.threshold === undefined ? {} : { threshold: w.threshold }),
    timedOut: done < measurePods,
  };
}

async function main(): Promise<void> {
  const child = process.env.BENCH_CHILD;
  if (child) {
    const [name, mode] = child.split(':') as [string, Mode];
    const w = WORKLOADS.find((x) => x.name === name)!;
    const result = await runChild(w, mode);
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    process.exit(0);
  }
  const wanted = process.env.BENCH_WORKLOADS?.split(',').map((s) => s.trim());
  const unknown = wanted?.filter((n) => !WORKLOADS.some((w) => w.name === n)) ?? [];
  if (unknown.length > 0) throw new Error(`BENCH_WORKLOADS: unknown workload ${unknown.join(', ')}`);
  const modeEnv = process.env.BENCH_MODE ?? 'both';
  if (!['api', 'inprocess', 'both'].includes(modeEnv))
    throw new Error(`BENCH_MODE: ${modeEnv} is not api|inprocess|both`);
  const modes: Mode[] = modeEnv === 'both' ? ['api', 'inprocess'] : [modeEnv as Mode];
  process.stdout.write(
    `scheduler: scale ${SCALE}, modes ${modes.join(',')}, ${new Date().toISOString()}\nmachine: ${machineLine()}\n`,
  );
  const rows: string[][] = [];
  for (const w of WORKLOADS.filter((x) => !wanted || wanted.includes(x.name))) {
    for (const mode of modes) {
      const flags = process.env.BENCH_CHILD_FLAGS?.split(' ').filter(Boolean) ?? [];
      const out = spawnSync(process.execPath, [...flags, import.meta.filename], {
        env: { ...process.env, BENCH_CHILD: `${w.name}:${mode}` },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 * 2 ** 20,
      });
      const line = out.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) {
        rows.push([w.name, mode, '', '', '', `failed (${out.status ?? out.signal})`, '', '', '', '']);
        continue;
      }
      const r = JSON.parse(line.slice(7)) as Result;
      rows.push([
        w.name,
        mode,
        `${fmt(r.nodes)}/${fmt(r.initPods)}/${fmt(r.measurePods)}`,
        fmt(r.avg, 1) + (r.timedOut ? ` (only ${r.scheduled})` : ''),
        fmt(r.p50),
        fmt(r.scheduled / r.cpuSeconds, 1),
        fmt(r.attemptP99Ms, 1),
        fmt(r.peakRssMiB),
        r.threshold === undefined ? 'none upstream' : String(r.threshold),
        r.threshold === undefined ? '–' : `${(r.avg / r.threshold).toFixed(2)}`,
        fmt(r.seconds, 1),
        fmt(r.victims),
      ]);
    }
  }
  printTable(
    [
      'workload',
      'mode',
      'nodes/init/measured',
      'pods/s avg',
      'pods/s p50',
      'pods per CPU-s',
      'attempt p99 ms',
      'peak RSS MiB',
      'CI min pods/s',
      '× CI',
      'measured s',
      'victims',
    ],
    rows,
  );
  if (SCALE !== 1) {
    process.stdout.write(
      `\nBENCH_SCALE=${SCALE}: not scheduler_perf's sizes; smaller clusters schedule faster per pod, so do not compare these with the thresholds.\n`,
    );
  }
}

await main();
