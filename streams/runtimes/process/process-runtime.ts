// The process runtime: each container's command runs as a child process group on this host, logs in CRI format.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readlinkSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { networkInterfaces, constants as osConstants } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { Subject } from 'rxjs';
import { TimeoutError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { criLogWriter } from '../cri-log-writer.ts';
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
import {
  detectPodNamespaces,
  namespacedExec,
  namespacedLaunch,
  type PodNamespaces,
} from './pod-namespaces.ts';
import { descendants, type ProcEntry, procTable } from './proc-table.ts';

/**
 * Images whose usual entrypoint exists on an ordinary Linux host, used only for containers that give no
 * `command`: Kubernetes then runs the image's ENTRYPOINT with `args` (or the image's CMD when `args` is
 * empty too). These images have no ENTRYPOINT and a shell as CMD, so `args` alone are the command line,
 * and with no args the shell starts with no stdin and exits 0, as it would in the image. Matched by
 * repository name, without registry, tag or digest.
 */
export const KNOWN_IMAGE_DEFAULTS: Readonly<Record<string, { entrypoint: string[]; cmd: string[] }>> = {
  busybox: { entrypoint: [], cmd: ['sh'] },
  alpine: { entrypoint: [], cmd: ['/bin/sh'] },
  debian: { entrypoint: [], cmd: ['bash'] },
  ubuntu: { entrypoint: [], cmd: ['/bin/bash'] },
};

export interface ProcessRuntimeConfig {
  logger?: Logger;
  /** Namespace tool: `auto` (default) prefers bwrap, then unshare, else plain processes. */
  namespaces?: 'auto' | 'bwrap' | 'unshare' | 'none';
  /** Where to look for bwrap/unshare/nsenter; default the kubelet's PATH. */
  toolPath?: string;
  /** PATH given to containers whose env sets none; default the kubelet's own PATH. */
  defaultPath?: string;
  /** The pod IP reported for sandboxes; default the host's first non-internal IPv4, else 127.0.0.1. */
  hostIP?: string;
  /** Grace between SIGTERM and SIGKILL in `close()`; default 2 s. */
  closeGraceSeconds?: number;
  /** Image defaults for containers without a command; default KNOWN_IMAGE_DEFAULTS. */
  knownImages?: Readonly<Record<string, { entrypoint: string[]; cmd: string[] }>>;
  /** Wall clock in ms; default Date.now. */
  now?: () => number;
}

interface SandboxRecord {
  config: PodSandboxConfig;
  status: PodSandboxStatus;
}

interface ContainerRecord {
  config: ContainerConfig;
  sandbox: PodSandboxConfig;
  status: ContainerStatus;
  env: Record<string, string>;
  child?: ChildProcess;
  /** The process group of the container (its main process's pid). */
  pgid?: number;
  /** For namespaced containers: the host pid of the init inside the namespaces (the nsenter target). */
  initPid?: number;
  exited: Promise<void>;
  markExited: () => void;
  terminating: boolean;
  /** Processes seen outside the container's group (pid → start ticks), killed with it even once orphaned. */
  escapees: Map<number, number>;
  /** Set once startContainer launches it; stop and close wait for the launch first. */
  starting?: Promise<void>;
  lastCpu?: { nanos: number; at: number };
}

const VERSION = '0.1.0';

/**
 * A container runtime whose containers are host processes.
 *
 * This runtime isolates nothing from the host user: a container runs with the kubelet's user (root,
 * usually), sees the host's filesystem, network and users, and can do whatever that user can do. With
 * namespaces (root plus bwrap or util-linux unshare) each container gets its own mount, PID and UTS
 * namespaces, so volumes appear at their `mountPath`, `hostname` prints the pod's hostname and the
 * container's processes die with its PID 1; that is for fidelity, not security. Every container of a
 * pod gets the pod's hostname (each has its own UTS namespace set to the same name).
 *
 * - Sandbox: a record and its log directory; no process.
 * - Image: recorded, never pulled. Without `command`, only images in `knownImages` can run (their
 *   ENTRYPOINT/CMD exist on the host); any other is `CONTAINER_EXITED`, reason `StartError`.
 * - Environment: exactly the container's `envs` (later entries win), plus `PATH` from `defaultPath`
 *   when the container sets none; nothing else of the kubelet's environment leaks in.
 * - Processes: the command runs in its own process group (spawned detached); stop sends SIGTERM to
 *   the group and to every descendant that left it, SIGKILL after the timeout. When the main process
 *   exits, what is left of the group is killed, as a container's PID namespace would be. Without
 *   namespaces one gap stays: a process that leaves the group (setsid) and whose parent exits before
 *   any stop, exit or close reads the process tree is re-parented to init and cannot be traced; with
 *   namespaces the container's PID 1 takes every process with it. That PID 1 is a small shell
 *   (like `docker run --init`) that passes SIGTERM on and exits with the command's status.
 * - Mounts: applied only with namespaces; plain processes see each volume at its `hostPath`, and the
 *   `workingDir` and an absolute command path under a `mountPath` are mapped to the host path.
 *   A `mountPath` missing on the host is created there (this runtime has no root filesystem of its own).
 * - Exit: exit code, or 128+signal for a process killed by a signal; reason `Completed` for 0, `Error`
 *   otherwise; a command that cannot start is exit code 128, reason `StartError`, with a message in
 *   runc's words, and `startContainer` resolves (the status carries the failure).
 * - Logs: stdout/stderr to `<logDirectory>/<logPath>` in the CRI format (see cri-log.ts).
 * - exec/execSync: the command runs with the container's env and working directory (inside its
 *   namespaces when it has them); a missing command is exit code 127 with the message on stderr;
 *   `tty` runs it on a new pty made by util-linux `script` (80x24, `resize` sets the size; stderr and
 *   stdout are one stream, as on a terminal); without `script` on PATH, tty gets no terminal.
 * - Stats: CPU (utime+stime) and RSS summed over the container's processes, from /proc.
 */
export function processRuntime(config: ProcessRuntimeConfig = {}): ContainerRuntime {
  const logger = (config.logger ?? silentLogger).child({ component: 'process-runtime' });
  const now = config.now ?? Date.now;
  const knownImages = config.knownImages ?? KNOWN_IMAGE_DEFAULTS;
  const defaultPath = config.defaultPath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  const hostIP = config.hostIP ?? firstHostIP();
  const sandboxes = new Map<string, SandboxRecord>();
  const containers = new Map<string, ContainerRecord>();
  const execs = new Set<ChildProcess>();
  const events = new Subject<ContainerEvent>();
  let closed = false;
  let ns: PodNamespaces | undefined;
  let scriptPath: string | undefined;

  const namespaces = (): PodNamespaces => {
    if (ns) return ns;
    ns = detectPodNamespaces({
      ...(config.namespaces ? { namespaces: config.namespaces } : {}),
      ...(config.toolPath ? { path: config.toolPath } : {}),
    });
    if (ns.kind === 'none') {
      logger.warn(
        { reason: ns.reason },
        'pods run as plain host processes: no mount, PID or UTS namespaces (volumes are seen at their host paths)',
      );
    } else {
      logger.info({ tool: ns.kind }, 'each container runs in its own mount, PID and UTS namespaces');
    }
    return ns;
  };

  const open = () => {
    if (closed) throw new RuntimeClosedError('process');
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
  const emit = (type: ContainerEvent['type'], c: ContainerRecord) =>
    events.next({
      type,
      containerId: c.status.id,
      sandboxId: c.status.sandboxId,
      podUid: c.sandbox.metadata.uid,
      at: now(),
    });

  const finish = (c: ContainerRecord, exitCode: number, reason: string, message?: string) => {
    c.status = {
      ...c.status,
      state: 'CONTAINER_EXITED',
      finishedAt: now(),
      exitCode,
      reason,
      ...(message !== undefined ? { message } : {}),
    };
    emit('CONTAINER_STOPPED_EVENT', c);
    c.markExited();
  };

  const startError = (c: ContainerRecord, message: string) => {
    logger.info({ container: c.status.id, message }, 'container could not start');
    finish(c, 128, 'StartError', message);
  };

  /**
   * Signals every process of the container: its group, the descendants of any of them that left the
   * group, and those seen earlier that have lost their parent since. The tree is read from /proc (or
   * `table`) before any signal goes out: a parent that dies of it hands its children to init.
   */
  const signal = (c: ContainerRecord, sig: NodeJS.Signals, table?: ProcEntry[]) => {
    if (c.pgid === undefined) return;
    if (!table && c.escapees.size === 0) {
      try {
        process.kill(-c.pgid, 0);
      } catch {
        return; // nothing of the group is left, and nobody left it
      }
    }
    const all = table ?? procTable();
    const known = all.filter((p) => c.escapees.get(p.pid) === p.startTicks);
    c.escapees = new Map(known.map((p) => [p.pid, p.startTicks]));
    const members = all.filter((p) => p.pgrp === c.pgid).map((p) => p.pid);
    const targets: number[] = [];
    // bwrap's outer process dies on SIGTERM and takes the sandbox with it: spare it, signal the rest.
    const spareMonitor = sig !== 'SIGKILL' && namespaces().kind === 'bwrap';
    for (const p of descendants(all, [...members, ...known.map((k) => k.pid), c.pgid])) {
      if (p.pgrp !== c.pgid) {
        c.escapees.set(p.pid, p.startTicks);
        targets.push(p.pid);
      } else if (spareMonitor && p.pid !== c.pgid) targets.push(p.pid);
    }
    if (!spareMonitor) kill(-c.pgid, sig);
    for (const pid of targets) kill(pid, sig);
  };

  const runtime: ContainerRuntime = {
    name: 'process',
    version: VERSION,
    events$: events.asObservable(),

    async runPodSandbox(sandbox) {
      open();
      namespaces();
      mkdirSync(sandbox.logDirectory, { recursive: true });
      const id = newId();
      sandboxes.set(id, {
        config: sandbox,
        status: {
          id,
          metadata: { ...sandbox.metadata },
          state: 'SANDBOX_READY',
          createdAt: now(),
          ip: hostIP,
          labels: { ...sandbox.labels },
        },
      });
      return id;
    },

    async stopPodSandbox(sandboxId) {
      open();
      const s = sandboxOf(sandboxId);
      await Promise.all(
        [...containers.values()]
          .filter((c) => c.status.sandboxId === sandboxId)
          .map((c) => runtime.stopContainer(c.status.id, 0)),
      );
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
      return structuredClone(sandboxOf(sandboxId).status);
    },

    async listPodSandboxes(filter) {
      open();
      return [...sandboxes.values()]
        .map((s) => s.status)
        .filter((s) => !filter?.podUid || s.metadata.uid === filter.podUid)
        .filter((s) => !filter?.state || s.state === filter.state)
        .map((s) => structuredClone(s));
    },

    async createContainer(sandboxId, container, sandbox) {
      open();
      const s = sandboxOf(sandboxId);
      if (s.status.state !== 'SANDBOX_READY') {
        throw new RuntimeStateError(`sandbox ${sandboxId} is not ready: cannot create a container in it`);
      }
      const id = newId();
      let markExited!: () => void;
      const exited = new Promise<void>((resolve) => {
        markExited = resolve;
      });
      const env: Record<string, string> = {};
      for (const { key, value } of container.envs) env[key] = value;
      if (env.PATH === undefined) env.PATH = defaultPath;
      const record: ContainerRecord = {
        config: structuredClone(container),
        sandbox: structuredClone(sandbox),
        env,
        exited,
        markExited,
        terminating: false,
        escapees: new Map(),
        status: {
          id,
          sandboxId,
          metadata: { ...container.metadata },
          image: container.image,
          state: 'CONTAINER_CREATED',
          createdAt: now(),
          logPath: join(sandbox.logDirectory, container.logPath),
          labels: { ...container.labels },
        },
      };
      containers.set(id, record);
      emit('CONTAINER_CREATED_EVENT', record);
      return id;
    },

    async startContainer(containerId) {
      open();
      const c = containerOf(containerId);
      if (c.status.state !== 'CONTAINER_CREATED' || c.starting) {
        throw new RuntimeStateError(
          `container ${containerId} is in ${c.status.state} state, only CONTAINER_CREATED can be started`,
        );
      }
      c.starting = launch(c);
      await c.starting;
    },

    async stopContainer(containerId, timeoutSeconds) {
      open();
      const c = containerOf(containerId);
      if (c.starting) await c.starting;
      if (c.status.state !== 'CONTAINER_RUNNING') return;
      c.terminating = true;
      if (timeoutSeconds <= 0) signal(c, 'SIGKILL');
      else signal(c, 'SIGTERM');
      const timer =
        timeoutSeconds > 0 ? setTimeout(() => signal(c, 'SIGKILL'), timeoutSeconds * 1000) : undefined;
      await c.exited;
      if (timer) clearTimeout(timer);
    },

    async removeContainer(containerId) {
      open();
      const c = containers.get(containerId);
      if (!c) return;
      if (c.status.state === 'CONTAINER_RUNNING') await runtime.stopContainer(containerId, 0);
      containers.delete(containerId);
      emit('CONTAINER_DELETED_EVENT', c);
    },

    async containerStatus(containerId) {
      open();
      return structuredClone(containerOf(containerId).status);
    },

    async listContainers(filter) {
      open();
      return [...containers.values()]
        .filter((c) => !filter?.sandboxId || c.status.sandboxId === filter.sandboxId)
        .filter((c) => !filter?.podUid || c.sandbox.metadata.uid === filter.podUid)
        .filter((c) => !filter?.state || c.status.state === filter.state)
        .map((c) => structuredClone(c.status));
    },

    async execSync(containerId, command, timeoutSeconds) {
      open();
      const c = running(containerOf(containerId));
      const child = execChild(c, command, false);
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout?.on('data', (d: Buffer) => stdout.push(d));
      child.stderr?.on('data', (d: Buffer) => stderr.push(d));
      const timer =
        timeoutSeconds > 0
          ? setTimeout(() => {
              timedOut = true;
              killGroup(child);
            }, timeoutSeconds * 1000)
          : undefined;
      let timedOut = false;
      const exitCode = await execExit(child, command[0] ?? '', stderr);
      if (timer) clearTimeout(timer);
      if (timedOut)
        throw new TimeoutError(`exec ${JSON.stringify(command)} in ${containerId}`, timeoutSeconds * 1000);
      return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode } satisfies ExecResult;
    },

    async exec(containerId, command, options) {
      open();
      const c = running(containerOf(containerId));
      // A terminal comes from util-linux `script`, which runs the command on a new pty.
      if (options.tty && scriptPath === undefined) scriptPath = which('script') ?? '';
      const pty = options.tty ? (scriptPath ?? '') : '';
      const argv = pty ? ptyCommand(pty, plainPath(c, command)) : command;
      const child = execChild(c, argv, options.stdin || pty !== '');
      const stderrLines: Buffer[] = [];
      if (options.tty) {
        // A terminal has one output: stderr shows on the same stream as stdout.
        child.stderr?.pipe(child.stdout as unknown as NodeJS.WritableStream, { end: false });
      }
      const exit = execExit(child, command[0] ?? '', stderrLines);
      const session: ExecSession = {
        stdout: child.stdout!,
        stderr: options.tty ? undefined : child.stderr!,
        stdin: options.stdin ? child.stdin! : undefined,
        exit,
        kill: () => killGroup(child),
      };
      if (pty && child.pid !== undefined) {
        const pid = child.pid;
        return { ...session, resize: (cols, rows) => resizePty(pid, cols, rows) };
      }
      return session;
    },

    async containerStats(containerId) {
      open();
      const c = containerOf(containerId);
      if (c.status.state !== 'CONTAINER_RUNNING' || c.pgid === undefined) return undefined;
      const procs = processesOf(c.pgid);
      const at = now();
      const nanos = procs.reduce((sum, p) => sum + p.cpuNanos, 0);
      const stats: ContainerStats = {
        containerId,
        cpuUsageCoreNanoSeconds: Math.round(nanos),
        memoryWorkingSetBytes: procs.reduce((sum, p) => sum + p.rssBytes, 0),
        at,
      };
      if (c.lastCpu && at > c.lastCpu.at) {
        stats.cpuUsageNanoCores = Math.max(
          0,
          Math.round(((nanos - c.lastCpu.nanos) / (at - c.lastCpu.at)) * 1e6),
        );
      }
      c.lastCpu = { nanos, at };
      return stats;
    },

    async close() {
      if (closed) return;
      closed = true;
      const grace = config.closeGraceSeconds ?? 2;
      for (const child of execs) killGroup(child);
      await Promise.all([...containers.values()].map((c) => c.starting));
      const table = procTable();
      await Promise.all(
        [...containers.values()].map(async (c) => {
          if (c.status.state !== 'CONTAINER_RUNNING') {
            // Exited, but processes that left its group may have outlived it.
            if (c.escapees.size) signal(c, 'SIGKILL', table);
            return;
          }
          signal(c, grace > 0 ? 'SIGTERM' : 'SIGKILL', table);
          const timer = setTimeout(() => signal(c, 'SIGKILL'), grace * 1000);
          await c.exited;
          clearTimeout(timer);
        }),
      );
      await Promise.all([...execs].map((child) => stdioClosed(child)(1000)));
      events.complete();
    },
  };

  /** Launches a created container; resolves once it runs or has failed to start (never rejects). */
  async function launch(c: ContainerRecord): Promise<void> {
    const argv = commandLine(c.config, knownImages);
    if (typeof argv === 'string') {
      c.status = { ...c.status, startedAt: now() };
      startError(c, argv);
      return;
    }
    const nsMode = namespaces();
    const log = criLogWriter(c.status.logPath);
    const keepPwd = c.env.PWD !== undefined;
    let child: ChildProcess;
    if (nsMode.kind === 'none') {
      const cwd = c.config.workingDir ? mapToHost(c.config.workingDir, c.config.mounts) : undefined;
      if (cwd !== undefined && !isDirectory(cwd)) {
        await log.end();
        startError(
          c,
          `chdir to cwd (${JSON.stringify(c.config.workingDir)}) set in config.json failed: no such file or directory`,
        );
        return;
      }
      const file = isAbsolute(argv[0]!) ? mapToHost(argv[0]!, c.config.mounts) : argv[0]!;
      child = spawn(file, argv.slice(1), {
        argv0: argv[0]!,
        env: c.env,
        ...(cwd !== undefined ? { cwd } : {}),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } else {
      // bwrap cannot create a mount point whose parents are missing behind a symlink (/var/run → /run), so
      // missing mount points are made on the host first, as the unshare init makes them (documented).
      ensureMountPoints(c.config.mounts);
      const launch = namespacedLaunch(nsMode, {
        hostname: c.sandbox.hostname,
        // bwrap refuses a destination behind a symlink; the root is the host's, so its real path is the same place
        mounts:
          nsMode.kind === 'bwrap'
            ? c.config.mounts.map((m) => ({ ...m, containerPath: realPathOrSelf(m.containerPath) }))
            : c.config.mounts,
        workingDir: c.config.workingDir,
        keepPwd,
        argv,
      });
      child = spawn(launch.file, launch.args, {
        env: c.env,
        cwd: '/',
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      });
    }
    c.child = child;
    const closed$ = stdioClosed(child);
    const exit = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, sig) => resolve({ code, sig })),
    );
    child.stdout?.on('data', (chunk: Buffer) => log.write('stdout', chunk));
    child.stderr?.on('data', (chunk: Buffer) => log.write('stderr', chunk));

    // Started: for plain processes once spawned; namespaced once the init says `ok` on fd 3.
    const started = await new Promise<{ ok: true } | { ok: false; message: string }>((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) =>
        resolve({ ok: false, message: spawnErrorMessage(argv[0]!, error) }),
      );
      if (nsMode.kind === 'none') {
        child.once('spawn', () => resolve({ ok: true }));
        return;
      }
      const status = child.stdio[3] as NodeJS.ReadableStream | null;
      let said = '';
      status?.on('data', (d: Buffer) => {
        said += d.toString();
        if (said === 'ok') resolve({ ok: true });
      });
      status?.on('end', () => {
        if (said !== 'ok')
          resolve({ ok: false, message: said || 'the container init exited before starting' });
      });
    });
    if (!started.ok) {
      c.pgid = child.pid;
      if (child.pid !== undefined) signal(c, 'SIGKILL');
      await closed$(1000);
      await log.end();
      c.status = { ...c.status, startedAt: now() };
      startError(c, started.message);
      return;
    }
    c.pgid = child.pid;
    c.status = { ...c.status, state: 'CONTAINER_RUNNING', startedAt: now(), pid: child.pid! };
    emit('CONTAINER_STARTED_EVENT', c);
    logger.debug({ container: c.status.id, pid: child.pid }, 'container started');

    void exit.then(async ({ code, sig }) => {
      // The main process is gone: the container ends, and what is left of it is killed.
      signal(c, 'SIGKILL');
      await closed$(1000);
      await log.end();
      const exitCode = code ?? 128 + signalNumber(sig);
      finish(c, exitCode, exitCode === 0 ? 'Completed' : 'Error');
    });
  }

  function running(c: ContainerRecord): ContainerRecord {
    if (c.status.state !== 'CONTAINER_RUNNING') {
      throw new RuntimeStateError(`container ${c.status.id} is not running (${c.status.state})`);
    }
    return c;
  }

  /** For plain processes, an absolute command under a mountPath is run from its host path. */
  function plainPath(c: ContainerRecord, command: string[]): string[] {
    if (namespaces().kind !== 'none') return command;
    const [first, ...rest] = command;
    return first && isAbsolute(first) ? [mapToHost(first, c.config.mounts), ...rest] : command;
  }

  function execChild(c: ContainerRecord, command: string[], stdin: boolean): ChildProcess {
    const nsMode = namespaces();
    const stdio: ('pipe' | 'ignore')[] = [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'];
    let child: ChildProcess;
    if (nsMode.kind !== 'none') {
      // The nsenter target, found on first use (a scan of /proc) rather than at every start.
      if (c.initPid === undefined && c.pgid !== undefined) c.initPid = findInit(c.pgid);
      if (c.initPid === undefined) {
        throw new RuntimeStateError(`container ${c.status.id} has no process left to exec in`);
      }
      const launch = namespacedExec(
        nsMode.nsenter,
        c.initPid,
        c.config.workingDir,
        c.env.PWD !== undefined,
        command,
      );
      child = spawn(launch.file, launch.args, { env: c.env, cwd: '/', detached: true, stdio });
    } else {
      const cwd = c.config.workingDir ? mapToHost(c.config.workingDir, c.config.mounts) : undefined;
      const file = command[0] && isAbsolute(command[0]) ? mapToHost(command[0], c.config.mounts) : command[0];
      child = spawn(file ?? '', command.slice(1), {
        env: c.env,
        ...(cwd !== undefined ? { cwd } : {}),
        detached: true,
        stdio,
      });
    }
    execs.add(child);
    child.once('close', () => execs.delete(child));
    child.once('error', () => execs.delete(child));
    return child;
  }

  return runtime;
}

