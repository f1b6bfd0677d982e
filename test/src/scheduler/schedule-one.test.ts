// ScheduleOne: the loop's cases of upstream's schedule_one_test.go — failure handler, deleting and assumed pods, bind failure, Reserve/Permit rejections.
import type { SchedulerLike } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Node, Pod, PodCondition } from '../../../operators/api/core-v1.ts';
import { type Extender, extendersOf } from '../../../operators/scheduling/framework/extender.ts';
import {
  type Framework,
  newFramework,
  type ResolvedProfile,
} from '../../../operators/scheduling/framework/framework.ts';
import type { Plugin, Registry } from '../../../operators/scheduling/framework/interface.ts';
import { newStatus } from '../../../operators/scheduling/framework/status.ts';
import { inTreeRegistry } from '../../../operators/scheduling/plugins/registry.ts';
import { PriorityQueue } from '../../../operators/scheduling/queue/priority-queue.ts';
import { SchedulerCache } from '../../../src/scheduler/cache/scheduler-cache.ts';
import { Snapshot } from '../../../src/scheduler/cache/snapshot.ts';
import { NOTE_LENGTH_LIMIT, ScheduleOne, truncateMessage } from '../../../src/scheduler/schedule-one.ts';
import type { SchedulerWrites } from '../../../src/scheduler/scheduler-api.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { FakeExtender } from '../../operators/scheduling/framework/fake-extender.ts';

const node = (name: string, cpu = '2'): Node => ({
  metadata: { name },
  spec: {},
  status: { allocatable: { cpu, memory: '4Gi', pods: '110' } },
});

const pod = (name: string, cpu = '1', extra: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '1', ...extra },
  spec: { schedulerName: 'default-scheduler', containers: [{ name: 'c', resources: { requests: { cpu } } }] },
});

interface Recorded {
  binds: string[];
  events: { type: string; reason: string; message: string; reporter: string }[];
  patches: { pod: string; condition?: PodCondition; nominated?: string }[];
}

function harness(
  nodes: Node[],
  options: {
    failBind?: boolean;
    extra?: Registry;
    plugins?: ResolvedProfile['plugins'];
    clock?: SchedulerLike;
    metrics?: ConstructorParameters<typeof ScheduleOne>[0]['metrics'];
    extenders?: readonly Extender[];
  } = {},
) {
  const rec: Recorded = { binds: [], events: [], patches: [] };
  const api: SchedulerWrites = {
    async bind(p, n) {
      if (options.failBind) throw new Error('connection refused');
      rec.binds.push(`${p.metadata.name}->${n}`);
    },
    async deletePod() {},
    async patchPodCondition() {},
    async setNominatedNodeName() {},
    async patchPodStatus(p, condition, nominated) {
      rec.patches.push({
        pod: p.metadata.name!,
        ...(condition ? { condition } : {}),
        ...(nominated !== undefined ? { nominated } : {}),
      });
    },
    async recordEvent(_pod, type, reason, _action, message, reporter) {
      rec.events.push({ type, reason, message, reporter });
    },
  };
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addNode(n);
  const snapshot = new Snapshot();
  const informer = new Map<string, Pod>();
  const getPod = (ns: string, name: string) => informer.get(`${ns}/${name}`);
  let queue: PriorityQueue | undefined;
  const fwk: Framework = newFramework(
    {
      schedulerName: 'default-scheduler',
      plugins: options.plugins ?? {
        queueSort: [{ name: 'PrioritySort' }],
        preFilter: [{ name: 'NodeResourcesFit' }],
        filter: [{ name: 'NodeResourcesFit' }],
        bind: [{ name: 'DefaultBinder' }],
      },
      pluginArgs: {},
    },
    { ...inTreeRegistry, ...options.extra },
    {
      snapshot: () => snapshot,
      api,
      ...(options.clock ? { scheduler: options.clock } : {}),
      getPod,
      nominatedPodsForNode: (n) => queue?.nominatedPodsForNode(n) ?? [],
      activate: (pods) => queue?.activate(pods),
    },
  );
  queue = new PriorityQueue({
    queueingHints: {
      'default-scheduler': Object.fromEntries(fwk.enqueueExtensions().map((e) => [e.plugin, e.events])),
    },
    podLister: getPod,
  });
  const loop = new ScheduleOne({
    queue,
    cache,
    snapshot,
    frameworks: new Map([['default-scheduler', fwk]]),
    api,
    getPod,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.extenders ? { extenders: options.extenders } : {}),
  });
  const q = queue;
  return {
    rec,
    cache,
    queue: q,
    informer,
    fwk,
    loop,
    /** Adds the pod to the informer and the queue and pops it (the caller runs the cycle). */
    enqueue(p: Pod) {
      informer.set(`ns/${p.metadata.name}`, p);
      q.add(p);
      return q.pop()!;
    },
    /** Adds the pod to the informer and the queue, pops it and runs one cycle and its binding. */
    async schedule(p: Pod, inInformer: Pod | null = p) {
      if (inInformer) informer.set(`ns/${p.metadata.name}`, inInformer);
      q.add(p);
      const popped = q.pop()!;
      expect(popped.pod.metadata.name).toBe(p.metadata.name);
      await loop.run(popped);
      await loop.drain();
      return popped;
    },
  };
}

