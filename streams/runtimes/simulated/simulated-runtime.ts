// The simulated runtime: containers that "run" for a time and exit with a code, in (virtual) time, with no processes.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { asyncScheduler, type SchedulerLike, Subject, Subscription } from 'rxjs';
import { TimeoutError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type CriLogEntry, type CriLogStream, criLogTimestamp, formatCriLogLine } from '../cri-log.ts';
import type {
  ContainerConfig,
  ContainerEvent,
  ContainerRuntime,
  ContainerStats,
  ContainerStatus,
  ExecResult,
  ExecSession,
  PodSandboxConfig,
  PodSandboxStatus,
} from '../runtime.ts';
import { RuntimeClosedError, RuntimeNotFoundError, RuntimeStateError } from '../runtime-errors.ts';
import { type SimulatedPlan, simulatedPlan } from './simulated-plan.ts';

/** Annotation and label keys that steer a simulated container (on the container, else on the pod). */
export const SIMULATED = {
  /** Seconds the container runs before it exits; `infinity` (or absent, with no other hint) runs until stopped. */
  runSeconds: 'kube-rx.io/simulated-run-seconds',
  /** Exit code when it ends by itself; default 0 (or what its command line says). */
  exitCode: 'kube-rx.io/simulated-exit-code',
  /** Seconds it takes to exit after SIGTERM; default 0; longer than the stop timeout means SIGKILL (137). */
  termSeconds: 'kube-rx.io/simulated-term-seconds',
  /** Exit code of exec commands the simulation does not understand (e.g. `cat /tmp/healthy`); default 0. */
  execExitCode: 'kube-rx.io/simulated-exec-exit-code',
  /** Resident memory reported by containerStats, in bytes; default 0. */
  memoryBytes: 'kube-rx.io/simulated-memory-bytes',
  /** CPU use reported by containerStats, in millicores; default 0. */
  cpuMillicores: 'kube-rx.io/simulated-cpu-millicores',
} as const;

export interface SimulatedRuntimeConfig {
  /** Time for run durations, stop timeouts and timestamps; default asyncScheduler (tests pass a virtual one). */
  scheduler?: SchedulerLike;
  logger?: Logger;
  /**
   * `file` (default): CRI log lines at the container's logPath, so the kubelet can serve them; `memory`: the
   * last `memoryLogLines` entries per container, read with `logs(id)`; `none`: nothing.
   */
  logs?: 'file' | 'memory' | 'none';
  /** Entries kept per container with `logs: 'memory'`; default 100. */
  memoryLogLines?: number;
  /** First two octets of the pod IPs handed out (`<prefix>.x.y`); default `10.88`. */
  podIPPrefix?: string;
}

/** The runtime port plus the in-memory logs of `logs: 'memory'`. */
export interface SimulatedRuntime extends ContainerRuntime {
  /** The log entries kept for a container (empty unless `logs: 'memory'`). */
  logs(containerId: string): readonly CriLogEntry[];
}

interface Sandbox {
  config: PodSandboxConfig;
  status: PodSandboxStatus;
}

interface Container {
  status: ContainerStatus;
  sandbox: Sandbox;
  name: string;
  annotations: Record<string, string>;
  plan: SimulatedPlan;
  /** ms to run (Infinity: until stopped). */
  runMs: number;
  termMs: number;
  timers: Subscription[];
  exited?: Promise<void>;
  markExited?: () => void;
  log?: CriLogEntry[];
  terminating: boolean;
}

/**
 * A container runtime for scale tests and benches: no processes, only records and timers on the
 * injected scheduler, so thousands of pods cost a few KB each and run in virtual time.
 *
 * What a container does, in order of precedence:
 * 1. annotations (or labels) on the container, else on the pod: `kube-rx.io/simulated-run-seconds` and
 *    `kube-rx.io/simulated-exit-code` (an exit code alone means it exits at once);
 * 2. its command line, read by `simulatedPlan`: `sleep 5`, `true`, `false`, `sh -c 'echo hi; sleep 2; exit 3'`
 *    (echo lines go to its log at their time);
 * 3. otherwise it runs until stopped (a server).
 * A container with no command runs until stopped too (the image is recorded, never pulled).
 *
 * Stopping: SIGTERM ends it at once with exit 143 (128+15, as a process with the default handler), or after
 * `kube-rx.io/simulated-term-seconds`; if that is longer than the stop timeout it is killed with 137
 * (128+9). A timeout of 0 kills at once (137). Reasons: `Completed` for 0, `Error` otherwise.
 *
 * Exec: the command line is read with the same rules (`true` → 0, `false` → 1, `sh -c 'echo x; exit 2'`);
 * a command the simulation does not understand exits with `kube-rx.io/simulated-exec-exit-code` (default
 * 0) and prints nothing; `sleep` inside takes virtual time and counts against the timeout.
 *
 * Logs: one line per start, `simulated container <name> started`, then the echo lines.
 * `close()` kills every running container at once (137) and cancels every timer.
 */
