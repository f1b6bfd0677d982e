// kubeRuntimeManager over the simulated runtime in virtual time: start, CrashLoopBackOff timing and message, config errors, kill with grace, log paths.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { CrashLoopBackOff } from '../../../../operators/kubelet/crash-loop-backoff.ts';
import type { KubeObjectReader } from '../../../../src/kubelet/kube-objects.ts';
import {
  type KubeRuntimeManager,
  kubeRuntimeManager,
} from '../../../../src/kubelet/kuberuntime/kuberuntime-manager.ts';
import { podVolumes } from '../../../../src/kubelet/volumes/pod-volumes.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import {
  SIMULATED,
  type SimulatedRuntime,
  simulatedRuntime,
} from '../../../../streams/runtimes/simulated/simulated-runtime.ts';

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
};

let clock: VirtualClock;
let runtime: SimulatedRuntime;
let krm: KubeRuntimeManager;
let dir: string;
let events: string[];

const reader: KubeObjectReader = {
  configMap: async (_ns, name) => (name === 'cm' ? { data: { K: 'v' } } : undefined),
  secret: async () => undefined,
};

beforeEach(async () => {
  clock = new VirtualClock();
  runtime = simulatedRuntime({ scheduler: clock.scheduler, logs: 'memory' });
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-krm-'));
  events = [];
  krm = kubeRuntimeManager({
    runtime,
    podLogsDir: join(dir, 'logs'),
    volumes: podVolumes({ rootDir: dir, reader }),
    reader,
    recordEvent: (_pod, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
    node: () => ({ allocatable: { cpu: '2', memory: '1Gi' }, hostIP: '10.0.0.9' }),
    backOff: new CrashLoopBackOff(),
    now: () => clock.now(),
  });
});
afterEach(async () => {
  await runtime.close();
  await rm(dir, { recursive: true, force: true });
});

const pod = (
  command: string[],
  extra: Partial<Pod['spec']> = {},
  annotations: Record<string, string> = {},
): Pod => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'u1', annotations },
  spec: { restartPolicy: 'Always', containers: [{ name: 'main', image: 'busybox', command }], ...extra },
});

const sync = async (p: Pod) => {
  const status = await krm.getPodStatus('u1', 'web', 'ns');
  return krm.syncPod(p, status);
};