describe('ScheduleOne', () => {
  it('binds a pod that fits, then records Scheduled and finishes the assumed pod’s binding', async () => {
    const h = harness([node('n1', '1'), node('n2', '4')]);
    await h.schedule(pod('p', '2'));
    expect(h.rec.binds).toEqual(['p->n2']);
    expect(h.rec.events).toEqual([
      {
        type: 'Normal',
        reason: 'Scheduled',
        message: 'Successfully assigned ns/p to n2',
        reporter: 'default-scheduler',
      },
    ]);
    expect(h.cache.isAssumedPod(pod('p'))).toBe(true);
    expect(h.cache.isBindingFinished(pod('p'))).toBe(true);
    expect(h.queue.inFlightPods()).toEqual([]);
    expect(h.rec.patches).toEqual([]);
  });

  it('handles a FitError: FailedScheduling, PodScheduled=False/Unschedulable, requeued as unschedulable', async () => {
    const h = harness([node('n1', '1'), node('n2', '1')]);
    await h.schedule(pod('p', '2'));
    const message = '0/2 nodes are available: 2 Insufficient cpu.';
    expect(h.rec.binds).toEqual([]);
    expect(h.rec.events).toEqual([
      { type: 'Warning', reason: 'FailedScheduling', message, reporter: 'default-scheduler' },
    ]);
    expect(h.rec.patches).toEqual([
      {
        pod: 'p',
        condition: expect.objectContaining({
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message,
        }),
      },
    ]);
    expect(h.queue.unschedulablePods().map((p) => p.metadata.name)).toEqual(['p']);
    expect([...h.queue.getPod('p', 'ns')!.unschedulablePlugins]).toEqual(['NodeResourcesFit']);
    expect(h.cache.podCount()).toBe(0);
  });

  it('does not patch a condition the pod already has', async () => {
    const h = harness([node('n1', '1')]);
    const condition: PodCondition = {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: '0/1 nodes are available: 1 Insufficient cpu.',
    };
    const p = pod('p', '2');
    await h.schedule(p, { ...p, status: { conditions: [condition] } });
    expect(h.rec.events.map((e) => e.reason)).toEqual(['FailedScheduling']);
    expect(h.rec.patches).toEqual([]);
  });

  it('reports no nodes as "no nodes available to schedule pods"', async () => {
    const h = harness([]);
    await h.schedule(pod('p'));
    expect(h.rec.events[0]!.message).toBe('no nodes available to schedule pods');
    expect(h.rec.patches[0]!.condition).toMatchObject({ reason: 'Unschedulable' });
    expect(
      h.queue.podsInBackoffQ().length + h.queue.unschedulablePods().length + h.queue.podsInActiveQ().length,
    ).toBe(1);
  });

  it('skips a pod being deleted with a FailedScheduling event and no binding', async () => {
    const h = harness([node('n1')]);
    await h.schedule(pod('p', '1', { deletionTimestamp: '2026-01-01T00:00:00Z' }));
    expect(h.rec.binds).toEqual([]);
    expect(h.rec.events).toEqual([
      expect.objectContaining({
        type: 'Warning',
        reason: 'FailedScheduling',
        message: 'skip schedule deleting pod: ns/p',
      }),
    ]);
    expect(h.queue.inFlightPods()).toEqual([]);
  });

  it('skips a pod the cache already holds as assumed', async () => {
    const h = harness([node('n1')]);
    h.cache.assumePod({ ...pod('p'), spec: { ...pod('p').spec, nodeName: 'n1' } });
    await h.schedule(pod('p'));
    expect(h.rec.binds).toEqual([]);
    expect(h.rec.events).toEqual([]);
    expect(h.queue.inFlightPods()).toEqual([]);
  });

  it('forgets the assumed pod when the bind fails and requeues it as an error (SchedulerError)', async () => {
    const h = harness([node('n1')], { failBind: true });
    await h.schedule(pod('p'));
    expect(h.cache.podCount()).toBe(0);
    expect(h.cache.nodeInfo('n1')!.requested.milliCPU).toBe(0);
    const message = 'running Bind plugin "DefaultBinder": connection refused';
    expect(h.rec.events).toEqual([expect.objectContaining({ reason: 'FailedScheduling', message })]);
    expect(h.rec.patches[0]!.condition).toMatchObject({ reason: 'SchedulerError', message });
    const info = h.queue.getPod('p', 'ns')!;
    expect(info.consecutiveErrorsCount).toBe(1);
    expect(h.queue.inFlightPods()).toEqual([]);
  });

  it('only marks done a pod that is gone from the informer when it fails', async () => {
    const h = harness([node('n1', '1')]);
    await h.schedule(pod('p', '2'), null);
    expect(h.queue.whereIs('ns', 'p')).toBeUndefined();
    expect(h.queue.inFlightPods()).toEqual([]);
    expect(h.rec.patches).toEqual([]);
    expect(h.rec.events.map((e) => e.reason)).toEqual(['FailedScheduling']);
  });

  it('does not requeue a failed pod that the informer shows bound meanwhile', async () => {
    const h = harness([node('n1', '1')]);
    const p = pod('p', '2');
    await h.schedule(p, { ...p, spec: { ...p.spec, nodeName: 'elsewhere' } });
    expect(h.queue.whereIs('ns', 'p')).toBeUndefined();
    expect(h.queue.inFlightPods()).toEqual([]);
  });

  it.each([
    ['Reserve', 'reserve'],
    ['Permit', 'permit'],
  ] as const)(
    'unreserves and forgets the pod when %s rejects it, with a one-node FitError',
    async (_name, point) => {
      const unreserved: string[] = [];
      const gate = {
        name: 'Gate',
        reserve: () => (point === 'reserve' ? newStatus('Unschedulable', 'gate closed') : undefined),
        unreserve: (_s: unknown, p: Pod) => unreserved.push(p.metadata.name!),
        permit: () => ({
          status: point === 'permit' ? newStatus('Unschedulable', 'gate closed') : undefined,
        }),
      };
      const h = harness([node('n1')], {
        extra: { Gate: () => gate },
        plugins: {
          queueSort: [{ name: 'PrioritySort' }],
          preFilter: [{ name: 'NodeResourcesFit' }],
          filter: [{ name: 'NodeResourcesFit' }],
          reserve: [{ name: 'Gate' }],
          permit: [{ name: 'Gate' }],
          bind: [{ name: 'DefaultBinder' }],
        },
      });
      await h.schedule(pod('p'));
      expect(unreserved).toEqual(['p']);
      expect(h.cache.podCount()).toBe(0);
      expect(h.rec.binds).toEqual([]);
      expect(h.rec.events[0]!.message).toBe('0/1 nodes are available: 1 gate closed.');
      expect([...h.queue.getPod('p', 'ns')!.unschedulablePlugins]).toEqual(['Gate']);
    },
  );
});

