// Controllers benchmark: a Job of 1,000 completions (parallelism 100) on 50 simulated nodes, end to end through the embedded API server, the scheduler, the controller manager and the kubelets, at upstream's client limits and lifted.
//
// Run: `npm run bench -- controllers` or `node --expose-gc bench/controllers.ts` (Node 22). Each run is its own
// fresh process (this file re-runs itself with BENCH_CHILD=<scenario>:<mode>).
// Knobs: BENCH_MODES=default,lifted (default both), BENCH_REPS (runs per mode, default 3), BENCH_COMPLETIONS
// (default 1,000), BENCH_PARALLELISM (default 100), BENCH_SIM_NODES (default 50), BENCH_TIMEOUT_MS (per run,
// default 10 min), BENCH_CONTROLLERS (default: the job, pod GC, node lifecycle, taint eviction, TTL and
// ttl-after-finished controllers), BENCH_CHILD_FLAGS=--cpu-prof, BENCH_PROFILE_DIR=/tmp/prof (a CPU profile
// from the Job's creation to its Complete condition, <scenario>-<mode>-<rep>.cpuprofile).
//
// Everything runs in one process, as kube-rx's `up` does: the embedded API server; 50 simulated kubelets on
// one client (unlimited: upstream's kubelets each have their own 50 qps); the scheduler on its own client
// (upstream's default clientConnection qps 50, burst 100; unlimited when lifted); the controller manager as
// `kube-rx controller-manager` runs it: one client for the controllers and one for Events (each at
// --kube-api-qps 20 / --kube-api-burst 30 by default; unlimited when lifted). Each pod exits 0 as soon as it
// starts (`kube-rx.io/simulated-exit-code: "0"`), so the figure is the control plane's, not the workload's.
//
// Figures: `s` from the Job's creation to its Complete condition (seen by a watch); `pods/s` = completions / s.
// `writes/pod` = the controllers' client's writes (create, update, patch, delete; reads come from informers)
// during the run over completions, by verb; Events on their own client are counted apart. `bound` = the time
// the controllers' token bucket needs for those writes: (writes − burst) / qps; `× bound` = bound / s, how
// close the run came to what the limit allows (aim ≥ 0.9). Lifted: the aim is ≥ 200 pods/s. `reconciles/s`
// = items each work queue processed (workqueue_work_duration_seconds_count{name}) over the run.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { filter, firstValueFrom, take, timeout } from 'rxjs';
import type { KubeObject } from '../operators/types.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import { CONCURRENCY_FLAGS } from '../src/controller-manager/command.ts';
import {
  CONTROLLER_FEATURE_GATES,
  controllerDescriptors,
  DEFAULT_TERMINATED_POD_GC_THRESHOLD,
} from '../src/controller-manager/controller-descriptors.ts';
import { controllerManager } from '../src/controller-manager/controller-manager.ts';
import { withEventsClient } from '../src/controllers/controller-event-recorder.ts';
import { defaultKubeletConfiguration } from '../src/kubelet/kubelet-configuration.ts';
import { runKubelets } from '../src/kubelet/run-kubelets.ts';
import { prometheusWorkQueueMetrics } from '../src/metrics/prometheus-work-queue-metrics.ts';
import type { KubeSchedulerConfiguration } from '../src/scheduler/config/types.ts';
import { startScheduler } from '../src/scheduler/start-scheduler.ts';
import type { ApiClient } from '../streams/api-client.ts';
import { kubeApiClient } from '../streams/client-node/kube-api-client.ts';
import { JOBS } from '../streams/resources.ts';
import { fmt, machineLine, printTable } from './lib/stats.ts';

type Mode = 'default' | 'lifted';
const COMPLETIONS = Number(process.env.BENCH_COMPLETIONS ?? 1000);
const PARALLELISM = Number(process.env.BENCH_PARALLELISM ?? 100);
const NODES = Number(process.env.BENCH_SIM_NODES ?? 50);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const QPS = 20;
const BURST = 30;
const AIM_LIFTED_PODS_PER_S = 200;
const AIM_BOUND_RATIO = 0.9;
const CONTROLLERS = (
  process.env.BENCH_CONTROLLERS ??
  'job-controller,pod-garbage-collector-controller,node-lifecycle-controller,taint-eviction-controller,ttl-controller,ttl-after-finished-controller'
).split(',');

interface Result {
  mode: Mode;
  completions: number;
  seconds: number;
  podsPerSecond: number;
  /** Writes of the controllers' client during the run, by `verb resource`. */
  writes: Record<string, number>;
  /** Event writes (on their own client) during the run. */
  eventWrites: number;
  /** Items processed per work queue during the run. */
  reconciles: Record<string, number>;
  load: string;
}

