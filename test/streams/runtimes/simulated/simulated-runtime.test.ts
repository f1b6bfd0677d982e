// Simulated runtime in virtual time: run times and exit codes from annotations or args, stops, exec, logs, scale.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { parseCriLogLine } from '../../../../streams/runtimes/cri-log.ts';
import type { ContainerEvent } from '../../../../streams/runtimes/runtime.ts';
import {
  SIMULATED,
  type SimulatedRuntime,
  simulatedRuntime,
} from '../../../../streams/runtimes/simulated/simulated-runtime.ts';
import { containerConfig, sandboxConfig } from '../runtime-fixtures.ts';

let clock: VirtualClock;
let runtime: SimulatedRuntime;
let events: ContainerEvent[];

beforeEach(() => {
  clock = new VirtualClock();
  runtime = simulatedRuntime({ scheduler: clock.scheduler, logs: 'memory' });
  events = [];
  runtime.events$.subscribe((e) => events.push(e));
});

async function start(command: string[], overrides: Parameters<typeof containerConfig>[2] = {}, pod = {}) {
  const sandbox = sandboxConfig(pod);
  const sandboxId = await runtime.runPodSandbox(sandbox);
  const id = await runtime.createContainer(sandboxId, containerConfig('main', command, overrides), sandbox);
  await runtime.startContainer(id);
  return { id, sandboxId, sandbox };
}

/** Lets promise continuations run (the runtime's methods are async even when time stands still). */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('simulatedRuntime: how long a container runs and how it exits', () => {
  it.each([
    ['args sleep 5', ['sleep', '5'], {}, 5000, 0],
    ['sh -c with sleep and exit', ['sh', '-c', 'echo hi; sleep 2; exit 3'], {}, 2000, 3],
    ['false', ['false'], {}, 0, 1],
    ['annotations', ['my-server'], { [SIMULATED.runSeconds]: '7', [SIMULATED.exitCode]: '4' }, 7000, 4],
    ['an exit code annotation alone', ['my-server'], { [SIMULATED.exitCode]: '2' }, 0, 2],
    ['annotations over args', ['sleep', '1'], { [SIMULATED.runSeconds]: '3' }, 3000, 0],
  ] as const)('%s: runs %#', async (_name, command, annotations, ms, code) => {
    const { id } = await start([...command], { annotations: { ...annotations } });
    if (ms > 0) {
      clock.advance(ms - 1);
      expect((await runtime.containerStatus(id)).state).toBe('CONTAINER_RUNNING');
    }
    clock.advance(1);
    const status = await runtime.containerStatus(id);
    expect(status).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: code,
      reason: code === 0 ? 'Completed' : 'Error',
      startedAt: 0,
      finishedAt: ms,
    });
  });

  it('takes the hints from the pod annotations when the container has none', async () => {
    const { id } = await start(['server'], {}, { annotations: { [SIMULATED.runSeconds]: '1' } });
    clock.advance(1000);
    expect((await runtime.containerStatus(id)).state).toBe('CONTAINER_EXITED');
  });

  it('a server (unknown command, no hints) and a container with no command run until stopped', async () => {
    const server = await start(['nginx', '-g', 'daemon off;']);
    const none = await start([]);
    clock.advance(24 * 3600 * 1000);
    expect((await runtime.containerStatus(server.id)).state).toBe('CONTAINER_RUNNING');
    expect((await runtime.containerStatus(none.id)).state).toBe('CONTAINER_RUNNING');
  });

  it('emits created, started, stopped and deleted in order, at virtual times', async () => {
    const { id } = await start(['sleep', '2']);
    clock.advance(2000);
    await runtime.removeContainer(id);
    expect(events.map((e) => [e.type, e.at])).toEqual([
      ['CONTAINER_CREATED_EVENT', 0],
      ['CONTAINER_STARTED_EVENT', 0],
      ['CONTAINER_STOPPED_EVENT', 2000],
      ['CONTAINER_DELETED_EVENT', 2000],
    ]);
  });

  it('logs a line per start and the echo lines at their time', async () => {
    const { id } = await start(['sh', '-c', 'echo one; sleep 1; echo two >&2; sleep 1']);
    clock.advance(2000);
    expect(runtime.logs(id).map((e) => [e.time, e.stream, e.content])).toEqual([
      [0, 'stdout', 'simulated container main started'],
      [0, 'stdout', 'one'],
      [1000, 'stderr', 'two'],
    ]);
  });

  it('writes CRI log lines to the container log file by default', async () => {
    const fileRuntime = simulatedRuntime({ scheduler: clock.scheduler });
    const sandbox = sandboxConfig();
    const sandboxId = await fileRuntime.runPodSandbox(sandbox);
    const id = await fileRuntime.createContainer(sandboxId, containerConfig('c', ['echo', 'hello']), sandbox);
    await fileRuntime.startContainer(id);
    const { logPath } = await fileRuntime.containerStatus(id);
    const lines = readFileSync(logPath, 'utf8').trimEnd().split('\n').map(parseCriLogLine);
    expect(lines).toEqual([
      expect.objectContaining({ stream: 'stdout', content: 'simulated container c started' }),
      expect.objectContaining({ stream: 'stdout', content: 'hello' }),
    ]);
    await fileRuntime.close();
  });
});

