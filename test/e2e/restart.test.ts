// Server restarts: an informer converges on the state of an embedded API server killed and restarted with its data dir; an expired resourceVersion makes it relist.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { exponentialBackoff } from '../../operators/backoff.ts';
import type { Logger } from '../../operators/logger.ts';
import type { KubeObject, ReflectorEvent } from '../../operators/types.ts';
import { type RunningApiServer, startApiServer } from '../../src/apiserver/index.ts';
import { startFaultProxy } from '../../src/testing/fault-proxy.ts';
import { describeMismatch } from '../../src/testing/fault-trial.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import { type KubeApiClient, kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import type { KubeConfigSource } from '../../streams/client-node/kube-config.ts';
import { listWatch } from '../../streams/list-watch.ts';
import { CONFIG_MAPS, NAMESPACES } from '../../streams/resources.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A logger that keeps the messages it is given. */
function recordingLogger(lines: string[]): Logger {
  const log = (a: unknown, b?: string) => lines.push(typeof a === 'string' ? a : (b ?? ''));
  const logger: Logger = { trace: log, debug: log, info: log, warn: log, error: log, child: () => logger };
  return logger;
}

/** Runs `kube-rx apiserver` as a child process; resolves with its URL once it listens. */
async function spawnApiServer(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--no-warnings', join(ROOT, 'bin/kube-rx.js'), 'apiserver', ...args],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const line = await new Promise<string>((ok, fail) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      rl.close();
      ok(l);
    });
    child.once('exit', (code) => fail(new Error(`apiserver exited with ${code}`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGKILL');
  });
}

/** listWatch of one namespace's ConfigMaps folded into key → rv, with every event kept. */
function informer(kubeConfig: KubeConfigSource, namespace: string, logger?: Logger) {
  const client = kubeApiClient({ kubeConfig, requestTimeoutMs: 2000 });
  const cache = new Map<string, string>();
  const events: ReflectorEvent[] = [];
  const subscription: Subscription = listWatch(listerWatcher(client, CONFIG_MAPS, { namespace }), {
    inactivityTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    backoff: () => exponentialBackoff({ initialMs: 100, maxMs: 1000 }),
    ...(logger ? { logger } : {}),
  }).subscribe((event) => {
    events.push(event);
    const key = (o: KubeObject) => `${o.metadata!.namespace}/${o.metadata!.name}`;
    if (event.type === 'Replace') {
      cache.clear();
      for (const o of event.items) cache.set(key(o), o.metadata!.resourceVersion!);
    } else if (event.type === 'Added' || event.type === 'Updated') {
      cache.set(key(event.object), event.object.metadata!.resourceVersion!);
    } else if (event.type === 'Deleted') cache.delete(key(event.object));
  });
  const stop = () => {
    subscription.unsubscribe();
    client.close();
  };
  cleanups.push(stop);
  return { cache, events };
}

async function truthOf(writer: KubeApiClient, namespace: string): Promise<Map<string, string>> {
  const list = await firstValueFrom(writer.list<KubeObject>(CONFIG_MAPS, { namespace }));
  return new Map(list.items.map((o) => [`${namespace}/${o.metadata!.name}`, o.metadata!.resourceVersion!]));
}