/** The command line to run, or the StartError message when there is none this runtime can honestly run. */
function commandLine(
  config: ContainerConfig,
  knownImages: Readonly<Record<string, { entrypoint: string[]; cmd: string[] }>>,
): string[] | string {
  if (config.command.length > 0) return [...config.command, ...config.args];
  const known = knownImages[repository(config.image)];
  if (known) {
    const argv = [...known.entrypoint, ...(config.args.length ? config.args : known.cmd)];
    if (argv.length > 0) return argv;
  }
  return `the process runtime runs only containers with a command: the entrypoint of image ${JSON.stringify(
    config.image,
  )} is not known here (set command in the pod spec)`;
}

/** `docker.io/library/busybox:1.36@sha256:…` → `busybox`. */
function repository(image: string): string {
  let name = image.split('@')[0]!;
  const lastSlash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > lastSlash) name = name.slice(0, colon);
  return name.slice(lastSlash + 1);
}

/** Plain processes see volumes at their host paths: map a path under a mountPath to the host. */
function mapToHost(path: string, mounts: ContainerConfig['mounts']): string {
  let best: ContainerConfig['mounts'][number] | undefined;
  for (const m of mounts) {
    const root = m.containerPath.replace(/\/+$/, '');
    if (path === root || path.startsWith(`${root}/`)) {
      if (!best || root.length > best.containerPath.replace(/\/+$/, '').length) best = m;
    }
  }
  if (!best) return path;
  return best.hostPath + path.slice(best.containerPath.replace(/\/+$/, '').length);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function spawnErrorMessage(command: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') {
    return command.includes('/')
      ? `exec: ${JSON.stringify(command)}: stat ${command}: no such file or directory`
      : `exec: ${JSON.stringify(command)}: executable file not found in $PATH`;
  }
  if (error.code === 'EACCES') return `exec: ${JSON.stringify(command)}: permission denied`;
  return `exec: ${JSON.stringify(command)}: ${error.message}`;
}

