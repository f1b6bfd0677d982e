// Test helper: a whole control plane for end-to-end suites — the embedded API server, simulated kubelets, the kube-rx scheduler process and, when asked, kube-rx controller-manager — with kubectl on its kubeconfig.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiServerOptions } from '../../src/apiserver/index.ts';
import type { ControllerDescriptor } from '../../src/controller-manager/controller-context.ts';
import { defaultKubeletConfiguration } from '../../src/kubelet/kubelet-configuration.ts';
import { type RunningKubelets, runKubelets } from '../../src/kubelet/run-kubelets.ts';
import type { KubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import {
  kubectl,
  type Run,
  type SchedulerProcess,
  startSchedulerProcess,
} from '../src/scheduler/scheduler-process.ts';
import { type RunningControllerManager, startControllerManager } from './controller-manager.ts';
import { type EmbeddedCluster, embeddedCluster } from './embedded-cluster.ts';

/** What a suite's control plane is made of. */
export interface ControlPlaneOptions {
  /** The embedded API server's options. */
  apiServer?: ApiServerOptions;
  /** How many simulated nodes the kubelets run (default 2), named `sim-0`, `sim-1`, ... (one: `sim`) */
  nodes?: number;
  /**
   * `kube-rx controller-manager` flags other than `--kubeconfig` (e.g. `['--controllers', 'job']`); without
   * them no controller manager runs.
   */
  controllerManager?: string[];
  /** Descriptors given to the controller manager beside the built ones (a user's own, or a replacement). */
  controllers?: ControllerDescriptor[];
}

/** What {@link useControlPlane} gives a suite once its `beforeAll` hook has run. */
export interface ControlPlane {
  cluster: Omit<EmbeddedCluster, 'close'>;
  /** A client to the server, writes not rate limited. */
  client: KubeApiClient;
  /** A temporary folder of the suite's own, removed after it. */
  dir: string;
  /** The server's kubeconfig, written in `dir`. */
  kubeconfig: string;
  /** The server's admin token (for the components' secure ports). */
  token: string;
  kubelets: RunningKubelets;
  scheduler: SchedulerProcess;
  /** Undefined unless `controllerManager` flags were given. */
  manager: RunningControllerManager | undefined;
  /** Runs kubectl on the kubeconfig. */
  kubectl(args: string[], input?: string): Promise<Run>;
  /** Runs kubectl, expects it to succeed with nothing on stderr, and gives its stdout. */
  ok(args: string[], input?: string): Promise<string>;
}

/**
 * Registers hooks in the current suite that start a control plane (the embedded API server, simulated
 * kubelets, the scheduler as a child process and, when `controllerManager` is given, the controller manager in
 * this process) and stop it all after the suite, the scheduler's exit code checked. Read the returned
 * object's fields inside tests and hooks, not at collection time.
 */
export function useControlPlane(options: ControlPlaneOptions = {}): ControlPlane {
  let cluster: EmbeddedCluster | undefined;
  const plane = {
    kubectl: (args: string[], input?: string) => kubectl(plane.kubeconfig, args, input),
    async ok(args: string[], input?: string) {
      const r = await kubectl(plane.kubeconfig, args, input);
      expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
      expect(r.code, `kubectl ${args.join(' ')}`).toBe(0);
      return r.stdout;
    },
  } as ControlPlane;
  beforeAll(async () => {
    cluster = await embeddedCluster(options.apiServer);
    plane.cluster = cluster;
    plane.client = cluster.api;
    plane.dir = mkdtempSync(join(tmpdir(), 'kube-rx-plane-'));
    plane.kubeconfig = join(plane.dir, 'kubeconfig');
    plane.token = /token: (\S+)/.exec(cluster.server.kubeconfig)?.[1] ?? '';
    await cluster.server.writeKubeconfig(plane.kubeconfig);
    plane.kubelets = await runKubelets({
      client: cluster.api,
      nodeName: 'sim',
      config: defaultKubeletConfiguration(),
      runtime: 'simulated',
      simulatedNodes: options.nodes ?? 2,
      rootDir: join(plane.dir, 'kubelet'),
    });
    plane.scheduler = await startSchedulerProcess([
      ...['--kubeconfig', plane.kubeconfig],
      ...['--leader-elect=false', '--secure-port', '0'],
    ]);
    plane.manager = options.controllerManager
      ? await startControllerManager(
          ['--kubeconfig', plane.kubeconfig, ...options.controllerManager],
          options.controllers,
        )
      : undefined;
  });
  afterAll(async () => {
    await plane.manager?.stop();
    await plane.kubelets?.stop();
    const schedulerExit = await plane.scheduler?.stop();
    await cluster?.close();
    if (plane.dir) rmSync(plane.dir, { recursive: true, force: true });
    if (plane.scheduler) expect(schedulerExit).toBe(0);
  });
  return plane;
}
