// Process runtime against real processes: exit codes and reasons, logs, signals, env, exec, stats and close.
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { criLogOutput, parseCriLogLine, readCriLog } from '../../../../streams/runtimes/cri-log.ts';
import { processRuntime } from '../../../../streams/runtimes/process/process-runtime.ts';
import type { ContainerEvent, ContainerRuntime } from '../../../../streams/runtimes/runtime.ts';
import { until } from '../../../helpers/until.ts';
import { alive, containerConfig, sandboxConfig, waitForState } from '../runtime-fixtures.ts';

let runtime: ContainerRuntime;
let events: ContainerEvent[];

beforeEach(() => {
  runtime = processRuntime({ namespaces: 'none', closeGraceSeconds: 1 });
  events = [];
  runtime.events$.subscribe((e) => events.push(e));
});

afterEach(async () => {
  await runtime.close();
});

async function run(command: string[], overrides: Parameters<typeof containerConfig>[2] = {}) {
  const sandbox = sandboxConfig();
  const sandboxId = await runtime.runPodSandbox(sandbox);
  const id = await runtime.createContainer(sandboxId, containerConfig('main', command, overrides), sandbox);
  await runtime.startContainer(id);
  return { sandbox, sandboxId, id };
}

function logLines(path: string) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => parseCriLogLine(line));
}

/** The pid a container printed on its first stdout line. */
async function printedPid(path: string): Promise<number> {
  await until(() => {
    try {
      return /^\d+$/m.test(readFileSync(path, 'utf8').split(' F ')[1] ?? '');
    } catch {
      return false;
    }
  }, 'the container to print a pid');
  const first = logLines(path)[0];
  if (!first || first instanceof Error) throw new Error('no pid line');
  return Number(first.content);
}

describe('processRuntime: running containers', () => {
  it('records exit code 3 as Error and writes stdout and stderr to the CRI log', async () => {
    const { id } = await run(['sh', '-c', 'echo hi; echo err >&2; exit 3']);
    const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
    expect(status).toMatchObject({ exitCode: 3, reason: 'Error', state: 'CONTAINER_EXITED' });
    expect(status.finishedAt).toBeGreaterThanOrEqual(status.startedAt!);
    const lines = readFileSync(status.logPath, 'utf8').split('\n').filter(Boolean);
    for (const line of lines) {
      expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z (stdout|stderr) [FP] /);
    }
    expect(logLines(status.logPath)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stream: 'stdout', partial: false, content: 'hi' }),
        expect.objectContaining({ stream: 'stderr', partial: false, content: 'err' }),
      ]),
    );
  });

  it('records exit code 0 as Completed', async () => {
    const { id } = await run(['true']);
    expect(await waitForState(runtime, id, 'CONTAINER_EXITED')).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
  });

  it('emits created, started, stopped and deleted in order for each container', async () => {
    const { id } = await run(['sh', '-c', 'exit 0']);
    await waitForState(runtime, id, 'CONTAINER_EXITED');
    await runtime.removeContainer(id);
    expect(events.filter((e) => e.containerId === id).map((e) => e.type)).toEqual([
      'CONTAINER_CREATED_EVENT',
      'CONTAINER_STARTED_EVENT',
      'CONTAINER_STOPPED_EVENT',
      'CONTAINER_DELETED_EVENT',
    ]);
    expect(events[0]!.podUid).toMatch(/^uid-/);
    await expect(runtime.containerStatus(id)).rejects.toMatchObject({ code: 'KUBE_RX_NOT_FOUND' });
  });

  it('gives the container exactly its env, plus PATH when it sets none, and its working directory', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kube-rx-wd-')));
    const { id } = await run(['/usr/bin/env'], {
      envs: [
        { key: 'A', value: 'first' },
        { key: 'B', value: 'with spaces = and "quotes"' },
        { key: 'A', value: 'second' },
      ],
      workingDir: dir,
    });
    const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
    const env = logLines(status.logPath).map((l) => (l instanceof Error ? '' : l.content));
    expect(env.sort()).toEqual(
      ['A=second', 'B=with spaces = and "quotes"', `PATH=${process.env.PATH}`].sort(),
    );

    const pwd = await run(['/bin/pwd'], { workingDir: dir, envs: [{ key: 'PATH', value: '/bin' }] });
    const pwdStatus = await waitForState(runtime, pwd.id, 'CONTAINER_EXITED');
    expect(logLines(pwdStatus.logPath)).toEqual([expect.objectContaining({ content: dir })]);

    const own = await run(['/usr/bin/env'], { envs: [{ key: 'PATH', value: '/opt/x:/bin' }] });
    const ownStatus = await waitForState(runtime, own.id, 'CONTAINER_EXITED');
    expect(logLines(ownStatus.logPath)).toEqual([expect.objectContaining({ content: 'PATH=/opt/x:/bin' })]);
  });

  it('maps a working directory and command under a mountPath to the host path for plain processes', async () => {
    const volume = mkdtempSync(join(tmpdir(), 'kube-rx-vol-'));
    writeFileSync(join(volume, 'run.sh'), '#!/bin/sh\npwd\n', { mode: 0o755 });
    const { id } = await run(['/scripts/run.sh'], {
      mounts: [{ hostPath: volume, containerPath: '/scripts', readonly: true }],
      workingDir: '/scripts',
    });
    const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
    expect(status.exitCode).toBe(0);
    expect(logLines(status.logPath)).toEqual([expect.objectContaining({ content: volume })]);
  });

  it('writes a last line without a newline as a partial line, and cuts long lines into partial ones', async () => {
    const { id } = await run(['sh', '-c', "head -c 40000 /dev/zero | tr '\\0' x; echo; printf 'tail'"]);
    const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
    const entries = logLines(status.logPath);
    expect(
      entries.map((e) => (e instanceof Error ? 'error' : `${e.partial ? 'P' : 'F'}${e.content.length}`)),
    ).toEqual(['P16384', 'P16384', 'F7232', 'P4']);
    const out = await lastValueFrom(readCriLog(status.logPath).pipe(criLogOutput(), toArray()));
    expect(Buffer.concat(out).toString()).toBe(`${'x'.repeat(40000)}\ntail`);
  });
});