describe('ScheduleOne with a PostFilter plugin', () => {
  it('records the nomination PostFilter returns, patches nominatedNodeName and the preemption message', async () => {
    const nominator = {
      name: 'Nominator',
      postFilter: async () => ({
        result: { nominatingInfo: { nominatedNodeName: 'n1', mode: 'Override' as const }, victims: 2 },
        status: newStatus('Unschedulable', 'preemption: made room on n1'),
      }),
    };
    const preemptions: (number | undefined)[] = [];
    const metrics = new Proxy({} as never, {
      get: (_t, name) =>
        name === 'preemption' ? (victims: number | undefined) => preemptions.push(victims) : () => {},
    });
    const h = harness([node('n1', '1')], {
      metrics,
      extra: { Nominator: () => nominator },
      plugins: {
        queueSort: [{ name: 'PrioritySort' }],
        preFilter: [{ name: 'NodeResourcesFit' }],
        filter: [{ name: 'NodeResourcesFit' }],
        postFilter: [{ name: 'Nominator' }],
        bind: [{ name: 'DefaultBinder' }],
      },
    });
    await h.schedule(pod('p', '2'));
    const message = '0/1 nodes are available: 1 Insufficient cpu. preemption: made room on n1';
    expect(h.rec.events).toEqual([expect.objectContaining({ reason: 'FailedScheduling', message })]);
    expect(h.rec.patches).toEqual([
      { pod: 'p', condition: expect.objectContaining({ reason: 'Unschedulable', message }), nominated: 'n1' },
    ]);
    expect(h.queue.nominatedPodsForNode('n1').map((i) => i.pod.metadata.name)).toEqual(['p']);
    // scheduler_preemption_attempts_total and scheduler_preemption_victims
    expect(preemptions).toEqual([2]);
  });
});

