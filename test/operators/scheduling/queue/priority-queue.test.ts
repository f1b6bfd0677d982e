// Tables ported (in our own words) from kube-scheduler's scheduling_queue_test.go: add, pop, update, delete, activate, requeue, moves, hints.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  ActionType,
  type ClusterEvent,
  type ClusterEventWithHint,
  FORCE_ACTIVATE,
  UNSCHEDULABLE_TIMEOUT,
} from '../../../../operators/scheduling/framework/interface.ts';
import { newStatus } from '../../../../operators/scheduling/framework/status.ts';
import {
  clusterEventLabel,
  EVENT_ASSIGNED_POD_ADD,
  EVENT_NODE_ADD,
} from '../../../../operators/scheduling/queue/cluster-events.ts';
import {
  isPodUpdated,
  type QueueingStrategy,
} from '../../../../operators/scheduling/queue/priority-queue.ts';
import type { QueuedPodInfo } from '../../../../operators/scheduling/queue/queued-pod-info.ts';
import { names, newQueue, pod, popAndReject, queueHint, schedulingGates, skipHint } from './fixtures.ts';

const NODE_UPDATE_LABEL: ClusterEvent = { resource: 'Node', action: ActionType.UpdateNodeLabel };

describe('PriorityQueue add and pop', () => {
  it('pops by priority, then by arrival; records nominations of added pods', () => {
    const { q, clock } = newQueue();
    q.add(pod('med', { priority: 100, nominatedNodeName: 'node1' }));
    clock.advance(1);
    q.add(pod('unsched', { priority: 100 }));
    q.add(pod('high', { priority: 1000 }));
    expect(q.nominator.nominatedNodeFor('med')).toBe('node1');
    expect(names(q.nominatedPodsForNode('node1').map((i) => i.pod))).toEqual(['med']);
    expect(q.pop()?.pod.metadata.name).toBe('high');
    expect(q.pop()?.pod.metadata.name).toBe('med');
    expect(q.pop()?.pod.metadata.name).toBe('unsched');
    expect(q.pop()).toBeUndefined();
    // Popping leaves the nomination alone.
    expect(q.nominator.nominatedNodeFor('med')).toBe('node1');
  });

  it('counts attempts and cycles, and keeps a popped pod in flight until done', () => {
    const { q } = newQueue();
    q.add(pod('a'));
    const p = q.pop()!;
    expect(p.attempts).toBe(1);
    expect(q.schedulingCycle()).toBe(1);
    expect(names(q.inFlightPods())).toEqual(['a']);
    expect(p.initialAttemptTimestamp).toBe(0);
    q.done('a');
    q.done('a');
    expect(q.inFlightPods()).toEqual([]);
  });

  it('pops the head of podBackoffQ when activeQ is empty (pop from backoffQ), but not the error heap', () => {
    const { q } = newQueue({ P: [{ event: EVENT_NODE_ADD }] });
    q.add(pod('rejected'));
    q.add(pod('errored'));
    const r = popAndReject(q, 'P');
    const e = popAndReject(q);
    q.addUnschedulableIfNotPresent(e, q.schedulingCycle());
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    expect(q.addUnschedulableIfNotPresent(r, 1)).toBeUndefined();
    expect(q.whereIs('ns', 'errored')).toBe('backoff');
    expect(q.whereIs('ns', 'rejected')).toBe('backoff');
    expect(q.pop()?.pod.metadata.name).toBe('rejected');
    expect(q.pop()).toBeUndefined();
  });

  it('with pop from backoffQ off, a backing-off pod waits for the flush', () => {
    const { q, clock } = newQueue({ P: [{ event: EVENT_NODE_ADD }] }, { popFromBackoffQEnabled: false });
    q.add(pod('a'));
    const p = popAndReject(q, 'P');
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    q.addUnschedulableIfNotPresent(p, 1);
    expect(q.whereIs('ns', 'a')).toBe('backoff');
    expect(q.pop()).toBeUndefined();
    clock.advance(1001);
    q.flushBackoffQCompleted();
    expect(q.pop()?.pod.metadata.name).toBe('a');
  });

  it('returns nothing once closed, and close finishes in-flight pods', () => {
    const { q } = newQueue();
    q.add(pod('a'));
    q.add(pod('b'));
    q.pop();
    q.close();
    expect(q.inFlightPods()).toEqual([]);
    expect(q.pop()).toBeUndefined();
    expect(q.isClosed()).toBe(true);
  });
});

describe('PriorityQueue update', () => {
  const hints = {
    P: [{ event: { resource: 'Pod', action: ActionType.UpdatePodLabel } as ClusterEvent, hint: queueHint }],
  };

  it.each([
    {
      name: 'an unknown pod is added to activeQ',
      setup: () => {},
      update: [undefined, pod('x')] as const,
      where: 'active',
    },
    {
      name: 'a pod in activeQ is replaced there',
      setup: (q: ReturnType<typeof newQueue>['q']) => q.add(pod('x')),
      update: [pod('x'), pod('x', { labels: { a: 'b' } })] as const,
      where: 'active',
    },
    {
      name: 'a pod in backoffQ stays there, replaced',
      setup: (q: ReturnType<typeof newQueue>['q']) => {
        q.add(pod('x'));
        const p = popAndReject(q);
        q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
      },
      update: [pod('x'), pod('x', { labels: { a: 'b' } })] as const,
      where: 'backoff',
    },
    {
      name: 'an unschedulable pod whose hint says Queue moves (still backing off: to backoffQ)',
      setup: (q: ReturnType<typeof newQueue>['q']) => {
        q.add(pod('x'));
        q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), q.schedulingCycle());
      },
      update: [pod('x'), pod('x', { labels: { a: 'b' } })] as const,
      where: 'backoff',
    },
    {
      name: 'an unschedulable pod stays when the update matches no registered event',
      setup: (q: ReturnType<typeof newQueue>['q']) => {
        q.add(pod('x'));
        q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), q.schedulingCycle());
      },
      update: [pod('x'), pod('x', { priority: 5 })] as const,
      where: 'unschedulable',
    },
  ])('$name', ({ setup, update, where }) => {
    const { q } = newQueue(hints);
    setup(q);
    q.update(update[0], update[1]);
    expect(q.whereIs('ns', 'x')).toBe(where);
    expect(q.getPod('x', 'ns')?.pod).toBe(update[1]);
  });

  it('an unschedulable pod whose backoff is over moves straight to activeQ', () => {
    const { q, clock } = newQueue(hints);
    q.add(pod('x'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), q.schedulingCycle());
    clock.advance(2000);
    q.update(pod('x'), pod('x', { labels: { a: 'b' } }));
    expect(q.whereIs('ns', 'x')).toBe('active');
  });

  it('an update of an in-flight pod is recorded and requeues it when it comes back', () => {
    const { q } = newQueue(hints);
    q.add(pod('x'));
    const p = popAndReject(q, 'P');
    q.update(pod('x'), pod('x', { labels: { a: 'b' } }));
    expect(q.whereIs('ns', 'x')).toBeUndefined();
    expect(q.inFlightEventsCount()).toBe(1);
    q.addUnschedulableIfNotPresent(p, 1);
    expect(q.whereIs('ns', 'x')).toBe('backoff');
    expect(q.inFlightEventsCount()).toBe(0);
  });

  it('keeps the timestamp of a pod replaced in activeQ, and reorders by the new priority', () => {
    const { q, clock } = newQueue();
    q.add(pod('a', { priority: 1 }));
    clock.advance(5);
    q.add(pod('b', { priority: 2 }));
    q.update(pod('a', { priority: 1 }), pod('a', { priority: 3 }));
    const first = q.pop()!;
    expect(first.pod.metadata.name).toBe('a');
    expect(first.timestamp).toBe(0);
  });

  it('hints off: a real change moves an unschedulable pod, a status-only change does not', () => {
    const { q, clock } = newQueue(hints, { queueingHintsEnabled: false });
    q.add(pod('x'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), q.schedulingCycle());
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
    const statusOnly = { ...pod('x'), status: { phase: 'Pending' } };
    q.update(pod('x'), statusOnly);
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
    clock.advance(1500);
    // 1.5 s is still in the window where the 1 s backoff ends: the pod goes to backoffQ.
    q.update(pod('x'), pod('x', { labels: { a: 'b' } }));
    expect(q.whereIs('ns', 'x')).toBe('backoff');
    q.delete(pod('x'));
    q.add(pod('x'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), q.schedulingCycle());
    clock.advance(2000);
    q.update(pod('x'), pod('x', { labels: { a: 'c' } }));
    expect(q.whereIs('ns', 'x')).toBe('active');
  });
});