describe('simulatedRuntime: stopping', () => {
  it('SIGTERM ends a running container at once with 143', async () => {
    const { id } = await start(['sleep', '100']);
    clock.advance(500);
    await runtime.stopContainer(id, 30);
    expect(await runtime.containerStatus(id)).toMatchObject({
      exitCode: 143,
      reason: 'Error',
      finishedAt: 500,
    });
  });

  it('a container that takes longer than the timeout to stop is killed at the timeout with 137', async () => {
    const { id } = await start(['sleep', '100'], { annotations: { [SIMULATED.termSeconds]: '60' } });
    const stopped = runtime.stopContainer(id, 5);
    clock.advance(4999);
    expect((await runtime.containerStatus(id)).state).toBe('CONTAINER_RUNNING');
    clock.advance(1);
    await stopped;
    expect(await runtime.containerStatus(id)).toMatchObject({ exitCode: 137, finishedAt: 5000 });
  });

  it('a graceful stop shorter than the timeout exits 143 after its time', async () => {
    const { id } = await start(['sleep', '100'], { annotations: { [SIMULATED.termSeconds]: '2' } });
    const stopped = runtime.stopContainer(id, 10);
    clock.advance(2000);
    await stopped;
    expect(await runtime.containerStatus(id)).toMatchObject({ exitCode: 143, finishedAt: 2000 });
  });

  it('a timeout of 0 kills at once (137); stopping an exited container is a no-op', async () => {
    const { id } = await start(['sleep', '100']);
    await runtime.stopContainer(id, 0);
    expect((await runtime.containerStatus(id)).exitCode).toBe(137);
    await runtime.stopContainer(id, 0);
    expect(events.filter((e) => e.type === 'CONTAINER_STOPPED_EVENT')).toHaveLength(1);
  });

  it('unknown ids reject with KUBE_RX_NOT_FOUND; starting twice is a state error', async () => {
    const { id } = await start(['sleep', '1']);
    await expect(runtime.containerStatus('nope')).rejects.toMatchObject({ code: 'KUBE_RX_NOT_FOUND' });
    await expect(runtime.podSandboxStatus('nope')).rejects.toMatchObject({ code: 'KUBE_RX_NOT_FOUND' });
    await expect(runtime.startContainer(id)).rejects.toMatchObject({ code: 'KUBE_RX_INVALID_STATE' });
  });

  it('stopping a sandbox kills its containers; removing it removes them', async () => {
    const { id, sandboxId } = await start(['sleep', '100']);
    await runtime.stopPodSandbox(sandboxId);
    expect((await runtime.containerStatus(id)).exitCode).toBe(137);
    expect((await runtime.podSandboxStatus(sandboxId)).state).toBe('SANDBOX_NOTREADY');
    await runtime.removePodSandbox(sandboxId);
    expect(await runtime.listContainers()).toEqual([]);
    expect(await runtime.listPodSandboxes()).toEqual([]);
  });

  it('close() kills every running container, cancels every timer and rejects later calls', async () => {
    const { id } = await start(['sleep', '100']);
    await start(['sh', '-c', 'sleep 5; echo late']);
    await runtime.close();
    expect(clock.pending).toBe(0);
    await expect(runtime.containerStatus(id)).rejects.toMatchObject({ code: 'KUBE_RX_RUNTIME_CLOSED' });
  });
});