describe('ScheduleOne binding-cycle failures', () => {
  it.each([
    [
      'PreBind returns an error',
      { preBind: async () => newStatus('Error', 'volume not ready') },
      'volume not ready',
    ],
    ['every binder skips', { bind: async () => newStatus('Skip') }, 'no bind plugin bound pod ns/p'],
  ])('%s: unreserved, forgotten, SchedulerError, retried after backoff', async (_name, impl, text) => {
    const unreserved: string[] = [];
    const plugin = {
      name: 'Step',
      reserve: () => undefined,
      unreserve: (_s: unknown, p: Pod) => unreserved.push(p.metadata.name!),
      ...impl,
    };
    const h = harness([node('n1')], {
      extra: { Step: () => plugin },
      plugins: {
        queueSort: [{ name: 'PrioritySort' }],
        preFilter: [{ name: 'NodeResourcesFit' }],
        filter: [{ name: 'NodeResourcesFit' }],
        reserve: [{ name: 'Step' }],
        ...('preBind' in impl
          ? { preBind: [{ name: 'Step' }], bind: [{ name: 'DefaultBinder' }] }
          : { bind: [{ name: 'Step' }] }),
      },
    });
    await h.schedule(pod('p'));
    expect(unreserved).toEqual(['p']);
    expect(h.cache.podCount()).toBe(0);
    expect(h.rec.binds).toEqual([]);
    expect(h.rec.events[0]!.message).toContain(text);
    expect(h.rec.patches[0]!.condition).toMatchObject({ reason: 'SchedulerError' });
    expect(h.queue.getPod('p', 'ns')!.consecutiveErrorsCount).toBe(1);
    expect(h.queue.whereIs('ns', 'p')).toBe('backoff');
  });
});

describe('ScheduleOne with a Permit plugin that waits (virtual time)', () => {
  const waiter = { name: 'Waiter', permit: () => ({ status: newStatus('Wait'), timeoutMs: 5000 }) };
  const plugins: ResolvedProfile['plugins'] = {
    queueSort: [{ name: 'PrioritySort' }],
    preFilter: [{ name: 'NodeResourcesFit' }],
    filter: [{ name: 'NodeResourcesFit' }],
    permit: [{ name: 'Waiter' }],
    bind: [{ name: 'DefaultBinder' }],
  };

  it('binds once the waiting pod is allowed, the next pod’s cycle not held up meanwhile', async () => {
    const clock = new VirtualClock();
    const h = harness([node('n1', '4')], {
      extra: { Waiter: () => waiter },
      plugins,
      clock: clock.scheduler,
    });
    await h.loop.run(h.enqueue(pod('p')));
    expect(h.loop.bindings).toBe(1);
    expect(h.rec.binds).toEqual([]);
    expect(h.cache.isAssumedPod(pod('p'))).toBe(true);
    expect(h.fwk.getWaitingPod('uid-p')!.allow('Waiter')).toBeUndefined();
    await h.loop.drain();
    expect(h.rec.binds).toEqual(['p->n1']);
  });

  it('rejects the pod when the wait times out: unreserved, forgotten, FailedScheduling with the timeout', async () => {
    const clock = new VirtualClock();
    const h = harness([node('n1', '4')], {
      extra: { Waiter: () => waiter },
      plugins,
      clock: clock.scheduler,
    });
    await h.loop.run(h.enqueue(pod('p')));
    clock.advance(4999);
    await Promise.resolve();
    expect(h.rec.events).toEqual([]);
    clock.advance(1);
    await h.loop.drain();
    expect(h.rec.binds).toEqual([]);
    expect(h.cache.podCount()).toBe(0);
    expect(h.rec.events).toEqual([
      expect.objectContaining({
        reason: 'FailedScheduling',
        message: '0/1 nodes are available: 1 rejected due to timeout after waiting 5s at plugin Waiter.',
      }),
    ]);
    expect(h.queue.whereIs('ns', 'p')).toBeDefined();
  });
});