describe('PriorityQueue update, hints off (classic behaviour)', () => {
  it('an update of an in-flight pod queues it again, and its requeue then reports it present', () => {
    const { q } = newQueue({}, { queueingHintsEnabled: false });
    q.add(pod('x'));
    const p = popAndReject(q, 'P');
    q.update(pod('x'), pod('x', { labels: { a: 'b' } }));
    expect(q.whereIs('ns', 'x')).toBe('active');
    expect(q.addUnschedulableIfNotPresent(p, 1)?.message).toBe(
      'Pod ns/x is already present in the active queue',
    );
  });
});

describe('PriorityQueue delete', () => {
  it.each(['active', 'backoff', 'unschedulable'] as const)(
    'removes a pod from %s and its nomination',
    (where) => {
      const { q } = newQueue({ P: [{ event: EVENT_NODE_ADD }] });
      const x = pod('x', { nominatedNodeName: 'n1' });
      q.add(x);
      if (where !== 'active') {
        const p = popAndReject(q, ...(where === 'unschedulable' ? ['P'] : []));
        q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
      }
      expect(q.whereIs('ns', 'x')).toBe(where);
      q.delete(x);
      expect(q.whereIs('ns', 'x')).toBeUndefined();
      expect(q.nominatedPodsForNode('n1')).toEqual([]);
      expect(q.pendingPods().summary).toBe('activeQ:0; backoffQ:0; unschedulablePods:0');
    },
  );
});

describe('PriorityQueue activate', () => {
  it.each([
    { name: 'a pod in unschedulablePods moves to activeQ', from: 'unschedulable', want: 'active' },
    { name: 'a pod in backoffQ moves to activeQ', from: 'backoff', want: 'active' },
    { name: 'a pod already in activeQ stays', from: 'active', want: 'active' },
    { name: 'an unknown pod is ignored', from: 'none', want: undefined },
  ] as const)('$name', ({ from, want }) => {
    const { q } = newQueue();
    if (from !== 'none') q.add(pod('x'));
    if (from === 'unschedulable' || from === 'backoff') {
      q.addUnschedulableIfNotPresent(popAndReject(q, ...(from === 'unschedulable' ? ['P'] : [])), 1);
      expect(q.whereIs('ns', 'x')).toBe(from);
    }
    const before = q.moveRequestCycle();
    q.activate([pod('x')]);
    expect(q.whereIs('ns', 'x')).toBe(want);
    // A pod found in neither unschedulablePods nor backoffQ counts as a move request.
    if (from === 'none' || from === 'active') expect(q.moveRequestCycle()).toBe(q.schedulingCycle());
    else expect(q.moveRequestCycle()).toBe(before);
  });

  it('an in-flight pod gets a ForceActivate aimed at it, so it is requeued when it comes back', () => {
    const { q } = newQueue({ P: [{ event: EVENT_NODE_ADD }] });
    q.add(pod('x'));
    q.add(pod('y'));
    const x = popAndReject(q, 'P');
    const y = popAndReject(q, 'P');
    q.activate([pod('x')]);
    q.addUnschedulableIfNotPresent(x, 1);
    q.addUnschedulableIfNotPresent(y, 2);
    // Requeued after backoff: its timestamp is now, so it waits in backoffQ.
    expect(q.whereIs('ns', 'x')).toBe('backoff');
    expect(q.whereIs('ns', 'y')).toBe('unschedulable');
  });
});