describe('processRuntime: start errors', () => {
  it.each([
    [
      'a command not on PATH',
      ['no-such-command-kube-rx'],
      'exec: "no-such-command-kube-rx": executable file not found in $PATH',
    ],
    [
      'a missing absolute path',
      ['/no/such/binary'],
      'exec: "/no/such/binary": stat /no/such/binary: no such file or directory',
    ],
  ])('%s is CONTAINER_EXITED with reason StartError and exit code 128', async (_name, command, message) => {
    const { id } = await run(command);
    const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
    expect(status).toMatchObject({ exitCode: 128, reason: 'StartError', message });
    expect(events.filter((e) => e.containerId === id).map((e) => e.type)).toEqual([
      'CONTAINER_CREATED_EVENT',
      'CONTAINER_STOPPED_EVENT',
    ]);
  });

  it('a missing working directory is a StartError naming it', async () => {
    const { id } = await run(['true'], { workingDir: '/no/such/dir' });
    expect(await waitForState(runtime, id, 'CONTAINER_EXITED')).toMatchObject({
      reason: 'StartError',
      message: expect.stringContaining('"/no/such/dir"'),
    });
  });

  it('a container with no command and an image whose entrypoint is unknown is a StartError', async () => {
    const { id } = await run([], { image: 'registry.example/app:v1' });
    expect(await waitForState(runtime, id, 'CONTAINER_EXITED')).toMatchObject({
      exitCode: 128,
      reason: 'StartError',
      message: expect.stringContaining('"registry.example/app:v1"'),
    });
  });

  it('a busybox container with no command runs its args (the image has no ENTRYPOINT)', async () => {
    const { id } = await run([], { image: 'busybox:1.36', args: ['sh', '-c', 'echo from args'] });
    const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
    expect(status.exitCode).toBe(0);
    expect(logLines(status.logPath)).toEqual([expect.objectContaining({ content: 'from args' })]);
  });
});