describe('kubeRuntimeManager', () => {
  it('creates the sandbox and starts the container with its log path, labels and events', async () => {
    const p = pod(['sleep', '100']);
    const result = await sync(p);
    expect(result.changed).toBe(true);
    const status = await krm.getPodStatus('u1', 'web', 'ns');
    expect(status.sandboxes).toHaveLength(1);
    expect(status.containers).toMatchObject([{ name: 'main', state: 'running', attempt: 0 }]);
    const [container] = await runtime.listContainers({ podUid: 'u1' });
    expect(container?.logPath).toBe(join(dir, 'logs', 'ns_web_u1', 'main', '0.log'));
    expect(container?.labels['io.kubernetes.container.name']).toBe('main');
    expect(events).toEqual([
      'Normal Pulled: Container image "busybox" already present on machine',
      'Normal Created: Created container: main',
      'Normal Started: Started container main',
    ]);
    const again = await sync(p);
    expect(again.changed).toBe(false);
  });

  it('backs a crashing container off 10 s, then 20 s, with the kubelet message', async () => {
    const p = pod(['false']);
    await sync(p);
    await settle();
    // first restart: no backoff yet (the entry starts at 10 s)
    await sync(p);
    await settle();
    let status = await krm.getPodStatus('u1', 'web', 'ns');
    expect(status.containers.map((c) => c.attempt)).toEqual([1, 0]);
    // second exit: within 10 s of it, the container waits
    const waiting = await sync(p);
    expect(waiting.waitingReasons.get('main')).toEqual({
      reason: 'CrashLoopBackOff',
      message: 'back-off 10s restarting failed container=main pod=web_ns(u1)',
    });
    expect(
      events.some((e) =>
        e.startsWith('Warning BackOff: Back-off restarting failed container main in pod web_ns(u1)'),
      ),
    ).toBe(true);
    clock.advance(9_999);
    await sync(p);
    expect((await krm.getPodStatus('u1', 'web', 'ns')).containers).toHaveLength(2);
    clock.advance(1);
    await sync(p);
    await settle();
    status = await krm.getPodStatus('u1', 'web', 'ns');
    expect(status.containers.map((c) => c.attempt)).toEqual([2, 1, 0]);
    const next = await sync(p);
    expect(next.waitingReasons.get('main')?.message).toBe(
      'back-off 20s restarting failed container=main pod=web_ns(u1)',
    );
  });

  it('does not restart under restartPolicy Never', async () => {
    const p = pod(['sh', '-c', 'exit 3'], { restartPolicy: 'Never' });
    await sync(p);
    await settle();
    await sync(p);
    const status = await krm.getPodStatus('u1', 'web', 'ns');
    expect(status.containers).toMatchObject([{ state: 'exited', exitCode: 3, attempt: 0 }]);
  });

  it('runs init containers in order before the app containers', async () => {
    const p = pod(['sleep', '100'], {
      initContainers: [
        { name: 'init1', image: 'busybox', command: ['sleep', '1'] },
        { name: 'init2', image: 'busybox', command: ['true'] },
      ],
    });
    await sync(p);
    expect((await krm.getPodStatus('u1', 'web', 'ns')).containers.map((c) => c.name)).toEqual(['init1']);
    clock.advance(1000);
    await settle();
    await sync(p);
    await settle();
    await sync(p);
    const names = (await krm.getPodStatus('u1', 'web', 'ns')).containers.map((c) => `${c.name}:${c.state}`);
    expect(names.sort()).toEqual(['init1:exited', 'init2:exited', 'main:running']);
  });

  it('keeps a container with a missing ConfigMap waiting with CreateContainerConfigError', async () => {
    const p = pod(['sleep', '1']);
    const c = p.spec.containers[0];
    if (c) c.envFrom = [{ configMapRef: { name: 'absent' } }];
    const result = await sync(p);
    expect(result.waitingReasons.get('main')).toEqual({
      reason: 'CreateContainerConfigError',
      message: 'configmap "absent" not found',
    });
    expect(events).toContain('Warning Failed: Error: configmap "absent" not found');
  });

  it('kills a pod that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const p = pod(['server'], {}, { [SIMULATED.termSeconds]: '30' });
    await sync(p);
    const killed = krm.killPod(p, { uid: 'u1', name: 'web', namespace: 'ns' }, 5);
    await settle();
    clock.advance(4_999);
    await settle();
    expect((await krm.getPodStatus('u1', 'web', 'ns')).containers[0]?.state).toBe('running');
    clock.advance(1);
    await killed;
    const status = await krm.getPodStatus('u1', 'web', 'ns');
    expect(status.containers).toMatchObject([{ state: 'exited', exitCode: 137 }]);
    expect(status.sandboxes[0]?.ready).toBe(false);
    expect(events).toContain('Normal Killing: Stopping container main');
    await krm.removePod('u1');
    expect(await krm.listPods()).toEqual([]);
  });
});

describe('kubeRuntimeManager postStart hooks', () => {
  it('kills a container whose postStart hook fails and records PostStartHookError', async () => {
    const p = pod(['server']);
    const c = p.spec.containers[0];
    if (c) c.lifecycle = { postStart: { exec: { command: ['false'] } } };
    p.spec.terminationGracePeriodSeconds = 1;
    const syncing = sync(p);
    for (let i = 0; i < 20; i++) {
      await settle();
      clock.advance(100);
    }
    const result = await syncing;
    expect(result.waitingReasons.get('main')?.reason).toBe('PostStartHookError');
    expect(result.waitingReasons.get('main')?.message).toMatch(
      /^Exec lifecycle hook \(\[false\]\) for Container "main" in Pod "web_ns\(u1\)" failed - error: command 'false' exited with 1/,
    );
    expect(events).toContain('Warning FailedPostStartHook: PostStartHook failed');
    expect((await krm.getPodStatus('u1', 'web', 'ns')).containers[0]?.state).toBe('exited');
  });

  it('keeps a container whose postStart hook succeeds', async () => {
    const p = pod(['server']);
    const c = p.spec.containers[0];
    if (c) c.lifecycle = { postStart: { exec: { command: ['true'] } } };
    const result = await sync(p);
    expect(result.waitingReasons.size).toBe(0);
    expect((await krm.getPodStatus('u1', 'web', 'ns')).containers[0]?.state).toBe('running');
  });
});