describe('PriorityQueue addUnschedulableIfNotPresent', () => {
  it.each([
    { where: 'unschedulable', message: 'Pod ns/x is already present in unschedulable queue' },
    { where: 'active', message: 'Pod ns/x is already present in the active queue' },
    { where: 'backoff', message: 'Pod ns/x is already present in the backoff queue' },
  ])('refuses a pod already in $where', ({ where, message }) => {
    const { q } = newQueue();
    q.add(pod('x'));
    const p = q.pop()!;
    const twin = q.newQueuedPodInfo(pod('x'));
    if (where === 'active') q.add(pod('x'));
    else {
      twin.unschedulablePlugins = new Set(where === 'unschedulable' ? ['P'] : []);
      q.addUnschedulableIfNotPresent(twin, 1);
    }
    const err = q.addUnschedulableIfNotPresent(p, 1);
    expect(err?.message).toBe(message);
    expect(err?.code).toBe('KUBE_RX_POD_ALREADY_QUEUED');
    expect(q.inFlightPods()).toEqual([]);
  });

  it('a rejection counts UnschedulableCount and clears the error count; an error counts ConsecutiveErrorsCount', () => {
    const { q, clock } = newQueue();
    q.add(pod('x'));
    let p = popAndReject(q);
    q.addUnschedulableIfNotPresent(p, 1);
    expect([p.unschedulableCount, p.consecutiveErrorsCount]).toEqual([0, 1]);
    clock.advance(1000);
    q.flushBackoffQCompleted();
    // Expiry 1 s is in now's window: still backing off.
    expect(q.whereIs('ns', 'x')).toBe('backoff');
    clock.advance(1000);
    q.flushBackoffQCompleted();
    p = popAndReject(q);
    q.addUnschedulableIfNotPresent(p, 2);
    expect([p.unschedulableCount, p.consecutiveErrorsCount]).toEqual([0, 2]);
    expect(q.backoffQ.backoffDuration(p)).toBe(2000);
    expect(q.backoffQ.backoffTime(p)).toBe(4000);
    clock.advance(3000);
    q.flushBackoffQCompleted();
    p = popAndReject(q, 'P');
    q.addUnschedulableIfNotPresent(p, 3);
    expect([p.unschedulableCount, p.consecutiveErrorsCount]).toEqual([1, 0]);
    expect(p.timestamp).toBe(clock.now());
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
  });

  it.each([
    {
      name: 'no event while in flight: unschedulablePods',
      events: [] as ClusterEvent[],
      want: 'unschedulable',
    },
    { name: 'a matching event while in flight: backoffQ', events: [EVENT_NODE_ADD], want: 'backoff' },
    {
      name: 'an event no rejector registered: unschedulablePods',
      events: [NODE_UPDATE_LABEL],
      want: 'unschedulable',
    },
    {
      name: 'an event whose hint skips: unschedulablePods',
      events: [EVENT_ASSIGNED_POD_ADD],
      want: 'unschedulable',
    },
  ])('hints decide from the in-flight events — $name', ({ events, want }) => {
    const { q } = newQueue({
      P: [
        { event: EVENT_NODE_ADD, hint: queueHint },
        { event: { resource: 'Pod', action: ActionType.Add }, hint: skipHint },
      ],
    });
    q.add(pod('x'));
    const p = popAndReject(q, 'P');
    for (const e of events) q.moveAllToActiveOrBackoffQueue(e);
    q.addUnschedulableIfNotPresent(p, 1);
    expect(q.whereIs('ns', 'x')).toBe(want);
  });

  it('hints off: a move request during the cycle sends the pod to backoffQ, none to unschedulablePods', () => {
    const { q } = newQueue({ P: [{ event: EVENT_NODE_ADD }] }, { queueingHintsEnabled: false });
    q.add(pod('x'));
    q.add(pod('y'));
    const x = popAndReject(q, 'P');
    q.addUnschedulableIfNotPresent(x, q.schedulingCycle());
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
    const y = popAndReject(q, 'P');
    const cycle = q.schedulingCycle();
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    q.addUnschedulableIfNotPresent(y, cycle);
    expect(q.whereIs('ns', 'y')).toBe('backoff');
  });
});

describe('PriorityQueue isPodWorthRequeuing', () => {
  const calls: string[] = [];
  const spy = (name: string, answer: 'Queue' | 'QueueSkip' | 'throw') => (): 'Queue' | 'QueueSkip' => {
    calls.push(name);
    if (answer === 'throw') throw new Error('boom');
    return answer;
  };
  it.each<{
    name: string;
    unschedulable?: string[];
    pending?: string[];
    event: ClusterEvent;
    newObj?: Pod;
    want: QueueingStrategy;
    called?: string[];
  }>([
    {
      name: 'no rejector plugins: after backoff',
      event: EVENT_NODE_ADD,
      want: 'queueAfterBackoff',
      called: [],
    },
    {
      name: 'the rejector hints Queue: after backoff',
      unschedulable: ['fooPlugin1'],
      event: EVENT_NODE_ADD,
      want: 'queueAfterBackoff',
      called: ['fooPlugin1'],
    },
    {
      name: 'a hint that throws counts as Queue',
      unschedulable: ['errPlugin'],
      event: EVENT_NODE_ADD,
      want: 'queueAfterBackoff',
      called: ['errPlugin'],
    },
    {
      name: 'the rejector hints QueueSkip: skip',
      unschedulable: ['skipPlugin'],
      event: EVENT_NODE_ADD,
      want: 'queueSkip',
      called: ['skipPlugin'],
    },
    {
      name: 'no registered event matches: skip, no hint called',
      unschedulable: ['fooPlugin1'],
      event: { resource: 'PersistentVolume', action: ActionType.Add },
      want: 'queueSkip',
      called: [],
    },
    {
      name: 'a generic Node/Update does not match a registered UpdateNodeLabel',
      unschedulable: ['labelPlugin'],
      event: { resource: 'Node', action: ActionType.Update },
      want: 'queueSkip',
      called: [],
    },
    {
      name: 'a specific UpdateNodeLabel matches a registered Node/Update',
      unschedulable: ['updatePlugin'],
      event: NODE_UPDATE_LABEL,
      want: 'queueAfterBackoff',
      called: ['updatePlugin'],
    },
    {
      name: 'only the hints of rejector plugins are called',
      unschedulable: ['skipPlugin'],
      event: EVENT_NODE_ADD,
      want: 'queueSkip',
      called: ['skipPlugin'],
    },
    {
      name: 'a wildcard event: after backoff without calling hints',
      unschedulable: ['skipPlugin'],
      event: UNSCHEDULABLE_TIMEOUT,
      want: 'queueAfterBackoff',
      called: [],
    },
    {
      name: 'a wildcard event aimed at another pod: skip',
      unschedulable: ['skipPlugin'],
      event: FORCE_ACTIVATE,
      newObj: pod('other'),
      want: 'queueSkip',
    },
    {
      name: 'a wildcard event aimed at this pod: after backoff',
      unschedulable: ['skipPlugin'],
      event: FORCE_ACTIVATE,
      newObj: pod('x'),
      want: 'queueAfterBackoff',
    },
    {
      name: 'Queue from a Pending plugin: immediately',
      pending: ['fooPlugin1'],
      event: EVENT_NODE_ADD,
      want: 'queueImmediately',
    },
    {
      name: 'Queue from an Unschedulable plugin, QueueSkip from the Pending one: after backoff',
      unschedulable: ['fooPlugin1'],
      pending: ['skipPlugin'],
      event: EVENT_NODE_ADD,
      want: 'queueAfterBackoff',
    },
    {
      name: 'Queue from an Unschedulable plugin and from a Pending one: immediately',
      unschedulable: ['fooPlugin1'],
      pending: ['fooPlugin2'],
      event: EVENT_NODE_ADD,
      want: 'queueImmediately',
    },
  ])('$name', ({ unschedulable, pending, event, newObj, want, called }) => {
    calls.length = 0;
    const { q } = newQueue({
      fooPlugin1: [{ event: EVENT_NODE_ADD, hint: spy('fooPlugin1', 'Queue') }],
      fooPlugin2: [{ event: EVENT_NODE_ADD, hint: spy('fooPlugin2', 'Queue') }],
      skipPlugin: [{ event: EVENT_NODE_ADD, hint: spy('skipPlugin', 'QueueSkip') }],
      errPlugin: [{ event: EVENT_NODE_ADD, hint: spy('errPlugin', 'throw') }],
      labelPlugin: [{ event: NODE_UPDATE_LABEL, hint: spy('labelPlugin', 'Queue') }],
      updatePlugin: [
        { event: { resource: 'Node', action: ActionType.Update }, hint: spy('updatePlugin', 'Queue') },
      ],
    });
    const p = q.newQueuedPodInfo(pod('x'), ...(unschedulable ?? []));
    p.pendingPlugins = new Set(pending ?? []);
    expect(q.isPodWorthRequeuing(p, event, undefined, newObj)).toBe(want);
    if (called) expect(calls).toEqual(called);
  });

  it('a pod of a profile with no hint map is requeued after backoff', () => {
    const { q } = newQueue({});
    const p = q.newQueuedPodInfo(pod('x', { schedulerName: 'other' }), 'P');
    expect(q.isPodWorthRequeuing(p, EVENT_NODE_ADD, undefined, undefined)).toBe('queueAfterBackoff');
  });
});