export function simulatedRuntime(config: SimulatedRuntimeConfig = {}): SimulatedRuntime {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: 'simulated-runtime' });
  const logMode = config.logs ?? 'file';
  const keepLines = config.memoryLogLines ?? 100;
  const prefix = config.podIPPrefix ?? '10.88';
  const sandboxes = new Map<string, Sandbox>();
  const containers = new Map<string, Container>();
  const execTimers = new Set<Subscription>();
  const events = new Subject<ContainerEvent>();
  let closed = false;
  let nextId = 0;
  let nextIP = 0;
  const now = () => scheduler.now();

  const open = () => {
    if (closed) throw new RuntimeClosedError('simulated');
  };
  const sandboxOf = (id: string) => {
    const s = sandboxes.get(id);
    if (!s) throw new RuntimeNotFoundError('sandbox', id);
    return s;
  };
  const containerOf = (id: string) => {
    const c = containers.get(id);
    if (!c) throw new RuntimeNotFoundError('container', id);
    return c;
  };
  const emit = (type: ContainerEvent['type'], c: Container) =>
    events.next({
      type,
      containerId: c.status.id,
      sandboxId: c.status.sandboxId,
      podUid: c.sandbox.config.metadata.uid,
      at: now(),
    });

  const writeLog = (c: Container, stream: CriLogStream, content: string) => {
    if (logMode === 'none') return;
    const time = now();
    for (const line of content.split('\n')) {
      const entry: CriLogEntry = {
        timestamp: criLogTimestamp(time),
        time,
        stream,
        partial: false,
        content: line,
      };
      if (logMode === 'memory') {
        c.log ??= [];
        c.log.push(entry);
        if (c.log.length > keepLines) c.log.shift();
      } else {
        try {
          mkdirSync(dirname(c.status.logPath), { recursive: true });
          appendFileSync(c.status.logPath, formatCriLogLine(entry));
        } catch (error) {
          logger.warn({ path: c.status.logPath, error: String(error) }, 'cannot write the simulated log');
        }
      }
    }
  };

  const finish = (c: Container, exitCode: number) => {
    if (c.status.state !== 'CONTAINER_RUNNING') return;
    for (const t of c.timers) t.unsubscribe();
    c.timers = [];
    c.status = {
      ...c.status,
      state: 'CONTAINER_EXITED',
      finishedAt: now(),
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
    };
    emit('CONTAINER_STOPPED_EVENT', c);
    c.markExited?.();
  };

  const after = (c: Container, ms: number, work: () => void) => {
    const sub = scheduler.schedule(work, Math.max(0, ms));
    c.timers.push(sub);
  };

  const runtime: SimulatedRuntime = {
    name: 'simulated',
    version: '0.1.0',
    events$: events.asObservable(),

    logs(containerId) {
      return containers.get(containerId)?.log ?? [];
    },

    async runPodSandbox(sandbox) {
      open();
      const id = `sim-sandbox-${++nextId}`;
      const n = nextIP++ % 65_024;
      sandboxes.set(id, {
        config: sandbox,
        status: {
          id,
          metadata: sandbox.metadata,
          state: 'SANDBOX_READY',
          createdAt: now(),
          ip: `${prefix}.${1 + Math.floor(n / 254)}.${1 + (n % 254)}`,
          labels: sandbox.labels,
        },
      });
      return id;
    },

    async stopPodSandbox(sandboxId) {
      open();
      const s = sandboxOf(sandboxId);
      for (const c of containers.values()) {
        if (c.status.sandboxId === sandboxId) finish(c, 137);
      }
      s.status = { ...s.status, state: 'SANDBOX_NOTREADY' };
    },

    async removePodSandbox(sandboxId) {
      open();
      if (!sandboxes.has(sandboxId)) return;
      for (const c of [...containers.values()]) {
        if (c.status.sandboxId === sandboxId) await runtime.removeContainer(c.status.id);
      }
      sandboxes.delete(sandboxId);
    },

    async podSandboxStatus(sandboxId) {
      open();
      return { ...sandboxOf(sandboxId).status };
    },

    async listPodSandboxes(filter) {
      open();
      const out: PodSandboxStatus[] = [];
      for (const s of sandboxes.values()) {
        if (filter?.podUid && s.status.metadata.uid !== filter.podUid) continue;
        if (filter?.state && s.status.state !== filter.state) continue;
        out.push({ ...s.status });
      }
      return out;
    },

    async createContainer(sandboxId, container, sandbox) {
      open();
      const s = sandboxOf(sandboxId);
      if (s.status.state !== 'SANDBOX_READY') {
        throw new RuntimeStateError(`sandbox ${sandboxId} is not ready: cannot create a container in it`);
      }
      const id = `sim-container-${++nextId}`;
      const hints = {
        ...sandbox.annotations,
        ...sandbox.labels,
        ...container.labels,
        ...container.annotations,
      };
      const { plan, runMs, exitCode } = behaviour(container, hints);
      plan.exitCode = exitCode;
      const c: Container = {
        sandbox: s,
        name: container.metadata.name,
        annotations: pick(hints),
        plan,
        runMs,
        termMs: (seconds(hints[SIMULATED.termSeconds]) ?? 0) * 1000,
        timers: [],
        terminating: false,
        status: {
          id,
          sandboxId,
          metadata: container.metadata,
          image: container.image,
          state: 'CONTAINER_CREATED',
          createdAt: now(),
          logPath: join(sandbox.logDirectory, container.logPath),
          labels: container.labels,
        },
      };
      containers.set(id, c);
      emit('CONTAINER_CREATED_EVENT', c);
      return id;
    },

    async startContainer(containerId) {
      open();
      const c = containerOf(containerId);
      if (c.status.state !== 'CONTAINER_CREATED') {
        throw new RuntimeStateError(
          `container ${containerId} is in ${c.status.state} state, only CONTAINER_CREATED can be started`,
        );
      }
      c.exited = new Promise<void>((resolve) => {
        c.markExited = resolve;
      });
      c.status = { ...c.status, state: 'CONTAINER_RUNNING', startedAt: now() };
      emit('CONTAINER_STARTED_EVENT', c);
      writeLog(c, 'stdout', `simulated container ${c.name} started`);
      // Echo lines at their time, then the exit when the run time is up.
      let at = 0;
      for (const step of c.plan.steps) {
        if (at > c.runMs) break;
        if (step.kind === 'sleep') at += step.ms;
        else if (step.kind === 'forever') at = Number.POSITIVE_INFINITY;
        else if (at === 0) writeLog(c, step.stream, step.text);
        else after(c, at, () => writeLog(c, step.stream, step.text));
      }
      if (c.runMs === 0) finish(c, c.plan.exitCode);
      else if (Number.isFinite(c.runMs)) after(c, c.runMs, () => finish(c, c.plan.exitCode));
    },

    async stopContainer(containerId, timeoutSeconds) {
      open();
      const c = containerOf(containerId);
      if (c.status.state !== 'CONTAINER_RUNNING') return;
      const timeoutMs = Math.max(0, timeoutSeconds * 1000);
      if (timeoutMs === 0) finish(c, 137);
      else if (!c.terminating) {
        c.terminating = true;
        if (c.termMs === 0) finish(c, 143);
        else if (c.termMs < timeoutMs) after(c, c.termMs, () => finish(c, 143));
        else after(c, timeoutMs, () => finish(c, 137));
      } else {
        // A second stop can only bring the kill closer.
        after(c, timeoutMs, () => finish(c, 137));
      }
      await c.exited;
    },

    async removeContainer(containerId) {
      open();
      const c = containers.get(containerId);
      if (!c) return;
      finish(c, 137);
      containers.delete(containerId);
      emit('CONTAINER_DELETED_EVENT', c);
    },

    async containerStatus(containerId) {
      open();
      return { ...containerOf(containerId).status };
    },

    async listContainers(filter) {
      open();
      const out: ContainerStatus[] = [];
      for (const c of containers.values()) {
        if (filter?.sandboxId && c.status.sandboxId !== filter.sandboxId) continue;
        if (filter?.podUid && c.sandbox.config.metadata.uid !== filter.podUid) continue;
        if (filter?.state && c.status.state !== filter.state) continue;
        out.push({ ...c.status });
      }
      return out;
    },

    async execSync(containerId, command, timeoutSeconds) {
      open();
      const c = running(containerOf(containerId));
      const { plan, durationMs } = execPlan(command, c);
      const stdout: string[] = [];
      const stderr: string[] = [];
      for (const step of plan.steps) {
        if (step.kind === 'echo') (step.stream === 'stdout' ? stdout : stderr).push(`${step.text}\n`);
      }
      const limit = timeoutSeconds > 0 ? timeoutSeconds * 1000 : Number.POSITIVE_INFINITY;
      await wait(Math.min(durationMs, limit));
      if (durationMs > limit) {
        throw new TimeoutError(`exec ${JSON.stringify(command)} in ${containerId}`, limit);
      }
      return {
        stdout: Buffer.from(stdout.join('')),
        stderr: Buffer.from(stderr.join('')),
        exitCode: plan.exitCode,
      } satisfies ExecResult;
    },

    async exec(containerId, command, options) {
      open();
      const c = running(containerOf(containerId));
      const { plan, durationMs } = execPlan(command, c);
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const stdin = options.stdin ? new PassThrough() : undefined;
      const isCat = command.length === 1 && command[0]!.endsWith('cat');
      let kill!: () => void;
      const exit = new Promise<number>((resolve) => {
        const done = (code: number) => {
          stdout.end();
          stderr.end();
          resolve(code);
        };
        kill = () => {
          timer?.unsubscribe();
          done(137);
        };
        for (const step of plan.steps) {
          if (step.kind === 'echo')
            (step.stream === 'stdout' || options.tty ? stdout : stderr).write(`${step.text}\n`);
        }
        let timer: Subscription | undefined;
        if (isCat && stdin) {
          // `cat` with stdin: echoes until stdin ends, as the real one would.
          stdin.pipe(stdout, { end: false });
          stdin.on('end', () => done(0));
        } else if (Number.isFinite(durationMs)) {
          timer = scheduler.schedule(() => {
            if (timer) execTimers.delete(timer);
            done(plan.exitCode);
          }, durationMs);
          execTimers.add(timer);
        } else {
          timer = Subscription.EMPTY;
        }
      });
      return {
        stdout,
        stderr: options.tty ? undefined : stderr,
        stdin,
        exit,
        kill: () => kill(),
      } satisfies ExecSession;
    },

    async containerStats(containerId) {
      open();
      const c = containerOf(containerId);
      if (c.status.state !== 'CONTAINER_RUNNING') return undefined;
      const millicores = Number(c.annotations[SIMULATED.cpuMillicores] ?? 0) || 0;
      const ranMs = now() - (c.status.startedAt ?? now());
      return {
        containerId,
        cpuUsageNanoCores: millicores * 1e6,
        cpuUsageCoreNanoSeconds: Math.round(ranMs * 1e6 * (millicores / 1000)),
        memoryWorkingSetBytes: Number(c.annotations[SIMULATED.memoryBytes] ?? 0) || 0,
        at: now(),
      } satisfies ContainerStats;
    },

    async close() {
      if (closed) return;
      for (const c of containers.values()) finish(c, 137);
      for (const t of execTimers) t.unsubscribe();
      execTimers.clear();
      closed = true;
      events.complete();
    },
  };

  function running(c: Container): Container {
    if (c.status.state !== 'CONTAINER_RUNNING') {
      throw new RuntimeStateError(`container ${c.status.id} is not running (${c.status.state})`);
    }
    return c;
  }

  function execPlan(command: string[], c: Container): { plan: SimulatedPlan; durationMs: number } {
    const plan = simulatedPlan(command);
    if (!plan.recognised) {
      plan.exitCode = Number(c.annotations[SIMULATED.execExitCode] ?? 0) || 0;
    }
    let durationMs = 0;
    for (const step of plan.steps) {
      if (step.kind === 'sleep') durationMs += step.ms;
      if (step.kind === 'forever') durationMs = Number.POSITIVE_INFINITY;
    }
    return { plan, durationMs };
  }

  function wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    if (!Number.isFinite(ms)) return new Promise(() => {});
    return new Promise((resolve) => {
      const sub: Subscription = scheduler.schedule(() => {
        execTimers.delete(sub);
        resolve();
      }, ms);
      execTimers.add(sub);
    });
  }

  return runtime;
}

