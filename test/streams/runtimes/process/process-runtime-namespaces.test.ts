// Process runtime with pod namespaces (bwrap or unshare, when this host has them): hostname, mounts, PID 1, exec.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCriLogLine } from '../../../../streams/runtimes/cri-log.ts';
import { detectPodNamespaces } from '../../../../streams/runtimes/process/pod-namespaces.ts';
import { processRuntime } from '../../../../streams/runtimes/process/process-runtime.ts';
import type { ContainerRuntime } from '../../../../streams/runtimes/runtime.ts';
import { until } from '../../../helpers/until.ts';
import { alive, containerConfig, sandboxConfig, waitForState } from '../runtime-fixtures.ts';

const tools = (['bwrap', 'unshare'] as const).map((tool) => ({
  tool,
  found: detectPodNamespaces({ namespaces: tool }),
}));

for (const { tool, found } of tools) {
  const why = found.kind === 'none' ? found.reason : '';
  if (why) {
    it.skip(`${tool} namespaces: skipped because ${why}`, () => {});
  }

  describe.skipIf(found.kind === 'none')(`processRuntime with ${tool} namespaces`, () => {
    let runtime: ContainerRuntime;
    const logged: string[] = [];

    afterEach(async () => {
      await runtime?.close();
      runtime = undefined as never;
      logged.length = 0;
    });

    async function run(command: string[], overrides: Parameters<typeof containerConfig>[2] = {}) {
      runtime ??= processRuntime({
        namespaces: tool,
        closeGraceSeconds: 1,
        logger: {
          trace() {},
          debug() {},
          info: (_o: unknown, msg?: string) => logged.push(String(msg)),
          warn: (_o: unknown, msg?: string) => logged.push(String(msg)),
          error() {},
          child() {
            return this;
          },
        } as never,
      });
      const sandbox = sandboxConfig({ hostname: 'web-0' });
      const sandboxId = await runtime.runPodSandbox(sandbox);
      const id = await runtime.createContainer(
        sandboxId,
        containerConfig('main', command, overrides),
        sandbox,
      );
      await runtime.startContainer(id);
      return { id, sandboxId };
    }

    const contents = (path: string) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const e = parseCriLogLine(l);
          return e instanceof Error ? '' : e.content;
        });

    it('says once which namespaces it uses, and the container sees the pod hostname', async () => {
      const { id } = await run(['hostname']);
      const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
      expect(status.exitCode).toBe(0);
      expect(contents(status.logPath)).toEqual(['web-0']);
      expect(logged.filter((m) => m.includes('namespaces'))).toHaveLength(1);
    });

    it('mounts volumes at their containerPath, read-only when asked, without touching the host path', async () => {
      const volume = mkdtempSync(join(tmpdir(), 'kube-rx-vol-'));
      writeFileSync(join(volume, 'config.txt'), 'from the volume\n');
      const target = mkdtempSync(join(tmpdir(), 'kube-rx-mnt-'));
      const { id } = await run(
        ['sh', '-c', `cat ${target}/config.txt; touch ${target}/x || echo read-only`],
        {
          mounts: [{ hostPath: volume, containerPath: target, readonly: true }],
        },
      );
      const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
      expect(contents(status.logPath)).toEqual(expect.arrayContaining(['from the volume', 'read-only']));
      expect(readdirSync(target)).toEqual([]);
    });

    it('mounts at a path whose parents do not exist yet, behind a symlink (the service-account token path)', async () => {
      const volume = mkdtempSync(join(tmpdir(), 'kube-rx-vol-'));
      writeFileSync(join(volume, 'token'), 'secret-token\n');
      // /var/run is a symlink to /run on Debian; the parents below it do not exist yet
      const target = `/var/run/kube-rx-test-${process.pid}-${Date.now()}/secrets/serviceaccount`;
      try {
        const { id } = await run(['cat', `${target}/token`], {
          mounts: [{ hostPath: volume, containerPath: target, readonly: true }],
        });
        const status = await waitForState(runtime, id, 'CONTAINER_EXITED');
        expect(status.reason).not.toBe('StartError');
        expect(contents(status.logPath)).toEqual(['secret-token']);
      } finally {
        rmSync(target.split('/').slice(0, 4).join('/'), { recursive: true, force: true });
      }
    });

    it('runs the container in its own PID namespace, behind an init that passes SIGTERM on', async () => {
      const { id } = await run(['sh', '-c', 'ls /proc | grep -c "^[0-9]"; sleep 100']);
      const { logPath } = await runtime.containerStatus(id);
      await until(() => contents(logPath).length > 0, 'the process count');
      expect(Number(contents(logPath)[0])).toBeLessThan(8);
      await runtime.stopContainer(id, 20);
      expect(await runtime.containerStatus(id)).toMatchObject({ exitCode: 143, reason: 'Error' });
    });

    it('a container that ignores SIGTERM is SIGKILLed after the timeout (exit 137)', async () => {
      const { id } = await run(['sh', '-c', 'trap "" TERM; echo ready; while :; do sleep 0.05; done']);
      const { logPath } = await runtime.containerStatus(id);
      await until(() => contents(logPath).includes('ready'), 'the trap');
      await runtime.stopContainer(id, 1);
      expect(await runtime.containerStatus(id)).toMatchObject({ exitCode: 137 });
    });

    it('a daemon that left the process group dies with the container', async () => {
      const marker = `${1000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
      const { id } = await run(['sh', '-c', `setsid sleep ${marker} & sleep 0.2; exit 0`]);
      await waitForState(runtime, id, 'CONTAINER_EXITED');
      await until(() => pidsWith(`sleep\0${marker}`).length === 0, 'the daemon to be gone');
    });

    it('exec runs inside the namespaces with the container env and working directory', async () => {
      const volume = mkdtempSync(join(tmpdir(), 'kube-rx-vol-'));
      writeFileSync(join(volume, 'data'), 'mounted\n');
      const target = mkdtempSync(join(tmpdir(), 'kube-rx-mnt-'));
      const { id } = await run(['sleep', '100'], {
        mounts: [{ hostPath: volume, containerPath: target, readonly: false }],
        envs: [{ key: 'WHO', value: 'container' }],
        workingDir: target,
      });
      const result = await runtime.execSync(id, ['sh', '-c', 'hostname; echo $WHO; cat data; pwd'], 5);
      expect(result.stdout.toString()).toBe(`web-0\ncontainer\nmounted\n${target}\n`);
      expect((await runtime.execSync(id, ['no-such-command'], 5)).exitCode).toBe(127);
    });

    it('exec with tty gets a pty inside the namespaces', async () => {
      const { id } = await run(['sleep', '100']);
      const session = await runtime.exec(id, ['sh', '-c', 'hostname; stty size'], {
        stdin: false,
        tty: true,
      });
      let out = '';
      session.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      expect(await session.exit).toBe(0);
      expect(out.replace(/\r/g, '')).toBe('web-0\n24 80\n');
    });

    it('a missing command or working directory is a StartError', async () => {
      const missing = await run(['no-such-command-kube-rx']);
      expect(await waitForState(runtime, missing.id, 'CONTAINER_EXITED')).toMatchObject({
        exitCode: 128,
        reason: 'StartError',
        message: 'exec: "no-such-command-kube-rx": executable file not found in $PATH',
      });
      const noDir = await run(['true'], { workingDir: '/no/such/dir' });
      expect(await waitForState(runtime, noDir.id, 'CONTAINER_EXITED')).toMatchObject({
        reason: 'StartError',
        message: expect.stringContaining('"/no/such/dir"'),
      });
    });

    it('close() leaves no process behind', async () => {
      const marker = `${2000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
      const { id } = await run(['sh', '-c', `trap "" TERM; setsid sleep ${marker} & sleep ${marker}`]);
      const launcher = (await runtime.containerStatus(id)).pid!;
      await until(() => pidsWith(`sleep\0${marker}`).length === 2, 'both sleeps');
      await runtime.close();
      expect(alive(launcher)).toBe(false);
      expect(pidsWith(`sleep\0${marker}`).filter(alive)).toEqual([]);
    });
  });
}

/** Host pids whose command line contains `needle` (arguments joined by NUL, as /proc shows them). */
function pidsWith(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle) && alive(Number(name))) {
        out.push(Number(name));
      }
    } catch {}
  }
  return out;
}
