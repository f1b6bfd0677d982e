// Test fixtures for the container runtimes: sandbox and container configs, and waiting for a container state.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ContainerConfig,
  ContainerRuntime,
  ContainerState,
  ContainerStatus,
  PodSandboxConfig,
} from '../../../streams/runtimes/runtime.ts';

let pods = 0;

/** A sandbox config with a fresh log directory under a temp dir. */
export function sandboxConfig(overrides: Partial<PodSandboxConfig> = {}): PodSandboxConfig {
  pods++;
  const root = mkdtempSync(join(tmpdir(), 'kube-rx-runtime-'));
  const uid = `uid-${pods}-${process.pid}`;
  return {
    metadata: { name: `pod-${pods}`, namespace: 'default', uid, attempt: 0 },
    hostname: `pod-${pods}`,
    logDirectory: join(root, `default_pod-${pods}_${uid}`),
    labels: { app: 'test' },
    annotations: {},
    ...overrides,
  };
}

/** A container config running `command`; its log goes to `<name>/0.log`. */
export function containerConfig(
  name: string,
  command: string[],
  overrides: Partial<ContainerConfig> = {},
): ContainerConfig {
  return {
    metadata: { name, attempt: 0 },
    image: 'docker.io/library/busybox:1.36',
    command,
    args: [],
    envs: [],
    mounts: [],
    logPath: `${name}/0.log`,
    labels: { 'io.kubernetes.container.name': name },
    annotations: {},
    ...overrides,
  };
}

/** Polls the container's status (10 ms) until it reaches `state`; rejects after `ms` real ms. */
export async function waitForState(
  runtime: ContainerRuntime,
  id: string,
  state: ContainerState,
  ms = 10_000,
): Promise<ContainerStatus> {
  const deadline = Date.now() + ms;
  for (;;) {
    const status = await runtime.containerStatus(id);
    if (status.state === state) return status;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${id} to be ${state} (is ${status.state})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Whether a process with this pid is alive: `process.kill(pid, 0)` succeeds and it is not a zombie. (A
 * killed process whose parent died is re-parented to PID 1, and this machine's PID 1 may never reap it:
 * a zombie has ended and holds nothing but its pid.)
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
