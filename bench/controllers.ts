// Controllers benchmark: a Job of 1,000 completions (parallelism 100) on 50 simulated nodes, end to end through the embedded API server, the scheduler, the controller manager and the kubelets, at upstream's client limits and lifted.
//
// Run: `npm run bench -- controllers` or `node --expose-gc bench/controllers.ts` (Node 22). Each run is its own
// fresh process (this file re-runs itself with BENCH_CHILD=<scenario>:<mode>).
// Knobs: BENCH_MODES=default,lifted (default both), BENCH_REPS (runs per mode, default 3), BENCH_COMPLETIONS
// (default 1,000), BENCH_PARALLELISM (default 100), BENCH_SIM_NODES (default 50), BENCH_TIMEOUT_MS (per run,
// default 10 min), BENCH_TIMELINE=1 (print the controllers' writes completed in each second), BENCH_CONTROLLERS (default: the job, pod GC, node lifecycle, taint eviction, TTL and
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
// = items each work queue processed (workqueue_work_duration_seconds_count{name}) over the run. `CPU ms/pod` =
// this process' CPU time (user + system) during the phase over its pods: the whole plane's cost per pod, which
// the other processes' load moves far less than the wall-clock rate.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { firstValueFrom, type Observable, tap } from 'rxjs';
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
import { DEPLOYMENTS, JOBS } from '../streams/resources.ts';
import { fmt, machineLine, printTable } from './lib/stats.ts';

type Mode = 'default' | 'lifted';
const COMPLETIONS = Number(process.env.BENCH_COMPLETIONS ?? 1000);
const PARALLELISM = Number(process.env.BENCH_PARALLELISM ?? 100);
const NODES = Number(process.env.BENCH_SIM_NODES ?? 50);
const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 1000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const QPS = 20;
const BURST = 30;
const AIM_LIFTED_PODS_PER_S = 200;
const AIM_BOUND_RATIO = 0.9;
const CONTROLLERS = (
  process.env.BENCH_CONTROLLERS ??
  'job-controller,deployment-controller,replicaset-controller,pod-garbage-collector-controller,node-lifecycle-controller,taint-eviction-controller,ttl-controller,ttl-after-finished-controller'
).split(',');

interface Result {
  /** `job`, `deployment up` (1,000 replicas from nothing) or `deployment roll` (all replaced by a new template). */
  scenario: string;
  mode: Mode;
  /** Pods the phase went through: the Job's completions, the Deployment's replicas. */
  pods: number;
  seconds: number;
  podsPerSecond: number;
  /** Writes of the controllers' client during the run, by `verb resource`. */
  writes: Record<string, number>;
  /** Event writes (on their own client) during the run. */
  eventWrites: number;
  /** Items processed per work queue during the run, per second. */
  reconciles: Record<string, number>;
  /** Controller writes completed in each second of the run. */
  timeline: number[];
  /** CPU time (user + system, all threads) of the process per pod during the phase: the whole plane's cost. */
  cpuMsPerPod: number;
  load: string;
}

/**
 * An ApiClient that counts its writes by `verb resource` into `counts` and stamps in `times` when each one
 * completed (its token granted and its answer back).
 */