async function converges(
  cache: ReadonlyMap<string, string>,
  writer: KubeApiClient,
  namespace: string,
  limitMs: number,
): Promise<void> {
  const truth = await truthOf(writer, namespace);
  const started = performance.now();
  while (describeMismatch(truth, cache) !== '') {
    if (performance.now() - started > limitMs) {
      throw new Error(`no convergence within ${limitMs} ms: ${describeMismatch(truth, cache)}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function writes(writer: KubeApiClient, namespace: string, step: string, names: string[]) {
  for (const name of names) {
    await firstValueFrom(writer.patch(CONFIG_MAPS, name, { data: { step } }, 'merge', { namespace })).catch(
      async () => {
        await firstValueFrom(writer.create(CONFIG_MAPS, { metadata: { name, namespace }, data: { step } }));
      },
    );
  }
}

describe('server restarts', () => {
  it('an informer converges on the state of an API server killed (SIGKILL) and restarted with its data dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-restart-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const kubeconfigPath = join(dir, 'kubeconfig');
    let server = await spawnApiServer([
      '--port=0',
      `--data-dir=${dir}`,
      '--bookmark-interval=250',
      `--kubeconfig-out=${kubeconfigPath}`,
    ]);
    cleanups.push(() => killed(server.child));
    const port = new URL(server.url).port;
    const writer = kubeApiClient({
      kubeConfig: { from: 'file', path: kubeconfigPath },
      qps: Number.POSITIVE_INFINITY,
      requestTimeoutMs: 2000,
    });
    cleanups.push(() => writer.close());
    await firstValueFrom(writer.create(NAMESPACES, { metadata: { name: 'restart' } }));
    await writes(writer, 'restart', 'before', ['a', 'b', 'c', 'd']);

    const { cache } = informer({ from: 'file', path: kubeconfigPath }, 'restart');
    await converges(cache, writer, 'restart', 5000);

    await killed(server.child);
    server = await spawnApiServer([`--port=${port}`, `--data-dir=${dir}`, '--bookmark-interval=250']);
    cleanups.push(() => killed(server.child));
    // what was written before the kill survived it
    expect([...(await truthOf(writer, 'restart')).keys()].sort()).toEqual(
      ['a', 'b', 'c', 'd'].map((n) => `restart/${n}`),
    );
    await firstValueFrom(writer.delete(CONFIG_MAPS, 'b', { namespace: 'restart' }));
    await writes(writer, 'restart', 'after', ['a', 'e', 'f']);
    await converges(cache, writer, 'restart', 5000);
    expect(cache.has('restart/b')).toBe(false);
    expect(cache.get('restart/f')).toBeDefined();
  }, 30_000);

  it('a resourceVersion that expired while the server restarted makes the informer relist', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-expire-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const options = { dataDir: dir, historyWindow: 5, bookmarkIntervalMs: 250 };
    let server: RunningApiServer = await startApiServer(options);
    cleanups.push(() => server.close());
    const port = Number(new URL(server.url).port);
    const writerOf = (s: RunningApiServer) =>
      kubeApiClient({
        kubeConfig: { from: 'string', yaml: s.kubeconfig },
        qps: Number.POSITIVE_INFINITY,
        requestTimeoutMs: 2000,
      });
    let writer = writerOf(server);
    await firstValueFrom(writer.create(NAMESPACES, { metadata: { name: 'expire' } }));
    await writes(writer, 'expire', 'before', ['a', 'b']);

    const proxy = await startFaultProxy({ upstream: server, seed: 1 });
    cleanups.push(() => proxy.close());
    const logs: string[] = [];
    const { cache, events } = informer(
      { from: 'string', yaml: proxy.kubeconfig },
      'expire',
      recordingLogger(logs),
    );
    await converges(cache, writer, 'expire', 5000);
    const replacesBefore = events.filter((e) => e.type === 'Replace').length;

    // While the server restarts, the proxy throttles: the informer keeps its resourceVersion and
    // re-watches from it after each backoff.
    proxy.setPlan({ tooManyRequests: 1 });
    writer.close();
    await server.close();
    server = await startApiServer({ ...options, port });
    writer = writerOf(server);
    // more writes than the history window holds: the informer's resourceVersion is now too old
    for (let i = 0; i < 4; i++) await writes(writer, 'expire', `after-${i}`, ['a', 'b', 'c']);
    proxy.setPlan({});
    await converges(cache, writer, 'expire', 5000);
    writer.close();

    expect(logs).toContain('watch expired; relisting');
    expect(events.filter((e) => e.type === 'Replace').length).toBeGreaterThan(replacesBefore);
    expect(proxy.counts().tooManyRequests).toBeGreaterThan(0);
  }, 30_000);
});