describe('PriorityQueue moveAllToActiveOrBackoffQueue', () => {
  function withUnschedulable(hints: Parameters<typeof newQueue>[0], ...pods: [Pod, string[]][]) {
    const r = newQueue(hints);
    for (const [p, plugins] of pods) {
      r.q.add(p);
      r.q.addUnschedulableIfNotPresent(popAndReject(r.q, ...plugins), r.q.schedulingCycle());
    }
    return r;
  }

  it('does not call preCheck when no plugin registered a matching event', () => {
    const { q } = withUnschedulable({ P: [{ event: EVENT_NODE_ADD }] }, [pod('x'), ['P']]);
    let checked = 0;
    q.moveAllToActiveOrBackoffQueue(
      { resource: 'PersistentVolume', action: ActionType.Add },
      undefined,
      undefined,
      () => {
        checked++;
        return true;
      },
    );
    expect(checked).toBe(0);
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
    expect(q.moveRequestCycle()).toBe(-1);
  });

  it('moves only the pods whose rejectors hint Queue; backing-off pods to backoffQ, others to activeQ', () => {
    const { q, clock } = withUnschedulable(
      { A: [{ event: EVENT_NODE_ADD, hint: queueHint }], B: [{ event: EVENT_NODE_ADD, hint: skipHint }] },
      [pod('a1'), ['A']],
      [pod('b1'), ['B']],
    );
    clock.advance(3000);
    q.add(pod('a2'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'A'), q.schedulingCycle());
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    expect(q.whereIs('ns', 'a1')).toBe('active');
    expect(q.whereIs('ns', 'a2')).toBe('backoff');
    expect(q.whereIs('ns', 'b1')).toBe('unschedulable');
    expect(q.moveRequestCycle()).toBe(q.schedulingCycle());
  });

  it('preCheck limits the pods considered', () => {
    const { q, clock } = withUnschedulable(
      { A: [{ event: EVENT_NODE_ADD }] },
      [pod('low', { priority: 1 }), ['A']],
      [pod('high', { priority: 10 }), ['A']],
    );
    clock.advance(5000);
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD, undefined, undefined, (p) => (p.spec.priority ?? 0) <= 5);
    expect(q.whereIs('ns', 'low')).toBe('active');
    expect(q.whereIs('ns', 'high')).toBe('unschedulable');
  });

  it('a Queue hint from a Pending plugin skips the backoff', () => {
    const { q } = newQueue({ P: [{ event: EVENT_NODE_ADD, hint: queueHint }] });
    q.add(pod('x'));
    const p = q.pop()!;
    p.pendingPlugins = new Set(['P']);
    q.addUnschedulableIfNotPresent(p, 1);
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    expect(q.whereIs('ns', 'x')).toBe('active');
  });
});

describe('PriorityQueue assignedPodAdded and assignedPodUpdated', () => {
  const hints = {
    InterPodAffinity: [{ event: { resource: 'Pod', action: ActionType.All } as ClusterEvent }],
    PodTopologySpread: [{ event: { resource: 'Pod', action: ActionType.All } as ClusterEvent }],
    NodeResourcesFit: [{ event: { resource: 'Pod', action: ActionType.All } as ClusterEvent }],
  };
  function affinityPod(name: string, anti = false, namespaces?: string[]): Pod {
    const p = pod(name);
    const term = { topologyKey: 'zone', labelSelector: { matchLabels: { app: 'db' } }, namespaces };
    p.spec.affinity = anti
      ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } }
      : { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } };
    return p;
  }

  it('moves only pods with an affinity term matching the assigned pod, or rejected by PodTopologySpread in its namespace', () => {
    const { q, clock } = newQueue(hints);
    const cases: [Pod, string][] = [
      [affinityPod('aff'), 'InterPodAffinity'],
      [affinityPod('anti', true), 'InterPodAffinity'],
      [affinityPod('otherns', false, ['elsewhere']), 'InterPodAffinity'],
      [pod('spread'), 'PodTopologySpread'],
      [pod('spread-far', { namespace: 'far' }), 'PodTopologySpread'],
      [pod('fit'), 'NodeResourcesFit'],
    ];
    for (const [p, plugin] of cases) {
      q.add(p);
      q.addUnschedulableIfNotPresent(popAndReject(q, plugin), q.schedulingCycle());
    }
    clock.advance(5000);
    q.assignedPodAdded(pod('db', { labels: { app: 'db' }, nodeName: 'n1' }));
    expect(names(q.podsInActiveQ())).toEqual(['aff', 'anti', 'spread']);
    // A scale-down of an assigned pod may help any pod (NodeResourcesFit): every pod is considered.
    const before = pod('big', { nodeName: 'n1', cpu: '2' });
    q.assignedPodUpdated(before, pod('big', { nodeName: 'n1', cpu: '1' }), {
      resource: 'AssignedPod',
      action: ActionType.UpdatePodScaleDown,
    });
    expect(names(q.podsInActiveQ())).toEqual(['aff', 'anti', 'fit', 'otherns', 'spread', 'spread-far']);
  });
});

