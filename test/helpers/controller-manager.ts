// Test helper: kube-rx controller-manager run in this process on a free secure port, and GETs to that port.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { silentLogger } from '../../operators/logger.ts';
import { controllerManagerCommand } from '../../src/controller-manager/command.ts';
import type { ControllerDescriptor } from '../../src/controller-manager/controller-context.ts';
import { type EmbeddedCluster, embeddedCluster } from './embedded-cluster.ts';
import { eventually } from './eventually.ts';

/** A free TCP port on 127.0.0.1. */
export const freeLocalPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** A GET over HTTPS with a bearer token; the component's self-signed certificate is not checked. */
export function secureGet(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { rejectUnauthorized: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A running controller manager: its one JSON line, the secure port, and how to stop it. */
export interface RunningControllerManager {
  /** The JSON line printed once every enabled controller has started. */
  readonly started: { server: string; kubeconfig: string | null; controllers: string[] };
  readonly securePort: number;
  /** SIGTERM, then waits for the command to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `kube-rx controller-manager` with `args` (plus `--secure-port <free> --bind-address 127.0.0.1`) in
 * this process and waits for its JSON line.
 *
 * @param args the command's flags (e.g. `['--kubeconfig', path, '--controllers', 'job']`)
 * @param controllers the user's own controllers
 */
export async function startControllerManager(
  args: string[],
  controllers: ControllerDescriptor[] = [],
): Promise<RunningControllerManager> {
  const signals = new EventEmitter();
  const lines: string[] = [];
  const securePort = await freeLocalPort();
  const run = controllerManagerCommand({
    logger: silentLogger,
    signals,
    stdout: { write: (l: string) => lines.push(l) },
    controllers,
  })
    .exitOverride()
    .parseAsync([...args, '--secure-port', String(securePort), '--bind-address', '127.0.0.1'], {
      from: 'user',
    });
  let failed: unknown;
  run.catch((e) => {
    failed = e;
  });
  await eventually(() => {
    if (failed) throw failed;
    if (lines.length !== 1) throw new Error('the controller manager has not printed its line yet');
  }, 20_000);
  return {
    started: JSON.parse(lines[0]!),
    securePort,
    async stop() {
      signals.emit('SIGTERM');
      await run.catch(() => undefined);
    },
  };
}

/** What {@link useControllerManager} gives a suite once its `beforeAll` hook has run. */
export interface ControllerManagerSuite {
  cluster: Omit<EmbeddedCluster, 'close'>;
  manager: RunningControllerManager;
  /** The admin token of the server's kubeconfig, for the secure port. */
  token: string;
}

/**
 * Registers hooks in the current suite that start the embedded API server, a client to it (see
 * embeddedCluster) and `kube-rx controller-manager --kubeconfig <its kubeconfig> ...args`, and stop them all.
 * Read the returned object's fields inside tests and hooks.
 *
 * @param args the command's other flags (e.g. `['--controllers', 'job']`)
 */
export function useControllerManager(args: string[]): ControllerManagerSuite {
  const suite = {} as ControllerManagerSuite;
  let cluster: EmbeddedCluster | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    cluster = await embeddedCluster();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-kcm-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await cluster.server.writeKubeconfig(kubeconfig);
    suite.cluster = cluster;
    suite.token = /token: (\S+)/.exec(cluster.server.kubeconfig)?.[1] ?? '';
    suite.manager = await startControllerManager(['--kubeconfig', kubeconfig, ...args]);
  });
  afterAll(async () => {
    await suite.manager?.stop();
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return suite;
}