describe('ScheduleOne with extenders', () => {
  const bindPoints = (postFilter?: string) => ({
    queueSort: [{ name: 'PrioritySort' }],
    preFilter: [{ name: 'NodeResourcesFit' }],
    filter: [{ name: 'NodeResourcesFit' }],
    ...(postFilter ? { postFilter: [{ name: postFilter }] } : {}),
    bind: [{ name: 'DefaultBinder' }],
  });

  it('a binder extender interested in the pod binds it instead of the Bind plugins', async () => {
    const ext = new FakeExtender({ binder: () => undefined });
    const h = harness([node('n1')], { extenders: [ext] });
    await h.schedule(pod('p'));
    expect(ext.bound).toEqual([{ pod: 'p', node: 'n1' }]);
    expect(h.rec.binds).toEqual([]);
    expect(h.rec.events).toEqual([expect.objectContaining({ reason: 'Scheduled' })]);
    expect(h.cache.isBindingFinished(pod('p'))).toBe(true);
  });

  it.each<[string, ConstructorParameters<typeof FakeExtender>[0], string[]]>([
    ['an uninterested binder extender', { binder: () => undefined, uninterested: true }, ['p->n1']],
    [
      'an ignorable binder extender that fails',
      { binder: () => new Error('down'), ignorable: true },
      ['p->n1'],
    ],
  ])('%s leaves the binding to the Bind plugins', async (_name, o, binds) => {
    const h = harness([node('n1')], { extenders: [new FakeExtender(o)] });
    await h.schedule(pod('p'));
    expect(h.rec.binds).toEqual(binds);
  });

  it('a binder extender that fails fails the binding cycle with its error', async () => {
    const h = harness([node('n1')], {
      extenders: [new FakeExtender({ binder: () => new Error('extender says no') })],
    });
    await h.schedule(pod('p'));
    expect(h.rec.binds).toEqual([]);
    expect(h.cache.podCount()).toBe(0);
    expect(h.rec.events).toEqual([
      expect.objectContaining({ reason: 'FailedScheduling', message: 'extender says no' }),
    ]);
    expect(h.rec.patches[0]!.condition).toMatchObject({ reason: 'SchedulerError' });
  });

  it('a filtering extender that rejects every node: FailedScheduling with its reasons, Extender as the plugin', async () => {
    const ext = new FakeExtender({
      predicates: [() => newStatus('Unschedulable', 'reserved')],
    });
    const h = harness([node('n1'), node('n2')], { extenders: [ext] });
    await h.schedule(pod('p'));
    expect(h.rec.events).toEqual([
      expect.objectContaining({
        reason: 'FailedScheduling',
        message:
          '0/2 nodes are available: 1 FakeExtender: node "n1" failed, 1 FakeExtender: node "n2" failed.',
      }),
    ]);
    expect([...h.queue.getPod('p', 'ns')!.unschedulablePlugins]).toEqual(['Extender']);
  });

  it('PostFilter plugins see the scheduler’s extenders in the cycle state', async () => {
    const seen: string[][] = [];
    const spy = {
      Spy: () =>
        ({
          name: 'Spy',
          postFilter: async (state: Parameters<typeof extendersOf>[0]) => {
            seen.push(extendersOf(state).map((e) => e.name()));
            return { status: newStatus('Unschedulable', 'no help') };
          },
        }) as Plugin,
    };
    const ext = new FakeExtender({ name: 'http://ext', preempt: (m) => m });
    const h = harness([node('n1', '1')], { extenders: [ext], extra: spy, plugins: bindPoints('Spy') });
    await h.schedule(pod('p', '2'));
    expect(seen).toEqual([['http://ext']]);
  });
});

describe('truncateMessage', () => {
  it.each([
    ['a short message is kept', 'x'.repeat(10), 'x'.repeat(10)],
    ['a message of exactly the limit is kept', 'x'.repeat(NOTE_LENGTH_LIMIT), 'x'.repeat(NOTE_LENGTH_LIMIT)],
    [
      'a longer one is cut to the limit with " ..."',
      'x'.repeat(NOTE_LENGTH_LIMIT + 1),
      `${'x'.repeat(NOTE_LENGTH_LIMIT - 4)} ...`,
    ],
  ])('%s', (_name, input, output) => {
    expect(truncateMessage(input)).toBe(output);
    expect(truncateMessage(input).length).toBeLessThanOrEqual(NOTE_LENGTH_LIMIT);
  });
});