describe('PriorityQueue PreEnqueue (scheduling gates)', () => {
  const gateEvents = {
    SchedulingGates: [
      {
        event: { resource: 'Pod', action: ActionType.UpdatePodSchedulingGatesEliminated } as ClusterEvent,
        hint: queueHint,
      },
    ],
    NodeAffinity: [{ event: EVENT_NODE_ADD, hint: queueHint }],
  };
  const config = { preEnqueuePlugins: { 'default-scheduler': [schedulingGates] } };

  it('a gated pod waits in unschedulablePods, counted as gated, until its gates are removed', () => {
    const gauges: Record<string, number> = {};
    const { q } = newQueue(gateEvents, {
      ...config,
      metrics: {
        pendingPods: (queue, n) => {
          gauges[queue] = n;
        },
      },
    });
    q.add(pod('g', { gates: ['wait'] }));
    expect(q.whereIs('ns', 'g')).toBe('unschedulable');
    expect(gauges).toEqual({ gated: 1 });
    const info = q.getPod('g', 'ns')!;
    expect(info.gatingPlugin).toBe('SchedulingGates');
    expect(info.initialAttemptTimestamp).toBeUndefined();
    // A node event does not interest the gating plugin: the pod stays.
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    q.moveAllToActiveOrBackoffQueue(UNSCHEDULABLE_TIMEOUT);
    expect(q.whereIs('ns', 'g')).toBe('unschedulable');
    q.update(pod('g', { gates: ['wait'] }), pod('g'));
    expect(q.whereIs('ns', 'g')).toBe('active');
    expect(info.gated).toBe(false);
    expect(gauges).toEqual({ gated: 0, active: 1 });
  });

  it('the gating plugin runs first, and a throwing plugin gates', () => {
    const order: string[] = [];
    const first = {
      name: 'First',
      preEnqueue: () => {
        order.push('First');
        return undefined;
      },
    };
    const thrower = {
      name: 'Thrower',
      preEnqueue: () => {
        order.push('Thrower');
        throw new Error('boom');
      },
    };
    const { q } = newQueue({}, { preEnqueuePlugins: { 'default-scheduler': [first, thrower] } });
    q.add(pod('x'));
    expect(order).toEqual(['First', 'Thrower']);
    expect(q.getPod('x', 'ns')?.gatingPlugin).toBe('Thrower');
    order.length = 0;
    q.activate([pod('x')]);
    expect(order).toEqual(['Thrower']);
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
  });
});

describe('PriorityQueue flushes', () => {
  it('flushBackoffQCompleted moves pods whose backoff window has passed', () => {
    const { q, clock } = newQueue();
    q.add(pod('a'));
    q.addUnschedulableIfNotPresent(popAndReject(q), 1);
    q.flushBackoffQCompleted();
    expect(q.whereIs('ns', 'a')).toBe('backoff');
    clock.advance(999);
    q.flushBackoffQCompleted();
    expect(q.whereIs('ns', 'a')).toBe('backoff');
    clock.advance(1001);
    q.flushBackoffQCompleted();
    expect(q.whereIs('ns', 'a')).toBe('active');
  });

  it('flushUnschedulablePodsLeftover moves pods older than the limit, keeps younger and gated ones', () => {
    const { q, clock } = newQueue(
      { P: [{ event: EVENT_NODE_ADD }] },
      { preEnqueuePlugins: { 'default-scheduler': [schedulingGates] } },
    );
    q.add(pod('old'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), 1);
    q.add(pod('gated', { gates: ['g'] }));
    clock.advance(4 * 60_000);
    q.add(pod('young'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), 2);
    clock.advance(60_001);
    q.flushUnschedulablePodsLeftover();
    expect(q.whereIs('ns', 'old')).toBe('active');
    expect(q.getPod('old', 'ns')?.wasFlushedFromUnschedulable).toBe(true);
    expect(q.whereIs('ns', 'young')).toBe('unschedulable');
    expect(q.whereIs('ns', 'gated')).toBe('unschedulable');
  });
});

describe('PriorityQueue in-flight events', () => {
  it('keeps an event only while a pod popped before it is in flight', () => {
    const { q } = newQueue({ P: [{ event: EVENT_NODE_ADD }] });
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    expect(q.inFlightEventsCount()).toBe(0);
    q.add(pod('a'));
    q.add(pod('b'));
    const a = popAndReject(q, 'P');
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    const b = popAndReject(q, 'P');
    expect(q.inFlightEventsCount()).toBe(1);
    // b was popped after the event: it does not see it.
    q.addUnschedulableIfNotPresent(b, 2);
    expect(q.whereIs('ns', 'b')).toBe('unschedulable');
    expect(q.inFlightEventsCount()).toBe(1);
    q.addUnschedulableIfNotPresent(a, 1);
    expect(q.whereIs('ns', 'a')).toBe('backoff');
    expect(q.inFlightEventsCount()).toBe(0);
  });

  it('done of a later pod keeps the events an earlier in-flight pod needs', () => {
    const { q } = newQueue({ P: [{ event: EVENT_NODE_ADD }] });
    q.add(pod('a'));
    q.add(pod('b'));
    const a = popAndReject(q, 'P');
    const b = q.pop()!;
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    q.done(b.uid);
    expect(q.inFlightEventsCount()).toBe(1);
    q.addUnschedulableIfNotPresent(a, 1);
    expect(q.whereIs('ns', 'a')).toBe('backoff');
    expect(q.inFlightEventsCount()).toBe(0);
  });
});

describe('PriorityQueue pendingPods, getPod and metrics', () => {
  it('summarises the sub-queues and counts incoming pods by queue and event', () => {
    const incoming: string[] = [];
    const { q } = newQueue(
      { P: [{ event: EVENT_NODE_ADD }] },
      { metrics: { incomingPod: (queue, event) => void incoming.push(`${queue}/${event}`) } },
    );
    q.add(pod('a'));
    q.add(pod('b'));
    q.add(pod('c'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), 1);
    q.addUnschedulableIfNotPresent(popAndReject(q), 2);
    const { pods, summary } = q.pendingPods();
    expect(summary).toBe('activeQ:1; backoffQ:1; unschedulablePods:1');
    expect(names(pods)).toEqual(['a', 'b', 'c']);
    expect(incoming).toEqual([
      'active/UnschedulablePodAdd',
      'active/UnschedulablePodAdd',
      'active/UnschedulablePodAdd',
      'unschedulable/ScheduleAttemptFailure',
      'backoff/ScheduleAttemptFailure',
    ]);
    expect(q.getPod('a', 'ns')).toBeDefined();
    expect(q.getPod('zzz', 'ns')).toBeUndefined();
  });
});