/** An ApiClient that counts its writes by `verb resource` into `counts`. */
function countingClient(client: ApiClient, counts: Map<string, number>): ApiClient {
  const via = (key: string) => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return client;
  };
  return {
    list: (r, o) => client.list(r, o),
    watch: (r, o) => client.watch(r, o),
    get: (r, n, o) => client.get(r, n, o),
    create: (r, o, w) => via(`create ${r.plural}`).create(r, o, w),
    update: (r, o, w) => via(`update ${r.plural}`).update(r, o, w),
    updateStatus: (r, o, w) => via(`update ${r.plural}/status`).updateStatus(r, o, w),
    patch: (r, n, p, t, o) =>
      via(`patch ${r.plural}${o?.subresource ? `/${o.subresource}` : ''}`).patch(r, n, p, t, o),
    delete: (r, n, o) => via(`delete ${r.plural}`).delete(r, n, o),
    bind: (b, o) => via('create pods/binding').bind(b, o),
  };
}

/** Items processed per work queue so far (the histogram's count per `name`). */
async function processed(registry: Registry): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric('workqueue_work_duration_seconds');
  if (!metric) return {};
  const { values } = await metric.get();
  const out: Record<string, number> = {};
  for (const v of values) {
    if ((v as { metricName?: string }).metricName !== 'workqueue_work_duration_seconds_count') continue;
    const name = String(v.labels.name);
    out[name] = (out[name] ?? 0) + v.value;
  }
  return out;
}

const minus = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([, v]) => v > 0),
  );

function benchJob(): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'bench', namespace: 'default' },
    spec: {
      completions: COMPLETIONS,
      parallelism: PARALLELISM,
      backoffLimit: 6,
      template: {
        metadata: { annotations: { 'kube-rx.io/simulated-exit-code': '0' } },
        spec: {
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: 0,
          containers: [{ name: 'work', image: 'busybox', command: ['true'] }],
        },
      },
    },
  } as KubeObject;
}

async function runChild(mode: Mode, rep: number): Promise<Result> {
  const lifted = mode === 'lifted';
  const server = await startApiServer({});
  const kubeConfig = { from: 'string' as const, yaml: server.kubeconfig };
  const unlimited = { kubeConfig, qps: Number.POSITIVE_INFINITY };
  const limited = (qps: number, burst: number) =>
    lifted ? kubeApiClient(unlimited) : kubeApiClient({ kubeConfig, qps, burst });
  const kubeletClient = kubeApiClient(unlimited);
  const benchClient = kubeApiClient(unlimited);
  const schedulerClient = limited(50, 100);
  const controllersClient = limited(QPS, BURST);
  const eventsClient = limited(QPS, BURST);
  const clients = [kubeletClient, benchClient, schedulerClient, controllersClient, eventsClient];

  const kubelets = await runKubelets({
    client: kubeletClient,
    nodeName: 'bench',
    config: defaultKubeletConfiguration(),
    runtime: 'simulated',
    simulatedNodes: NODES,
  });
  const scheduler = await startScheduler({
    client: schedulerClient,
    config: { leaderElection: { leaderElect: false } } as KubeSchedulerConfiguration,
    signal: AbortSignal.timeout(120_000),
  });
  const registry = new Registry();
  const writes = new Map<string, number>();
  const eventWrites = new Map<string, number>();
  let informersStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    informersStarted = resolve;
  });
  const manager = controllerManager({
    client: withEventsClient(
      countingClient(controllersClient, writes),
      countingClient(eventsClient, eventWrites),
    ),
    descriptors: controllerDescriptors(),
    controllers: CONTROLLERS,
    options: {
      concurrency: CONCURRENCY_FLAGS,
      terminatedPodGCThreshold: DEFAULT_TERMINATED_POD_GC_THRESHOLD,
      featureGates: CONTROLLER_FEATURE_GATES,
    },
    workQueueMetrics: prometheusWorkQueueMetrics(registry),
    metricsRegistry: registry,
  }).subscribe((event) => {
    if (event.type === 'InformersStarted') informersStarted();
    if (event.type === 'Failed')
      process.stderr.write(`controller ${event.controller} failed: ${event.error}\n`);
  });
  await started;
  // let start-up writes (node TTL annotations, ...) settle before measuring
  await new Promise((r) => setTimeout(r, 2_000));
  global.gc?.();

  const writesBefore = Object.fromEntries(writes);
  const eventsBefore = [...eventWrites.values()].reduce((a, b) => a + b, 0);
  const reconcilesBefore = await processed(registry);
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profiler = profileDir ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const limitMs = Number(process.env.BENCH_TIMEOUT_MS ?? 10 * 60_000);
  const complete = firstValueFrom(
    benchClient.watch<KubeObject>(JOBS, { namespace: 'default' }).pipe(
      filter(
        (e) =>
          e.type !== 'ERROR' &&
          e.type !== 'BOOKMARK' &&
          e.object.metadata?.name === 'bench' &&
          (
            (e.object as { status?: { conditions?: { type: string; status: string }[] } }).status
              ?.conditions ?? []
          ).some((c) => c.type === 'Complete' && c.status === 'True'),
      ),
      take(1),
      timeout(limitMs),
    ),
  );
  await new Promise((r) => setTimeout(r, 200)); // the watch is open before the Job exists
  const t0 = performance.now();
  await firstValueFrom(benchClient.create(JOBS, benchJob(), { namespace: 'default' }));
  let seconds: number;
  try {
    await complete;
    seconds = (performance.now() - t0) / 1000;
  } catch {
    seconds = Number.NaN;
  }
  if (profiler && profileDir) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(join(profileDir, `job-${mode}-${rep}.cpuprofile`), JSON.stringify(profile));
    profiler.disconnect();
  }
  const reconciles = minus(await processed(registry), reconcilesBefore);
  const result: Result = {
    mode,
    completions: COMPLETIONS,
    seconds,
    podsPerSecond: COMPLETIONS / seconds,
    writes: minus(Object.fromEntries(writes), writesBefore),
    eventWrites: [...eventWrites.values()].reduce((a, b) => a + b, 0) - eventsBefore,
    reconciles: Object.fromEntries(Object.entries(reconciles).map(([k, v]) => [k, v / seconds])),
    load: machineLine().replace(/.*load /, ''),
  };
  manager.unsubscribe();
  await scheduler.stop();
  await kubelets.stop();
  for (const c of clients) c.close();
  await server.close();
  return result;
}