function signalNumber(sig: NodeJS.Signals | null): number {
  return sig ? ((osConstants.signals as Record<string, number>)[sig] ?? 0) : 0;
}

/**
 * Resolves when the child's stdio has closed, or `ms` after the call (an escaped grandchild may hold a
 * pipe open: then the pipes are destroyed). Must be called before the child can close (right after spawn).
 */
function stdioClosed(child: ChildProcess): (ms?: number) => Promise<void> {
  const closed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  return (ms) => {
    if (ms === undefined) return closed;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve();
      }, ms);
    });
    return Promise.race([closed, late]).finally(() => clearTimeout(timer));
  };
}

function kill(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {}
}

function killGroup(child: ChildProcess) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
}

/** An exec's exit code: 128+signal when killed, 127 with a message when the command is missing. */
function execExit(child: ChildProcess, command: string, stderr: Buffer[]): Promise<number> {
  return new Promise((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      const message = `${spawnErrorMessage(command, error)}\n`;
      stderr.push(Buffer.from(message));
      resolve(error.code === 'ENOENT' ? 127 : 126);
    });
    child.once('close', (code, sig) => resolve(code ?? 128 + signalNumber(sig)));
  });
}

/** The processes of a container: its group and every descendant of its main process. */
function processesOf(pgid: number): ProcEntry[] {
  const table = procTable();
  const seen = new Map<number, ProcEntry>();
  for (const p of table) if (p.pgrp === pgid) seen.set(p.pid, p);
  for (const p of descendants(table, pgid)) seen.set(p.pid, p);
  return [...seen.values()];
}