describe('PriorityQueue backoff flow and per-pod metrics', () => {
  it('each error doubles the backoff from 1 s up to 10 s; the pod leaves backoffQ only once its window has passed', () => {
    const { q, clock } = newQueue();
    q.add(pod('x'));
    const steps = [1000, 2000, 4000, 8000, 10_000, 10_000, 10_000];
    steps.forEach((want, i) => {
      const p = q.pop()!;
      expect(p.attempts).toBe(i + 1);
      expect(p.initialAttemptTimestamp).toBe(0);
      p.unschedulablePlugins = new Set();
      q.addUnschedulableIfNotPresent(p, i);
      expect(q.backoffQ.backoffDuration(p)).toBe(want);
      const expiry = q.backoffQ.backoffTime(p);
      expect(expiry).toBe(clock.now() + want);
      clock.advance(want - 1);
      q.flushBackoffQCompleted();
      expect(q.whereIs('ns', 'x')).toBe('backoff');
      clock.advance(1001);
      q.flushBackoffQCompleted();
      expect(q.whereIs('ns', 'x')).toBe('active');
    });
  });

  it('a gated pod gets its initial attempt time only when ungated; attempts survive requeues', () => {
    const { q, clock } = newQueue(
      {
        SchedulingGates: [
          { event: { resource: 'Pod', action: ActionType.UpdatePodSchedulingGatesEliminated } },
        ],
      },
      { preEnqueuePlugins: { 'default-scheduler': [schedulingGates] } },
    );
    q.add(pod('x', { gates: ['g'] }));
    clock.advance(7000);
    q.update(pod('x', { gates: ['g'] }), pod('x'));
    const p = q.pop()!;
    expect(p.initialAttemptTimestamp).toBe(7000);
    expect(p.timestamp).toBe(0);
    // The gate's plugin stays among the rejectors until a cycle overwrites them; an error here.
    expect(p.unschedulablePlugins).toEqual(new Set(['SchedulingGates']));
    p.unschedulablePlugins = new Set();
    q.addUnschedulableIfNotPresent(p, 1);
    clock.advance(3000);
    q.flushBackoffQCompleted();
    const again = q.pop()!;
    expect([again.attempts, again.initialAttemptTimestamp]).toEqual([2, 7000]);
  });

  it('a pod tried again gets a fresh timestamp and goes behind pods of its priority', () => {
    const { q, clock } = newQueue();
    q.add(pod('first'));
    clock.advance(10);
    q.add(pod('second'));
    const p = q.pop()!;
    expect(p.pod.metadata.name).toBe('first');
    clock.advance(10);
    q.addUnschedulableIfNotPresent(p, 1);
    clock.advance(3000);
    q.flushBackoffQCompleted();
    expect(q.pop()?.pod.metadata.name).toBe('second');
    expect(q.pop()?.pod.metadata.name).toBe('first');
  });
});

describe('PriorityQueue in-flight pods and events (after Test_InFlightPods)', () => {
  const PV_ADD: ClusterEvent = { resource: 'PersistentVolume', action: ActionType.Add };
  const PVC_ADD: ClusterEvent = { resource: 'PersistentVolumeClaim', action: ActionType.Add };
  const CSI_NODE_UPDATE: ClusterEvent = { resource: 'CSINode', action: ActionType.Update };
  type Step =
    | { popped: string }
    | { event: ClusterEvent }
    | { requeue: string; unschedulable?: string[]; pending?: string[] };
  // Every plugin listens to the storage and node events (so they are recorded); hints on AssignedPodAdd vary.
  const listenAll = (plugin: string) =>
    [PV_ADD, PVC_ADD, CSI_NODE_UPDATE, EVENT_NODE_ADD, EVENT_ASSIGNED_POD_ADD].map((event) => ({
      event,
      plugin,
    }));
  it.each<{
    name: string;
    pods: string[];
    steps: Step[];
    hints?: Record<string, 'Queue' | 'QueueSkip'>;
    inFlight: string[];
    entries: string[];
    active?: string[];
    backoff?: string[];
    unschedulable?: string[];
  }>([
    {
      name: 'a popped pod is in flight; events before the pop are not recorded, events after are',
      pods: ['p1'],
      steps: [{ event: PVC_ADD }, { popped: 'p1' }, { event: PV_ADD }],
      inFlight: ['p1'],
      entries: ['p1', 'PersistentVolumeAdd'],
    },
    {
      name: 'requeueing the first popped pod drops the events only it needed',
      pods: ['p1', 'p2'],
      steps: [
        { event: PVC_ADD },
        { popped: 'p1' },
        { event: PV_ADD },
        { popped: 'p2' },
        { event: EVENT_NODE_ADD },
        { requeue: 'p1' },
      ],
      inFlight: ['p2'],
      entries: ['p2', 'NodeAdd'],
      backoff: ['p1'],
    },
    {
      name: 'requeueing every in-flight pod empties the list',
      pods: ['p1', 'p2'],
      steps: [
        { popped: 'p1' },
        { event: PV_ADD },
        { popped: 'p2' },
        { event: EVENT_NODE_ADD },
        { requeue: 'p1' },
        { event: CSI_NODE_UPDATE },
        { requeue: 'p2' },
      ],
      inFlight: [],
      entries: [],
      backoff: ['p1', 'p2'],
    },
    {
      name: 'requeueing a middle pod keeps everything the first one needs',
      pods: ['p1', 'p2', 'p3'],
      steps: [
        { popped: 'p1' },
        { event: PV_ADD },
        { popped: 'p2' },
        { event: EVENT_NODE_ADD },
        { popped: 'p3' },
        { event: EVENT_ASSIGNED_POD_ADD },
        { requeue: 'p2' },
      ],
      inFlight: ['p1', 'p3'],
      entries: ['p1', 'PersistentVolumeAdd', 'NodeAdd', 'p3', 'AssignedPodAdd'],
      backoff: ['p2'],
    },
    {
      name: 'a wildcard event before the pop does not count for it',
      pods: ['p1'],
      steps: [
        { event: UNSCHEDULABLE_TIMEOUT },
        { popped: 'p1' },
        { event: EVENT_ASSIGNED_POD_ADD },
        { requeue: 'p1', unschedulable: ['fooPlugin1'] },
      ],
      hints: { fooPlugin1: 'QueueSkip' },
      inFlight: [],
      entries: [],
      unschedulable: ['p1'],
    },
    {
      name: 'no rejecting plugin: to backoffQ whatever the hints',
      pods: ['p1'],
      steps: [{ popped: 'p1' }, { event: EVENT_ASSIGNED_POD_ADD }, { requeue: 'p1' }],
      hints: { fooPlugin1: 'Queue' },
      inFlight: [],
      entries: [],
      backoff: ['p1'],
    },
    {
      name: 'no event its rejector registered: to unschedulablePods',
      pods: ['p1'],
      steps: [{ popped: 'p1' }, { event: EVENT_NODE_ADD }, { requeue: 'p1', unschedulable: ['fooPlugin1'] }],
      hints: { fooPlugin1: 'Queue' },
      inFlight: [],
      entries: [],
      unschedulable: ['p1'],
    },
    {
      name: 'a Queue from a Pending plugin: straight to activeQ',
      pods: ['p1'],
      steps: [
        { popped: 'p1' },
        { event: EVENT_ASSIGNED_POD_ADD },
        { requeue: 'p1', unschedulable: ['fooPlugin2', 'fooPlugin3'], pending: ['fooPlugin1'] },
      ],
      hints: { fooPlugin3: 'QueueSkip', fooPlugin2: 'Queue', fooPlugin1: 'Queue' },
      inFlight: [],
      entries: [],
      active: ['p1'],
    },
    {
      name: 'a Queue from one rejector beats a QueueSkip from another: backoffQ',
      pods: ['p1'],
      steps: [
        { popped: 'p1' },
        { event: EVENT_ASSIGNED_POD_ADD },
        { requeue: 'p1', unschedulable: ['fooPlugin1', 'fooPlugin2'] },
      ],
      hints: { fooPlugin2: 'QueueSkip', fooPlugin1: 'Queue' },
      inFlight: [],
      entries: [],
      backoff: ['p1'],
    },
    {
      name: 'an event seen while another pod was in flight still counts',
      pods: ['p1', 'p2'],
      steps: [
        { popped: 'p1' },
        { event: EVENT_NODE_ADD },
        { popped: 'p2' },
        { event: EVENT_ASSIGNED_POD_ADD },
        { requeue: 'p1' },
        { requeue: 'p2', unschedulable: ['fooPlugin2', 'fooPlugin3'], pending: ['fooPlugin1'] },
      ],
      hints: { fooPlugin3: 'QueueSkip', fooPlugin2: 'Queue', fooPlugin1: 'Queue' },
      inFlight: [],
      entries: [],
      active: ['p2'],
    },
  ])('$name', ({ pods, steps, hints, inFlight, entries, active, backoff, unschedulable }) => {
    const registered: Record<string, ClusterEventWithHint[]> = { storage: listenAll('storage') };
    for (const [plugin, answer] of Object.entries(hints ?? {})) {
      registered[plugin] = [
        { event: EVENT_ASSIGNED_POD_ADD, hint: answer === 'Queue' ? queueHint : skipHint },
      ];
    }
    const { q, clock } = newQueue(registered);
    for (const n of pods) {
      q.add(pod(n));
      clock.advance(1);
    }
    const popped = new Map<string, QueuedPodInfo>();
    for (const step of steps) {
      if ('popped' in step) {
        const p = q.pop()!;
        expect(p.pod.metadata.name).toBe(step.popped);
        popped.set(step.popped, p);
      } else if ('event' in step) {
        q.moveAllToActiveOrBackoffQueue(step.event);
      } else {
        const p = popped.get(step.requeue)!;
        p.unschedulablePlugins = new Set(step.unschedulable ?? []);
        p.pendingPlugins = new Set(step.pending ?? []);
        expect(q.addUnschedulableIfNotPresent(p, q.schedulingCycle())).toBeUndefined();
      }
    }
    expect(names(q.inFlightPods())).toEqual(inFlight);
    expect(
      q.inFlightEntries().map((e) => ('pod' in e ? e.pod.metadata.name : clusterEventLabel(e.event))),
    ).toEqual(entries);
    if (active) expect(names(q.podsInActiveQ())).toEqual(active);
    if (backoff) expect(names(q.podsInBackoffQ())).toEqual(backoff);
    if (unschedulable) expect(names(q.unschedulablePods())).toEqual(unschedulable);
  });
});