/** The run time (ms, Infinity = until stopped), the exit code and the plan of a container. */
function behaviour(
  container: ContainerConfig,
  hints: Record<string, string>,
): { plan: SimulatedPlan; runMs: number; exitCode: number } {
  const argv = [...container.command, ...container.args];
  const plan = argv.length ? simulatedPlan(argv) : { steps: [], exitCode: 0, recognised: false };
  let planMs = plan.recognised ? 0 : Number.POSITIVE_INFINITY;
  for (const step of plan.steps) {
    if (step.kind === 'sleep') planMs += step.ms;
    if (step.kind === 'forever') planMs = Number.POSITIVE_INFINITY;
  }
  const runHint = hints[SIMULATED.runSeconds];
  const codeHint = hints[SIMULATED.exitCode];
  const exitCode = codeHint !== undefined ? Number.parseInt(codeHint, 10) & 0xff || 0 : plan.exitCode;
  let runMs: number;
  if (runHint !== undefined)
    runMs = runHint === 'infinity' ? Number.POSITIVE_INFINITY : (seconds(runHint) ?? 0) * 1000;
  else if (codeHint !== undefined && !plan.recognised) runMs = 0;
  else runMs = planMs;
  return { plan, runMs, exitCode };
}

function seconds(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Only the simulation's own keys are kept per container (the rest stays with the kubelet). */
function pick(hints: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.values(SIMULATED)) if (hints[key] !== undefined) out[key] = hints[key];
  return out;
}