describe('processRuntime: stopping', () => {
  it('a sleeper dies on SIGTERM before the timeout (exit 143)', async () => {
    const { id } = await run(['sleep', '100']);
    await runtime.stopContainer(id, 20);
    expect(await runtime.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 143 });
  });

  it('a container that ignores SIGTERM is SIGKILLed after the timeout (exit 137)', async () => {
    const { id } = await run([
      'sh',
      '-c',
      'trap "echo got TERM" TERM; echo ready; while :; do sleep 0.05; done',
    ]);
    const { logPath } = await runtime.containerStatus(id);
    await until(() => readFileSync(logPath, 'utf8').includes('ready'), 'the trap to be set');
    await runtime.stopContainer(id, 1);
    const status = await runtime.containerStatus(id);
    expect(status).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(logLines(logPath).map((l) => (l instanceof Error ? '' : l.content))).toContain('got TERM');
  });

  it('kills a child the container forked, and one that left the process group', async () => {
    const { id } = await run(['sh', '-c', 'sleep 100 & echo $!; setsid sleep 100 & echo $!; wait']);
    const { logPath } = await runtime.containerStatus(id);
    await until(() => logLines(logPath).length >= 2, 'both pids');
    const [a, b] = logLines(logPath).map((l) => (l instanceof Error ? 0 : Number(l.content)));
    expect(alive(a!) && alive(b!)).toBe(true);
    await runtime.stopContainer(id, 5);
    await until(() => !alive(a!) && !alive(b!), 'the forked children to be gone');
  });

  it('when the main process exits, the processes it left behind are killed', async () => {
    const { id } = await run(['sh', '-c', 'sleep 100 & echo $!; exit 0']);
    const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
    const pid = await printedPid(status.logPath);
    await until(() => !alive(pid), 'the left-behind sleep to be gone');
  });

  it('a stop that arrives while the container is still starting waits for the start, then stops it', async () => {
    const sandbox = sandboxConfig();
    const sandboxId = await runtime.runPodSandbox(sandbox);
    const id = await runtime.createContainer(sandboxId, containerConfig('main', ['sleep', '100']), sandbox);
    const started = runtime.startContainer(id);
    await runtime.stopContainer(id, 10);
    await started;
    expect(await runtime.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 143 });
  });

  it('stopping an exited container is a no-op; unknown ids reject with KUBE_RX_NOT_FOUND', async () => {
    const { id } = await run(['true']);
    await waitForState(runtime, id, 'CONTAINER_EXITED');
    await runtime.stopContainer(id, 1);
    expect((await runtime.containerStatus(id)).exitCode).toBe(0);
    await expect(runtime.stopContainer('nope', 1)).rejects.toMatchObject({ code: 'KUBE_RX_NOT_FOUND' });
    await expect(runtime.startContainer(id)).rejects.toMatchObject({ code: 'KUBE_RX_INVALID_STATE' });
  });

  it('removing a running container stops it first; stopping a sandbox stops its containers', async () => {
    const { id, sandboxId, sandbox } = await run(['sleep', '100']);
    const pid = (await runtime.containerStatus(id)).pid!;
    await runtime.removeContainer(id);
    expect(alive(pid)).toBe(false);
    const other = await runtime.createContainer(
      sandboxId,
      containerConfig('other', ['sleep', '100']),
      sandbox,
    );
    await runtime.startContainer(other);
    await runtime.stopPodSandbox(sandboxId);
    expect(await runtime.containerStatus(other)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137 });
    expect((await runtime.podSandboxStatus(sandboxId)).state).toBe('SANDBOX_NOTREADY');
    await runtime.removePodSandbox(sandboxId);
    expect(await runtime.listPodSandboxes()).toEqual([]);
    expect(await runtime.listContainers({ sandboxId })).toEqual([]);
  });
});