describe('PriorityQueue nominatedPodsForNode', () => {
  it('gives the queued version, else the lister version, else a bare pod', () => {
    const live = pod('x', { nominatedNodeName: 'n1', cpu: '500m' });
    for (const withLister of [true, false]) {
      const { q } = newQueue(
        {},
        withLister ? { podLister: (_ns, name) => (name === 'x' ? live : undefined) } : {},
      );
      q.add(live);
      expect(q.nominatedPodsForNode('n1')[0]?.requests.milliCPU).toBe(500);
      q.pop();
      const [info] = q.nominatedPodsForNode('n1');
      expect(info?.pod.metadata.name).toBe('x');
      expect(info?.requests.milliCPU).toBe(withLister ? 500 : 0);
      q.deleteNominatedPodIfExists(live);
      expect(q.nominatedPodsForNode('n1')).toEqual([]);
    }
  });
});

describe('PriorityQueue pending pods gauge (after TestPendingPodsMetric)', () => {
  it.each([
    {
      name: 'adds go to active',
      ops: ['add a', 'add b'],
      want: { active: 2, backoff: 0, unschedulable: 0, gated: 0 },
    },
    {
      name: 'a rejection goes to unschedulable, an error to backoff',
      ops: ['add a', 'add b', 'reject', 'error'],
      want: { active: 0, backoff: 1, unschedulable: 1, gated: 0 },
    },
    {
      name: 'a node event moves the rejected pod after its backoff',
      ops: ['add a', 'reject', 'wait', 'node'],
      want: { active: 1, backoff: 0, unschedulable: 0, gated: 0 },
    },
    {
      name: 'a gated pod is counted as gated only',
      ops: ['gate g'],
      want: { active: 0, backoff: 0, unschedulable: 0, gated: 1 },
    },
    {
      name: 'deletes take pods out of every count',
      ops: ['add a', 'add b', 'gate g', 'reject', 'delete a', 'delete b', 'delete g'],
      want: { active: 0, backoff: 0, unschedulable: 0, gated: 0 },
    },
  ])('$name', ({ ops, want }) => {
    const gauges: Record<string, number> = { active: 0, backoff: 0, unschedulable: 0, gated: 0 };
    const { q, clock } = newQueue(
      { P: [{ event: EVENT_NODE_ADD }] },
      {
        preEnqueuePlugins: { 'default-scheduler': [schedulingGates] },
        metrics: {
          pendingPods: (queue, n) => {
            gauges[queue] = n;
          },
        },
      },
    );
    for (const op of ops) {
      const [verb, arg] = op.split(' ');
      if (verb === 'add') {
        q.add(pod(arg!));
        clock.advance(1);
      } else if (verb === 'gate') q.add(pod(arg!, { gates: ['x'] }));
      else if (verb === 'reject') q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), q.schedulingCycle());
      else if (verb === 'error') q.addUnschedulableIfNotPresent(popAndReject(q), q.schedulingCycle());
      else if (verb === 'wait') clock.advance(5000);
      else if (verb === 'node') q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
      else if (verb === 'delete') q.delete(pod(arg!));
    }
    expect(gauges).toEqual(want);
  });
});