const spread = (xs: number[], digits = 1) => {
  const ok = xs.filter(Number.isFinite);
  if (ok.length === 0) return '–';
  const mean = ok.reduce((a, b) => a + b, 0) / ok.length;
  return ok.length === 1
    ? fmt(mean, digits)
    : `${fmt(mean, digits)} (${fmt(Math.min(...ok), digits)}–${fmt(Math.max(...ok), digits)})`;
};

async function main(): Promise<void> {
  const child = process.env.BENCH_CHILD;
  if (child) {
    const [, mode, rep] = child.split(':');
    process.stdout.write(`RESULT ${JSON.stringify(await runChild(mode as Mode, Number(rep)))}\n`);
    process.exit(0);
  }
  const modes = (process.env.BENCH_MODES ?? 'default,lifted').split(',').map((s) => s.trim());
  for (const m of modes)
    if (m !== 'default' && m !== 'lifted') throw new Error(`BENCH_MODES: ${m} is not default|lifted`);
  process.stdout.write(
    `controllers: Job of ${fmt(COMPLETIONS)} completions, parallelism ${PARALLELISM}, ${NODES} simulated nodes, ${REPS} run(s) per mode, ${new Date().toISOString()}\nmachine: ${machineLine()}\n`,
  );
  const rows: string[][] = [];
  const detail: string[] = [];
  for (const mode of modes as Mode[]) {
    const results: Result[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      const flags = process.env.BENCH_CHILD_FLAGS?.split(' ').filter(Boolean) ?? [];
      const out = spawnSync(process.execPath, ['--expose-gc', ...flags, import.meta.filename], {
        env: { ...process.env, BENCH_CHILD: `job:${mode}:${rep}` },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 * 2 ** 20,
      });
      const line = out.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) {
        detail.push(`job ${mode} run ${rep}: failed (${out.status ?? out.signal})`);
        continue;
      }
      const r = JSON.parse(line.slice(7)) as Result;
      results.push(r);
      const total = Object.values(r.writes).reduce((a, b) => a + b, 0);
      detail.push(
        `job ${mode} run ${rep}: ${fmt(r.seconds, 1)} s, ${fmt(r.podsPerSecond, 1)} pods/s, load ${r.load}; writes ${fmt(total)} (${Object.entries(
          r.writes,
        )
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join(', ')}), events ${fmt(r.eventWrites)}; reconciles/s ${Object.entries(r.reconciles)
          .map(([k, v]) => `${k} ${fmt(v, 1)}`)
          .join(', ')}`,
      );
    }
    if (results.length === 0) {
      rows.push([`job ${mode}`, '', 'failed', '', '', '', '', '']);
      continue;
    }
    const totals = results.map((r) => Object.values(r.writes).reduce((a, b) => a + b, 0));
    const perPod = totals.map((t) => t / COMPLETIONS);
    const bounds = totals.map((t) => Math.max(0, t - BURST) / QPS);
    const ratios = results.map((r, i) => bounds[i]! / r.seconds);
    const pps = results.map((r) => r.podsPerSecond);
    const aim =
      mode === 'lifted'
        ? `≥ ${AIM_LIFTED_PODS_PER_S} pods/s: ${Math.min(...pps) >= AIM_LIFTED_PODS_PER_S ? 'met' : `not met (${fmt(Math.max(...pps) / AIM_LIFTED_PODS_PER_S, 2)}×)`}`
        : `× bound ≥ ${AIM_BOUND_RATIO}: ${Math.min(...ratios) >= AIM_BOUND_RATIO ? 'met' : 'not met'}`;
    rows.push([
      `job ${mode}`,
      fmt(results[0]!.completions),
      spread(results.map((r) => r.seconds)),
      spread(pps),
      spread(perPod, 2),
      mode === 'lifted' ? '–' : spread(bounds),
      mode === 'lifted' ? '–' : spread(ratios, 2),
      aim,
    ]);
  }
  printTable(['run', 'completions', 's', 'pods/s', 'writes/pod', 'bound s', '× bound', 'aim'], rows);
  process.stdout.write(`\n${detail.join('\n')}\n`);
}

await main();