function countingClient(client: ApiClient, counts: Map<string, number>, times: number[] = []): ApiClient {
  const counted = <T>(key: string, call: () => Observable<T>): Observable<T> => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return call().pipe(tap(() => times.push(performance.now())));
  };
  return {
    list: (r, o) => client.list(r, o),
    watch: (r, o) => client.watch(r, o),
    get: (r, n, o) => client.get(r, n, o),
    create: (r, o, w) => counted(`create ${r.plural}`, () => client.create(r, o, w)),
    update: (r, o, w) => counted(`update ${r.plural}`, () => client.update(r, o, w)),
    updateStatus: (r, o, w) => counted(`update ${r.plural}/status`, () => client.updateStatus(r, o, w)),
    patch: (r, n, p, t, o) =>
      counted(`patch ${r.plural}${o?.subresource ? `/${o.subresource}` : ''}`, () =>
        client.patch(r, n, p, t, o),
      ),
    delete: (r, n, o) => counted(`delete ${r.plural}`, () => client.delete(r, n, o)),
    bind: (b, o) => counted('create pods/binding', () => client.bind(b, o)),
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

/** The control plane of one run: server, kubelets, scheduler and controller manager, with its counters. */
interface Plane {
  benchClient: ApiClient;
  registry: Registry;
  writes: Map<string, number>;
  writeTimes: number[];
  eventWrites: Map<string, number>;
  stop(): Promise<void>;
}

async function startPlane(mode: Mode): Promise<Plane> {
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
  const writeTimes: number[] = [];
  const eventWrites = new Map<string, number>();
  let informersStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    informersStarted = resolve;
  });
  const manager = controllerManager({
    client: withEventsClient(
      countingClient(controllersClient, writes, writeTimes),
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
  return {
    benchClient,
    registry,
    writes,
    writeTimes,
    eventWrites,
    async stop() {
      manager.unsubscribe();
      await scheduler.stop();
      await kubelets.stop();
      for (const c of clients) c.close();
      await server.close();
    },
  };
}

/** Runs `work` as one measured phase: its time, the controllers' writes and reconciles meanwhile, a profile. */
async function measure(
  plane: Plane,
  phase: { scenario: string; mode: Mode; rep: number; pods: number },
  work: () => Promise<void>,
): Promise<Result> {
  global.gc?.();
  const writesBefore = Object.fromEntries(plane.writes);
  const eventsBefore = [...plane.eventWrites.values()].reduce((a, b) => a + b, 0);
  const reconcilesBefore = await processed(plane.registry);
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profiler = profileDir ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let seconds: number;
  try {
    await work();
    seconds = (performance.now() - t0) / 1000;
  } catch (error) {
    process.stderr.write(`${phase.scenario} ${phase.mode}: ${String(error)}\n`);
    seconds = Number.NaN;
  }
  if (profiler && profileDir) {
    const { profile } = await profiler.post('Profiler.stop');
    const file = `${phase.scenario.replace(/ /g, '-')}-${phase.mode}-${phase.rep}.cpuprofile`;
    writeFileSync(join(profileDir, file), JSON.stringify(profile));
    profiler.disconnect();
  }
  const cpu = process.cpuUsage(cpu0);
  const reconciles = minus(await processed(plane.registry), reconcilesBefore);
  return {
    cpuMsPerPod: (cpu.user + cpu.system) / 1000 / phase.pods,
    scenario: phase.scenario,
    mode: phase.mode,
    pods: phase.pods,
    seconds,
    podsPerSecond: phase.pods / seconds,
    writes: minus(Object.fromEntries(plane.writes), writesBefore),
    eventWrites: [...plane.eventWrites.values()].reduce((a, b) => a + b, 0) - eventsBefore,
    reconciles: Object.fromEntries(Object.entries(reconciles).map(([k, v]) => [k, v / seconds])),
    load: machineLine().replace(/.*load /, ''),
    timeline: Array.from(
      { length: Math.ceil(Number.isFinite(seconds) ? seconds : 0) },
      (_, i) => plane.writeTimes.filter((t) => t >= t0 + i * 1000 && t < t0 + (i + 1) * 1000).length,
    ),
  };
}

const LIMIT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 10 * 60_000);

/** Polls `check` every 250 ms until it is true, or fails after the run's time limit. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + LIMIT_MS;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not done within ${LIMIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function jobScenario(plane: Plane, mode: Mode, rep: number): Promise<Result[]> {
  const { benchClient } = plane;
  const jobComplete = async () => {
    const job = await firstValueFrom(benchClient.get<KubeObject>(JOBS, 'bench', { namespace: 'default' }));
    const conditions = (job as { status?: { conditions?: { type: string; status: string }[] } }).status
      ?.conditions;
    return (conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True');
  };
  return [
    await measure(plane, { scenario: 'job', mode, rep, pods: COMPLETIONS }, async () => {
      await firstValueFrom(benchClient.create(JOBS, benchJob(), { namespace: 'default' }));
      await until(jobComplete);
    }),
  ];
}

function benchDeployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bench', namespace: 'default' },
    spec: {
      replicas: REPLICAS,
      selector: { matchLabels: { app: 'bench' } },
      template: {
        metadata: { labels: { app: 'bench' } },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [{ name: 'web', image: 'nginx', command: ['sleep', 'infinity'] }],
        },
      },
    },
  } as KubeObject;
}

interface DeploymentView {
  metadata: { generation?: number };
  spec: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
  };
}

async function deploymentScenario(plane: Plane, mode: Mode, rep: number): Promise<Result[]> {
  const { benchClient } = plane;
  const rolledOut = async () => {
    const d = (await firstValueFrom(
      benchClient.get<KubeObject>(DEPLOYMENTS, 'bench', { namespace: 'default' }),
    )) as unknown as DeploymentView;
    const s = d.status ?? {};
    return (
      (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 1) &&
      s.updatedReplicas === REPLICAS &&
      s.replicas === REPLICAS &&
      s.availableReplicas === REPLICAS
    );
  };
  const scaleUp = await measure(plane, { scenario: 'deployment up', mode, rep, pods: REPLICAS }, async () => {
    await firstValueFrom(benchClient.create(DEPLOYMENTS, benchDeployment(), { namespace: 'default' }));
    await until(rolledOut);
  });
  const rollout = await measure(
    plane,
    { scenario: 'deployment roll', mode, rep, pods: REPLICAS },
    async () => {
      await firstValueFrom(
        benchClient.patch(
          DEPLOYMENTS,
          'bench',
          { spec: { template: { metadata: { annotations: { 'bench.kube-rx.io/revision': '2' } } } } },
          'merge',
          { namespace: 'default' },
        ),
      );
      await until(rolledOut);
    },
  );
  return [scaleUp, rollout];
}

async function runChild(scenario: string, mode: Mode, rep: number): Promise<Result[]> {
  const plane = await startPlane(mode);
  try {
    return scenario === 'deployment'
      ? await deploymentScenario(plane, mode, rep)
      : await jobScenario(plane, mode, rep);
  } finally {
    await plane.stop();
  }
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
    const [scenario, mode, rep] = child.split(':');
    const results = await runChild(scenario ?? 'job', mode as Mode, Number(rep));
    process.stdout.write(`RESULT ${JSON.stringify(results)}\n`);
    process.exit(0);
  }
  const modes = (process.env.BENCH_MODES ?? 'default,lifted').split(',').map((s) => s.trim());
  for (const m of modes)
    if (m !== 'default' && m !== 'lifted') throw new Error(`BENCH_MODES: ${m} is not default|lifted`);
  const scenarios = (process.env.BENCH_SCENARIOS ?? 'job,deployment').split(',').map((s) => s.trim());
  for (const sc of scenarios)
    if (sc !== 'job' && sc !== 'deployment') throw new Error(`BENCH_SCENARIOS: ${sc} is not job|deployment`);
  process.stdout.write(
    `controllers: Job of ${fmt(COMPLETIONS)} completions (parallelism ${PARALLELISM}), Deployment of ${fmt(REPLICAS)} replicas, ${NODES} simulated nodes, ${REPS} run(s) each, ${new Date().toISOString()}\nmachine: ${machineLine()}\n`,
  );
  const byPhase = new Map<string, Result[]>();
  const detail: string[] = [];
  for (const scenario of scenarios) {
    for (const mode of modes as Mode[]) {
      for (let rep = 0; rep < REPS; rep++) {
        const flags = process.env.BENCH_CHILD_FLAGS?.split(' ').filter(Boolean) ?? [];
        const out = spawnSync(process.execPath, ['--expose-gc', ...flags, import.meta.filename], {
          env: { ...process.env, BENCH_CHILD: `${scenario}:${mode}:${rep}` },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          maxBuffer: 64 * 2 ** 20,
        });
        const line = out.stdout.split('\n').find((l) => l.startsWith('RESULT '));
        if (!line) {
          detail.push(`${scenario} ${mode} run ${rep}: failed (${out.status ?? out.signal})`);
          continue;
        }
        for (const r of JSON.parse(line.slice(7)) as Result[]) {
          const key = `${r.scenario} ${mode}`;
          byPhase.set(key, [...(byPhase.get(key) ?? []), r]);
          const total = Object.values(r.writes).reduce((a, b) => a + b, 0);
          detail.push(
            `${key} run ${rep}: ${fmt(r.seconds, 1)} s, ${fmt(r.podsPerSecond, 1)} pods/s, load ${r.load}; writes ${fmt(total)} (${Object.entries(
              r.writes,
            )
              .sort((a, b) => b[1] - a[1])
              .map(([k, v]) => `${k} ${fmt(v)}`)
              .join(', ')}), events ${fmt(r.eventWrites)}; reconciles/s ${Object.entries(r.reconciles)
              .map(([k, v]) => `${k} ${fmt(v, 1)}`)
              .join(', ')}`,
          );
          if (process.env.BENCH_TIMELINE)
            detail.push(`  writes completed per second: ${r.timeline.join(' ')}`);
        }
      }
    }
  }
  const rows: string[][] = [];
  for (const [key, results] of byPhase) {
    const lifted = key.endsWith('lifted');
    const totals = results.map((r) => Object.values(r.writes).reduce((a, b) => a + b, 0));
    const perPod = totals.map((t, i) => t / results[i]!.pods);
    const bounds = totals.map((t) => Math.max(0, t - BURST) / QPS);
    const ratios = results.map((r, i) => bounds[i]! / r.seconds);
    const pps = results.map((r) => r.podsPerSecond);
    const aim = lifted
      ? `≥ ${AIM_LIFTED_PODS_PER_S} pods/s: ${Math.min(...pps) >= AIM_LIFTED_PODS_PER_S ? 'met' : `not met (${fmt(Math.max(...pps) / AIM_LIFTED_PODS_PER_S, 2)}×)`}`
      : `× bound ≥ ${AIM_BOUND_RATIO}: ${Math.min(...ratios) >= AIM_BOUND_RATIO ? 'met' : 'not met'}`;
    rows.push([
      key,
      fmt(results[0]!.pods),
      spread(results.map((r) => r.seconds)),
      spread(pps),
      spread(results.map((r) => r.cpuMsPerPod)),
      spread(perPod, 2),
      lifted ? '–' : spread(bounds),
      lifted ? '–' : spread(ratios, 2),
      aim,
    ]);
  }
  printTable(['run', 'pods', 's', 'pods/s', 'CPU ms/pod', 'writes/pod', 'bound s', '× bound', 'aim'], rows);
  process.stdout.write(`\n${detail.join('\n')}\n`);
}

await main();