describe('simulatedRuntime: exec and stats', () => {
  it.each([
    [['true'], 0, ''],
    [['false'], 1, ''],
    [['sh', '-c', 'echo ready; exit 2'], 2, 'ready\n'],
    [['cat', '/tmp/healthy'], 0, ''],
  ])('execSync %j exits %i', async (command, code, stdout) => {
    const { id } = await start(['sleep', '100']);
    const result = await runtime.execSync(id, command, 1);
    expect(result.exitCode).toBe(code);
    expect(result.stdout.toString()).toBe(stdout);
  });

  it('an exec command it does not understand exits with the exec-exit-code annotation', async () => {
    const { id } = await start(['sleep', '100'], { annotations: { [SIMULATED.execExitCode]: '1' } });
    expect((await runtime.execSync(id, ['cat', '/tmp/healthy'], 1)).exitCode).toBe(1);
    expect((await runtime.execSync(id, ['true'], 1)).exitCode).toBe(0);
  });

  it('execSync sleeps in virtual time and times out past its timeout', async () => {
    const { id } = await start(['sleep', '100']);
    const slow = runtime.execSync(id, ['sleep', '5'], 1);
    const caught = slow.catch((e: unknown) => e);
    await settle();
    clock.advance(1000);
    expect(await caught).toMatchObject({ code: 'KUBE_RX_TIMEOUT' });
    const quick = runtime.execSync(id, ['sh', '-c', 'sleep 0.5; exit 3'], 1);
    await settle();
    clock.advance(500);
    expect((await quick).exitCode).toBe(3);
  });

  it('exec streams: cat echoes stdin; echo lines come out', async () => {
    const { id } = await start(['sleep', '100']);
    const session = await runtime.exec(id, ['cat'], { stdin: true, tty: false });
    const chunks: Buffer[] = [];
    session.stdout.on('data', (d: Buffer) => chunks.push(d));
    session.stdin!.end('ping\n');
    expect(await session.exit).toBe(0);
    expect(Buffer.concat(chunks).toString()).toBe('ping\n');
    const echo = await runtime.exec(id, ['sh', '-c', 'echo out; exit 5'], { stdin: false, tty: false });
    const out: Buffer[] = [];
    echo.stdout.on('data', (d: Buffer) => out.push(d));
    clock.advance(0);
    expect(await echo.exit).toBe(5);
    expect(Buffer.concat(out).toString()).toBe('out\n');
  });

  it('exec in an exited container rejects', async () => {
    const { id } = await start(['true']);
    await expect(runtime.execSync(id, ['true'], 1)).rejects.toMatchObject({ code: 'KUBE_RX_INVALID_STATE' });
  });

  it('containerStats reports the CPU and memory the annotations give', async () => {
    const { id } = await start(['sleep', '100'], {
      annotations: { [SIMULATED.cpuMillicores]: '250', [SIMULATED.memoryBytes]: String(64 * 1024 * 1024) },
    });
    clock.advance(10_000);
    expect(await runtime.containerStats(id)).toEqual({
      containerId: id,
      cpuUsageNanoCores: 250_000_000,
      cpuUsageCoreNanoSeconds: 2_500_000_000,
      memoryWorkingSetBytes: 64 * 1024 * 1024,
      at: 10_000,
    });
  });

  it('hands each sandbox its own pod IP', async () => {
    const a = await start(['sleep', '1']);
    const b = await start(['sleep', '1']);
    const ipA = (await runtime.podSandboxStatus(a.sandboxId)).ip;
    const ipB = (await runtime.podSandboxStatus(b.sandboxId)).ip;
    expect(ipA).toMatch(/^10\.88\.\d+\.\d+$/);
    expect(ipA).not.toBe(ipB);
  });
});

describe('simulatedRuntime: scale', () => {
  it('runs 3,000 containers that each exit on time in virtual time', async () => {
    const before = process.memoryUsage().heapUsed;
    const sandbox = sandboxConfig();
    const ids: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const sandboxId = await runtime.runPodSandbox({
        ...sandbox,
        metadata: { ...sandbox.metadata, name: `p${i}`, uid: `u${i}` },
      });
      const id = await runtime.createContainer(
        sandboxId,
        containerConfig('c', ['sleep', String(1 + (i % 10))], {
          annotations: { [SIMULATED.exitCode]: String(i % 3) },
        }),
        sandbox,
      );
      await runtime.startContainer(id);
      ids.push(id);
    }
    const perContainer = (process.memoryUsage().heapUsed - before) / 3000;
    clock.advance(10_000);
    const statuses = await runtime.listContainers({ state: 'CONTAINER_EXITED' });
    expect(statuses).toHaveLength(3000);
    const byId = new Map(statuses.map((s) => [s.id, s]));
    for (const [i, id] of ids.entries()) {
      const s = byId.get(id)!;
      expect([s.exitCode, s.finishedAt]).toEqual([i % 3, (1 + (i % 10)) * 1000]);
    }
    // Reported, not asserted tightly: the heap moves with the collector.
    console.info(
      `simulated runtime: about ${Math.round(perContainer)} bytes of heap per pod (sandbox + container)`,
    );
    expect(perContainer).toBeLessThan(64 * 1024);
  });
});
