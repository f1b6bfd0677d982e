// The worked example of docs/scheduler.md: a user's Filter plugin in a few lines, merged through newScheduler's outOfTreeRegistry.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import type { FilterPlugin, PluginFactory } from '../../../operators/scheduling/framework/interface.ts';
import { newStatus } from '../../../operators/scheduling/framework/status.ts';
import { newScheduler, type Scheduler } from '../../../src/scheduler/scheduler.ts';
import { EVENTS, NODES, PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { waitFor } from './wait-for.ts';

// ── the example, as docs/scheduler.md shows it ──────────────────────────────────────────────────
/** Keeps pods off nodes labelled `maintenance=true`. */
const noMaintenance: PluginFactory = (): FilterPlugin => ({
  name: 'NoMaintenance',
  filter: (_state, _pod, nodeInfo) =>
    nodeInfo.node?.metadata.labels?.maintenance === 'true'
      ? newStatus('UnschedulableAndUnresolvable', 'node(s) are under maintenance')
      : undefined,
});

const config = {
  profiles: [
    { schedulerName: 'default-scheduler', plugins: { multiPoint: { enabled: [{ name: 'NoMaintenance' }] } } },
  ],
};
// newScheduler({ client, config, outOfTreeRegistry: { NoMaintenance: noMaintenance } })
// ─────────────────────────────────────────────────────────────────────────────────────────────────

const node = (name: string, labels: Record<string, string> = {}): Node => ({
  metadata: { name, labels },
  spec: {},
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});
const pod = (name: string): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

describe('an out-of-tree plugin', () => {
  const cluster = useEmbeddedCluster();
  let scheduler: Scheduler;
  let loop: Subscription;

  beforeAll(async () => {
    await firstValueFrom(cluster.api.create(NODES, node('under-repair', { maintenance: 'true' })));
    scheduler = newScheduler({
      client: cluster.api,
      config,
      outOfTreeRegistry: { NoMaintenance: noMaintenance },
    });
    expect(await scheduler.start(AbortSignal.timeout(20_000))).toBe(true);
    loop = scheduler.run$.subscribe();
  });

  afterAll(async () => {
    loop?.unsubscribe();
    await scheduler?.stop();
  });

  it('runs at Filter, after the default filters, and names itself in the FitError', async () => {
    expect(scheduler.profiles[0]!.plugins.filter?.map((p) => p.name).at(-1)).toBe('NoMaintenance');
    await firstValueFrom(cluster.api.create(PODS, pod('waits')));
    const message = await waitFor(async () => {
      const list = await firstValueFrom(
        cluster.api.list(EVENTS, { namespace: 'default', fieldSelector: 'involvedObject.name=waits' }),
      );
      const event = list.items.find((e) => (e as { reason?: string }).reason === 'FailedScheduling') as
        | { message?: string }
        | undefined;
      expect(event).toBeDefined();
      return event!.message;
    });
    expect(message).toBe(
      '0/1 nodes are available: 1 node(s) are under maintenance. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
    expect([...scheduler.queue.getPod('waits', 'default')!.unschedulablePlugins]).toEqual(['NoMaintenance']);
  });

  it('lets the pod go to a node out of maintenance as soon as one is added', async () => {
    await firstValueFrom(cluster.api.create(NODES, node('healthy')));
    await waitFor(async () =>
      expect(
        (await firstValueFrom(cluster.api.get<Pod>(PODS, 'waits', { namespace: 'default' }))).spec.nodeName,
      ).toBe('healthy'),
    );
  });

  it('is refused by name when the configuration names a plugin nobody registered', () => {
    expect(() =>
      newScheduler({
        client: cluster.api,
        config: { profiles: [{ plugins: { filter: { enabled: [{ name: 'Nope' }] } } }] },
      }),
    ).toThrow('profiles[0].plugins.filter.enabled[0]: Invalid value: "Nope": plugin "Nope" does not exist');
  });
});