describe('PriorityQueue more upstream cases', () => {
  const podEvents = {
    InterPodAffinity: [{ event: { resource: 'Pod', action: ActionType.All } as ClusterEvent }],
  };

  it('an assigned pod label update considers only pods with a term matching the new labels', () => {
    const { q, clock } = newQueue(podEvents);
    const waiting = pod('waiting');
    waiting.spec.affinity = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'zone', labelSelector: { matchLabels: { app: 'db' } } },
        ],
      },
    };
    q.add(waiting);
    q.addUnschedulableIfNotPresent(popAndReject(q, 'InterPodAffinity'), 1);
    clock.advance(5000);
    const event = { resource: 'AssignedPod', action: ActionType.UpdatePodLabel } as ClusterEvent;
    q.assignedPodUpdated(
      pod('x', { nodeName: 'n' }),
      pod('x', { nodeName: 'n', labels: { app: 'web' } }),
      event,
    );
    expect(q.whereIs('ns', 'waiting')).toBe('unschedulable');
    q.assignedPodUpdated(
      pod('x', { nodeName: 'n' }),
      pod('x', { nodeName: 'n', labels: { app: 'db' } }),
      event,
    );
    expect(q.whereIs('ns', 'waiting')).toBe('active');
  });

  it.each([
    { name: 'a namespace selector matching the namespace labels', labels: { team: 'a' }, want: 'active' },
    { name: 'a namespace selector not matching', labels: { team: 'b' }, want: 'unschedulable' },
    { name: 'a namespace without labels', labels: undefined, want: 'unschedulable' },
  ])('affinity terms with $name', ({ labels, want }) => {
    const { q, clock } = newQueue(podEvents, {
      namespaceLabels: (ns) => (ns === 'other' ? labels : undefined),
    });
    const waiting = pod('waiting');
    waiting.spec.affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            topologyKey: 'zone',
            labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] },
            namespaceSelector: { matchLabels: { team: 'a' } },
          },
        ],
      },
    };
    q.add(waiting);
    q.addUnschedulableIfNotPresent(popAndReject(q, 'InterPodAffinity'), 1);
    clock.advance(5000);
    q.assignedPodAdded(pod('db', { namespace: 'other', nodeName: 'n', labels: { app: 'db' } }));
    expect(q.whereIs('ns', 'waiting')).toBe(want);
  });

  it('an update making several events moves the pod on the first one a hint queues', () => {
    const calls: string[] = [];
    const { q, clock } = newQueue({
      P: [
        {
          event: { resource: 'Pod', action: ActionType.UpdatePodLabel },
          hint: () => {
            calls.push('label');
            return 'QueueSkip';
          },
        },
        {
          event: { resource: 'Pod', action: ActionType.UpdatePodToleration },
          hint: () => {
            calls.push('toleration');
            return 'Queue';
          },
        },
      ],
    });
    q.add(pod('x'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), 1);
    clock.advance(5000);
    const next = pod('x', { labels: { a: 'b' } });
    next.spec.tolerations = [{ key: 'k', operator: 'Exists' }];
    q.update(pod('x'), next);
    expect(calls).toEqual(['label', 'toleration']);
    expect(q.whereIs('ns', 'x')).toBe('active');
  });

  it('a PreEnqueue plugin that gates a pod on its way into backoffQ keeps it in unschedulablePods (pop from backoffQ)', () => {
    let gate = false;
    const preemption = {
      name: 'DefaultPreemption',
      preEnqueue: () => (gate ? newStatus('Pending', 'preempting') : undefined),
    };
    const { q } = newQueue(
      { P: [{ event: EVENT_NODE_ADD }], DefaultPreemption: [{ event: FORCE_ACTIVATE }] },
      { preEnqueuePlugins: { 'default-scheduler': [preemption] } },
    );
    q.add(pod('x'));
    const p = popAndReject(q, 'P');
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    gate = true;
    q.addUnschedulableIfNotPresent(p, 1);
    expect(q.whereIs('ns', 'x')).toBe('unschedulable');
    expect(p.gatingPlugin).toBe('DefaultPreemption');
    // Once preemption is over, activating the pod runs PreEnqueue again and it goes to activeQ.
    gate = false;
    q.activate([pod('x')]);
    expect(q.whereIs('ns', 'x')).toBe('active');
  });

  it('the leftover flush sends a pod still backing off to backoffQ', () => {
    const { q, clock } = newQueue(
      { P: [{ event: EVENT_NODE_ADD }] },
      { podMaxInUnschedulablePodsDurationMs: 500, podInitialBackoffMs: 10_000, podMaxBackoffMs: 10_000 },
    );
    q.add(pod('x'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), 1);
    clock.advance(1000);
    q.flushUnschedulablePodsLeftover();
    expect(q.whereIs('ns', 'x')).toBe('backoff');
  });

  it('close wakes the ready listeners', () => {
    const { q } = newQueue();
    let woken = 0;
    const remove = q.onReady(() => woken++);
    q.add(pod('a'));
    expect(woken).toBe(1);
    q.close();
    expect(woken).toBe(2);
    remove();
    q.close();
    expect(woken).toBe(2);
  });
});

describe('isPodUpdated (hints off)', () => {
  const base = pod('x', { resourceVersion: '1' });
  it.each([
    { name: 'only resourceVersion changed', next: pod('x', { resourceVersion: '2' }), want: false },
    {
      name: 'only status changed',
      next: { ...base, status: { phase: 'Pending', conditions: [] } },
      want: false,
    },
    {
      name: 'finalizers and managedFields changed',
      next: { ...base, metadata: { ...base.metadata, finalizers: ['f'], managedFields: [{}] } },
      want: false,
    },
    { name: 'labels changed', next: pod('x', { resourceVersion: '1', labels: { a: 'b' } }), want: true },
    { name: 'spec changed', next: pod('x', { resourceVersion: '1', priority: 5 }), want: true },
    {
      name: 'resource claim statuses changed',
      next: { ...base, status: { resourceClaimStatuses: [{ name: 'c' }] } },
      want: true,
    },
  ])('$name', ({ next, want }) => {
    expect(isPodUpdated(base, next as Pod)).toBe(want);
  });
});

describe('PriorityQueue priority across sub-queues (after TestHighPriorityBackoff and friends)', () => {
  it('a high-priority pod backing off does not block a lower-priority pod in activeQ', () => {
    const { q } = newQueue();
    q.add(pod('high', { priority: 100 }));
    q.addUnschedulableIfNotPresent(popAndReject(q), 1);
    q.add(pod('low', { priority: 1 }));
    expect(q.pop()?.pod.metadata.name).toBe('low');
    // activeQ is empty now: popping from backoffQ would take the high one only from podBackoffQ, not the error heap.
    expect(q.pop()).toBeUndefined();
  });

  it('pods flushed after five minutes pop by priority', () => {
    const { q, clock } = newQueue({ P: [{ event: EVENT_NODE_ADD }] });
    q.add(pod('low', { priority: 1 }));
    q.add(pod('high', { priority: 100 }));
    const high = popAndReject(q, 'P');
    const low = popAndReject(q, 'P');
    q.addUnschedulableIfNotPresent(low, 2);
    q.addUnschedulableIfNotPresent(high, 2);
    clock.advance(5 * 60_000 + 1);
    q.flushUnschedulablePodsLeftover();
    expect(q.pop()?.pod.metadata.name).toBe('high');
    expect(q.pop()?.pod.metadata.name).toBe('low');
  });

  it('hints off: a matching event moves a pod even when its hint would skip it', () => {
    const { q, clock } = newQueue(
      { P: [{ event: EVENT_NODE_ADD, hint: skipHint }] },
      { queueingHintsEnabled: false },
    );
    q.add(pod('x'));
    q.addUnschedulableIfNotPresent(popAndReject(q, 'P'), q.schedulingCycle());
    clock.advance(5000);
    q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
    expect(q.whereIs('ns', 'x')).toBe('active');
  });

  it('hints off: done and the in-flight list are no-ops', () => {
    const { q } = newQueue({}, { queueingHintsEnabled: false });
    q.add(pod('x'));
    const p = q.pop()!;
    expect(q.inFlightPods()).toEqual([]);
    q.done(p.uid);
    expect(q.schedulingCycle()).toBe(1);
  });
});