/** `script` runs the command on a new pty (80x24 until resized) and exits with its status. */
function ptyCommand(script: string, command: string[]): string[] {
  const quoted = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return [script, '-q', '-e', '-c', `stty cols 80 rows 24 2>/dev/null; exec ${quoted}`, '/dev/null'];
}

/** Sets the size of the pty a `script` session made (the kernel then sends SIGWINCH to its processes). */
function resizePty(scriptPid: number, cols: number, rows: number): void {
  for (const p of descendants(procTable(), scriptPid)) {
    let tty: string;
    try {
      tty = readlinkSync(`/proc/${p.pid}/fd/0`);
    } catch {
      continue;
    }
    if (!tty.startsWith('/dev/pts/')) continue;
    spawnSync('stty', ['-F', tty, 'cols', String(Math.max(1, cols)), 'rows', String(Math.max(1, rows))], {
      timeout: 2000,
      stdio: 'ignore',
    });
    return;
  }
}

function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  return undefined;
}

/** The namespaced init: the first descendant of the launcher whose PID namespace differs from ours. */
function findInit(launcherPid: number): number | undefined {
  const ours = nsId('self');
  for (const p of descendants(procTable(), launcherPid)) {
    const theirs = nsId(String(p.pid));
    if (theirs && theirs !== ours) return p.pid;
  }
  return undefined;
}

function nsId(pid: string): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

function newId(): string {
  return randomBytes(16).toString('hex');
}

function firstHostIP(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

/** Creates each missing mount point on the host: a directory for a directory source, else an empty file. */
function ensureMountPoints(mounts: readonly { hostPath: string; containerPath: string }[]): void {
  for (const m of mounts) {
    if (existsSync(m.containerPath)) continue;
    try {
      if (statSync(m.hostPath).isDirectory()) mkdirSync(m.containerPath, { recursive: true });
      else {
        mkdirSync(dirname(m.containerPath), { recursive: true });
        writeFileSync(m.containerPath, '', { flag: 'a' });
      }
    } catch {
      // the init (or bwrap) reports the mount failure with the path
    }
  }
}

function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
