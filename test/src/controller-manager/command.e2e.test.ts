// `kube-rx controller-manager` end to end on the embedded API server: flags, --controllers errors, the lease, a user's controller (the README example), /healthz and /metrics.
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, NEVER } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../operators/logger.ts';
import { buildProgram } from '../../../src/cli/main.ts';
import { CONCURRENCY_FLAGS } from '../../../src/controller-manager/command.ts';
import { controllerDescriptors } from '../../../src/controller-manager/controller-descriptors.ts';
// the example imports what a user imports: the public entry
import {
  CONFIG_MAPS,
  type ControllerDescriptor,
  controllerManagerCommand,
  NAMESPACES,
  reconcileWith,
  workQueue,
} from '../../../src/index.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { LEASES } from '../../../streams/resources.ts';
import { freeLocalPort, secureGet } from '../../helpers/controller-manager.ts';
import { eventually } from '../../helpers/eventually.ts';

// ── the example, as the README shows it: a user's controller in the name → init map ─────────────
/** Puts a `hello` ConfigMap in every namespace. */
const helloController: ControllerDescriptor = {
  name: 'hello-controller',
  aliases: ['hello'],
  init: ({ client, informerFactory, workQueueMetrics, options, scheduler, logger }) => {
    const queue = workQueue<string>({ name: 'hello', metrics: workQueueMetrics, scheduler });
    informerFactory.forResource(NAMESPACES).addEventHandler({
      onAdd: (ns) => queue.add(ns.metadata?.name ?? ''),
    });
    return NEVER.pipe(
      reconcileWith<string>(
        async (namespace) => {
          const hello = { metadata: { name: 'hello', namespace }, data: { greeting: 'hello' } };
          await firstValueFrom(client.create(CONFIG_MAPS, hello, { namespace })).catch((e) => {
            if (e.statusCode !== 409) throw e; // already there
          });
        },
        { queue, workers: options.concurrency['concurrent-hello-syncs'] ?? 1, scheduler, logger },
      ),
    );
  },
};
// controllerManagerCommand({ controllers: [helloController] }).parseAsync(process.argv);
// ─────────────────────────────────────────────────────────────────────────────────────────────────