describe('processRuntime: exec, stats, listing', () => {
  it('execSync runs in the container env and working directory and returns the exit code', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kube-rx-wd-')));
    const { id } = await run(['sleep', '100'], {
      envs: [{ key: 'GREETING', value: 'hello' }],
      workingDir: dir,
    });
    const result = await runtime.execSync(id, ['sh', '-c', 'echo $GREETING; pwd; echo oops >&2; exit 4'], 5);
    expect(result.exitCode).toBe(4);
    expect(result.stdout.toString()).toBe(`hello\n${dir}\n`);
    expect(result.stderr.toString()).toBe('oops\n');
    const missing = await runtime.execSync(id, ['no-such-probe-command'], 5);
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr.toString()).toContain('executable file not found');
  });

  it('execSync past its timeout rejects with KUBE_RX_TIMEOUT and leaves no process', async () => {
    const { id } = await run(['sleep', '100']);
    const pidFile = join(mkdtempSync(join(tmpdir(), 'kube-rx-exec-')), 'pid');
    await expect(
      runtime.execSync(id, ['sh', '-c', `echo $$ > ${pidFile}; exec sleep 100`], 0.3),
    ).rejects.toMatchObject({ code: 'KUBE_RX_TIMEOUT' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !alive(pid), 'the timed-out exec to be gone');
  });

  it('execSync in an exited container rejects', async () => {
    const { id } = await run(['true']);
    await waitForState(runtime, id, 'CONTAINER_EXITED');
    await expect(runtime.execSync(id, ['true'], 1)).rejects.toMatchObject({ code: 'KUBE_RX_INVALID_STATE' });
  });

  it('exec streams stdin to the command and resolves its exit code', async () => {
    const { id } = await run(['sleep', '100']);
    const session = await runtime.exec(id, ['sh', '-c', 'cat; exit 2'], { stdin: true, tty: false });
    const chunks: Buffer[] = [];
    session.stdout.on('data', (d: Buffer) => chunks.push(d));
    session.stdin!.write('ping\n');
    session.stdin!.end();
    expect(await session.exit).toBe(2);
    expect(Buffer.concat(chunks).toString()).toBe('ping\n');
  });

  it('exec with tty runs on a pty (80x24) that resize changes, stderr on the same stream', async () => {
    const { id } = await run(['sleep', '100']);
    const session = await runtime.exec(id, ['sh', '-c', 'tty; stty size; echo err >&2; read x; stty size'], {
      stdin: true,
      tty: true,
    });
    expect(session.stderr).toBeUndefined();
    let out = '';
    session.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await until(() => out.includes('err'), 'the first output');
    expect(out).toMatch(/\/dev\/pts\/\d+/);
    expect(out).toContain('24 80');
    session.resize!(120, 40);
    session.stdin!.write('go\n');
    expect(await session.exit).toBe(0);
    expect(out).toContain('40 120');
  });

  it('containerStats sums CPU time and memory of the container processes', async () => {
    const { id } = await run(['sh', '-c', 'while :; do :; done']);
    await until(() => true, 'start');
    let stats = await runtime.containerStats(id);
    const deadline = Date.now() + 10_000;
    while ((stats?.cpuUsageCoreNanoSeconds ?? 0) === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      stats = await runtime.containerStats(id);
    }
    expect(stats!.cpuUsageCoreNanoSeconds).toBeGreaterThan(0);
    expect(stats!.memoryWorkingSetBytes).toBeGreaterThan(0);
    const again = await runtime.containerStats(id);
    expect(again!.cpuUsageNanoCores).toBeGreaterThanOrEqual(0);
    await runtime.stopContainer(id, 0);
    expect(await runtime.containerStats(id)).toBeUndefined();
  });

  it('lists sandboxes and containers by pod uid and state', async () => {
    const a = await run(['sleep', '100']);
    const b = await run(['true']);
    await waitForState(runtime, b.id, 'CONTAINER_EXITED');
    expect((await runtime.listContainers({ state: 'CONTAINER_RUNNING' })).map((c) => c.id)).toEqual([a.id]);
    expect((await runtime.listContainers({ podUid: b.sandbox.metadata.uid })).map((c) => c.id)).toEqual([
      b.id,
    ]);
    expect((await runtime.listPodSandboxes({ podUid: a.sandbox.metadata.uid })).map((s) => s.id)).toEqual([
      a.sandboxId,
    ]);
    expect(runtime.name).toBe('process');
  });
});

describe('processRuntime: close', () => {
  it('kills everything it started and then rejects every call', async () => {
    const { id: sleeper } = await run(['sleep', '100']);
    const { id: stubborn } = await run(['sh', '-c', 'trap "" TERM; sleep 100 & echo $!; wait']);
    const { logPath } = await runtime.containerStatus(stubborn);
    const forked = await printedPid(logPath);
    const session = await runtime.exec(sleeper, ['sleep', '100'], { stdin: false, tty: false });
    const pids = [
      (await runtime.containerStatus(sleeper)).pid!,
      (await runtime.containerStatus(stubborn)).pid!,
      forked,
    ];
    expect(pids.every(alive)).toBe(true);
    const completed = firstValueFrom(runtime.events$.pipe(toArray()));
    await runtime.close();
    expect(pids.filter(alive)).toEqual([]);
    expect(await session.exit).toBe(137);
    await completed;
    await expect(runtime.listContainers()).rejects.toMatchObject({ code: 'KUBE_RX_RUNTIME_CLOSED' });
  });
});
