// Test fixture for the scheduler's end-to-end tests: `kube-rx scheduler` as a child process, and kubectl against a kubeconfig.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'bin/kube-rx.js');

import { KUBECTL } from '../../helpers/kubectl.ts';

export { KUBECTL };

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl with `--kubeconfig`, optionally feeding stdin. */
export function kubectl(kubeconfig: string, args: string[], input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      KUBECTL!,
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** A free TCP port on 127.0.0.1 (bound, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A running `kube-rx scheduler` process. */
export interface SchedulerProcess {
  readonly child: ChildProcess;
  /** The JSON line it printed once its caches synced. */
  readonly started: { server: string; kubeconfig: string | null; secureServing: string | null };
  stderr(): string;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Runs `kube-rx scheduler ARGS` to completion (for commands that exit, such as a bad config). */
export function runScheduler(args: string[], timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(NODE, [BIN, 'scheduler', ...args], { timeout: timeoutMs }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Starts `kube-rx scheduler ARGS` and resolves once it prints its JSON line (rejects if it exits first). */
export function startSchedulerProcess(args: string[], timeoutMs = 20_000): Promise<SchedulerProcess> {
  const child = spawn(NODE, [BIN, 'scheduler', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kube-rx scheduler did not start within ${timeoutMs} ms:\n${err.slice(-2000)}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`kube-rx scheduler exited with ${code} before starting:\n${err.slice(-2000)}`));
    });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve({
        child,
        started: JSON.parse(line),
        stderr: () => err,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}