const dir = mkdtempSync(join(tmpdir(), 'kube-rx-kcm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kube-rx controller-manager', () => {
  it('is one of the CLI’s commands, with upstream’s flags and defaults', () => {
    expect(buildProgram().commands.map((c) => c.name())).toContain('controller-manager');
    const options = controllerManagerCommand().options;
    const defaults = Object.fromEntries(options.map((o) => [o.long, o.defaultValue]));
    expect(defaults).toMatchObject({
      '--controllers': '*',
      '--controller-start-interval': 0,
      '--kube-api-qps': 20,
      '--kube-api-burst': 30,
      '--leader-elect': true,
      '--leader-elect-lease-duration': 15_000,
      '--leader-elect-renew-deadline': 10_000,
      '--leader-elect-retry-period': 2_000,
      '--leader-elect-resource-namespace': 'kube-system',
      '--leader-elect-resource-name': 'kube-controller-manager',
      '--secure-port': 10257,
      '--terminated-pod-gc-threshold': 12_500,
      '--min-resync-period': 12 * 3600_000,
      '--node-monitor-period': 5_000,
      '--node-monitor-grace-period': 40_000,
      '--node-startup-grace-period': 60_000,
      '--node-eviction-rate': 0.1,
      '--secondary-node-eviction-rate': 0.01,
      '--large-cluster-size-threshold': 50,
      '--unhealthy-zone-threshold': 0.55,
    });
    for (const [flag, value] of Object.entries(CONCURRENCY_FLAGS)) expect(defaults[`--${flag}`]).toBe(value);
  });

  it.each([
    [['--controllers', '*,nosuch'], '--controllers: "nosuch" is not in the list of known controllers'],
    [
      ['--controllers', 'horizontalpodautoscaling'],
      '--controllers: "horizontal-pod-autoscaler-controller" is not built in kube-rx yet',
    ],
    [['--node-eviction-rate', '-1'], '--node-eviction-rate: not a non-negative number: -1'],
    [['--unhealthy-zone-threshold', 'half'], '--unhealthy-zone-threshold: not a non-negative number: half'],
  ])('refuses %j before starting anything', async (args, message) => {
    const command = controllerManagerCommand({ logger: silentLogger }).exitOverride();
    await expect(command.parseAsync(args, { from: 'user' })).rejects.toThrow(message);
  });

  it('runs the enabled controllers as leader, including a user controller, with /healthz per controller and /metrics', async () => {
    const signals = new EventEmitter();
    const lines: string[] = [];
    const securePort = await freeLocalPort();
    const kubeconfig = join(dir, 'kubeconfig');
    const run = controllerManagerCommand({
      logger: silentLogger,
      signals,
      stdout: { write: (l: string) => lines.push(l) },
      controllers: [helloController],
    })
      .exitOverride()
      .parseAsync(
        [
          '--port',
          '0',
          '--secure-port',
          String(securePort),
          '--bind-address',
          '127.0.0.1',
          '--kubeconfig-out',
          kubeconfig,
        ],
        { from: 'user' },
      );
    await eventually(() => expect(lines).toHaveLength(1), 20_000);
    const printed = JSON.parse(lines[0]!);
    // every built controller on by default, in registration order, then the user's
    const builtIn = [...controllerDescriptors().values()]
      .filter((d) => d.init && !d.disabledByDefault)
      .map((d) => d.name);
    expect(builtIn).toContain('root-ca-certificate-publisher-controller');
    expect(printed.controllers).toEqual([...builtIn, 'hello-controller']);
    const client = kubeApiClient({ kubeConfig: { from: 'file', path: kubeconfig }, logger: silentLogger });
    try {
      const lease = (await firstValueFrom(
        client.get(LEASES, 'kube-controller-manager', { namespace: 'kube-system' }),
      )) as {
        spec: { holderIdentity: string };
      };
      expect(lease.spec.holderIdentity).toMatch(/^.+_[0-9a-f-]{36}$/);
      const want = [
        'default/hello',
        'default/kube-root-ca.crt',
        'kube-system/hello',
        'kube-system/kube-root-ca.crt',
      ];
      let names: string[] = [];
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
        const list = await firstValueFrom(client.list(CONFIG_MAPS));
        names = list.items.map((c) => `${c.metadata?.namespace}/${c.metadata?.name}`);
        if (want.every((n) => names.includes(n))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(names).toEqual(expect.arrayContaining(want));
    } finally {
      client.close();
    }
    const token = /token: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))![1]!;
    const base = `https://127.0.0.1:${securePort}`;
    expect(await secureGet(`${base}/healthz/hello-controller`, token)).toEqual({ status: 200, body: 'ok' });
    expect(await secureGet(`${base}/healthz/root-ca-certificate-publisher-controller`, token)).toEqual({
      status: 200,
      body: 'ok',
    });
    expect((await secureGet(`${base}/healthz`, token)).status).toBe(200);
    const metrics = await secureGet(`${base}/metrics`, token);
    expect(metrics.body).toContain('workqueue_adds_total{name="hello"}');
    expect(metrics.body).toContain('kube_rx_reflector_lists_total{resource="namespaces",reason="initial"} 1');
    signals.emit('SIGTERM');
    await run;
  }, 60_000);

  it('lets its embedded API server finish deleted namespaces itself when the namespace controllers are not among --controllers', async () => {
    const signals = new EventEmitter();
    const lines: string[] = [];
    const kubeconfig = join(dir, 'kubeconfig-job-only');
    const run = controllerManagerCommand({
      logger: silentLogger,
      signals,
      stdout: { write: (l: string) => lines.push(l) },
    })
      .exitOverride()
      .parseAsync(
        [
          ...['--port', '0', '--secure-port', String(await freeLocalPort()), '--bind-address', '127.0.0.1'],
          ...['--kubeconfig-out', kubeconfig, '--controllers', 'job', '--leader-elect=false'],
        ],
        { from: 'user' },
      );
    await eventually(() => expect(lines).toHaveLength(1), 20_000);
    const client = kubeApiClient({ kubeConfig: { from: 'file', path: kubeconfig }, logger: silentLogger });
    try {
      await firstValueFrom(client.create(NAMESPACES, { metadata: { name: 'solo' } }));
      await firstValueFrom(client.create(CONFIG_MAPS, { metadata: { name: 'c' } }, { namespace: 'solo' }));
      await firstValueFrom(client.delete(NAMESPACES, 'solo'));
      // no namespace controller runs, so the server empties and removes it, as `kube-rx apiserver` alone
      await eventually(async () => {
        const left = await firstValueFrom(client.list(NAMESPACES));
        expect(left.items.map((n) => n.metadata?.name)).not.toContain('solo');
      }, 10_000);
    } finally {
      client.close();
      signals.emit('SIGTERM');
      await run;
    }
  }, 60_000);
});
