// Model-based test: the scheduling queue under any interleaving of pod adds, updates, deletes, pops, failures, cluster events and time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ActionType,
  type ClusterEvent,
  FORCE_ACTIVATE,
} from '../../../../operators/scheduling/framework/interface.ts';
import { EVENT_NODE_ADD } from '../../../../operators/scheduling/queue/cluster-events.ts';
import type { PriorityQueue } from '../../../../operators/scheduling/queue/priority-queue.ts';
import type { QueuedPodInfo } from '../../../../operators/scheduling/queue/queued-pod-info.ts';
import type { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { newQueue, pod, queueHint, schedulingGates, skipHint } from './fixtures.ts';

const NAMES = ['a', 'b', 'c', 'd', 'e'];

/** The naive model: where each pod is, as the scheduler's loop and informer would know it. */
interface Model {
  /** queued: in some sub-queue; inflight: popped; absent: never added, bound or deleted. */
  state: Map<string, 'queued' | 'inflight' | 'absent'>;
  /** Pods deleted while in flight: their failure is not requeued. */
  deletedInFlight: Set<string>;
  /** The version the informer last reported (labels, gates), for updates. */
  version: Map<string, { gen: number; gated: boolean; priority: number }>;
  /** Popped and not yet finished infos. */
  popped: Map<string, QueuedPodInfo>;
  /** Hints off: the queue keeps no in-flight set (as upstream), so only the sub-queues are checked. */
  tracksInFlight: boolean;
}

interface Real {
  q: PriorityQueue;
  clock: VirtualClock;
}

function podOf(m: Model, name: string) {
  const v = m.version.get(name) ?? { gen: 0, gated: false, priority: 0 };
  return pod(name, { labels: { gen: `${v.gen}` }, gates: v.gated ? ['g'] : undefined, priority: v.priority });
}

function check(m: Model, r: Real): void {
  const { pods } = r.q.pendingPods();
  const queuedNames = pods.map((p) => p.metadata.name!);
  // Never in two sub-queues.
  expect(new Set(queuedNames).size).toBe(queuedNames.length);
  const inFlight = r.q.inFlightPods().map((p) => p.metadata.name!);
  for (const name of NAMES) {
    const s = m.state.get(name) ?? 'absent';
    const where = r.q.whereIs('ns', name);
    if (s === 'queued') {
      expect(where, `${name} is queued`).toBeDefined();
      expect(inFlight).not.toContain(name);
    } else if (s === 'inflight') {
      expect(where, `${name} is in flight`).toBeUndefined();
      if (m.tracksInFlight) expect(inFlight).toContain(name);
    } else {
      expect(where, `${name} is gone`).toBeUndefined();
      expect(inFlight).not.toContain(name);
    }
  }
  // Memory: one entry per pod, and no recorded events once nothing is in flight.
  expect(queuedNames.length + inFlight.length).toBeLessThanOrEqual(NAMES.length);
  if (inFlight.length === 0) expect(r.q.inFlightEventsCount()).toBe(0);
}

type Cmd = fc.Command<Model, Real>;

class Add implements Cmd {
  readonly name: string;
  readonly gated: boolean;
  readonly priority: number;
  constructor(name: string, gated: boolean, priority: number) {
    this.name = name;
    this.gated = gated;
    this.priority = priority;
  }
  check(m: Readonly<Model>) {
    return (m.state.get(this.name) ?? 'absent') === 'absent' && !m.deletedInFlight.has(this.name);
  }
  run(m: Model, r: Real) {
    m.version.set(this.name, {
      gen: (m.version.get(this.name)?.gen ?? 0) + 1,
      gated: this.gated,
      priority: this.priority,
    });
    r.q.add(podOf(m, this.name));
    m.state.set(this.name, 'queued');
    check(m, r);
  }
  toString() {
    return `add(${this.name},gated=${this.gated},prio=${this.priority})`;
  }
}

class Update implements Cmd {
  readonly name: string;
  readonly ungate: boolean;
  constructor(name: string, ungate: boolean) {
    this.name = name;
    this.ungate = ungate;
  }
  check(m: Readonly<Model>) {
    return m.state.get(this.name) === 'queued' || m.state.get(this.name) === 'inflight';
  }
  run(m: Model, r: Real) {
    const old = podOf(m, this.name);
    const v = m.version.get(this.name)!;
    m.version.set(this.name, { ...v, gen: v.gen + 1, gated: this.ungate ? false : v.gated });
    r.q.update(old, podOf(m, this.name));
    check(m, r);
  }
  toString() {
    return `update(${this.name},ungate=${this.ungate})`;
  }
}

class Delete implements Cmd {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  check(m: Readonly<Model>) {
    return m.state.get(this.name) === 'queued' || m.state.get(this.name) === 'inflight';
  }
  run(m: Model, r: Real) {
    r.q.delete(podOf(m, this.name));
    if (m.state.get(this.name) === 'inflight') m.deletedInFlight.add(this.name);
    else m.state.set(this.name, 'absent');
    check(m, r);
  }
  toString() {
    return `delete(${this.name})`;
  }
}

class Pop implements Cmd {
  check() {
    return true;
  }
  run(m: Model, r: Real) {
    const p = r.q.pop();
    if (p) {
      const name = p.pod.metadata.name!;
      // Never popped while in flight, never a pod the queue should not hold.
      expect(m.state.get(name)).toBe('queued');
      m.state.set(name, 'inflight');
      m.popped.set(name, p);
    }
    check(m, r);
  }
  toString() {
    return 'pop';
  }
}

class Finish implements Cmd {
  readonly index: number;
  readonly outcome: 'bound' | 'error' | 'A' | 'B' | 'pending';
  constructor(index: number, outcome: 'bound' | 'error' | 'A' | 'B' | 'pending') {
    this.index = index;
    this.outcome = outcome;
  }
  check(m: Readonly<Model>) {
    return m.popped.size > 0;
  }
  run(m: Model, r: Real) {
    const names = [...m.popped.keys()];
    const name = names[this.index % names.length]!;
    const p = m.popped.get(name)!;
    m.popped.delete(name);
    if (this.outcome === 'bound' || m.deletedInFlight.has(name)) {
      r.q.done(p.uid);
      m.state.set(name, 'absent');
      m.deletedInFlight.delete(name);
    } else {
      p.unschedulablePlugins = new Set(this.outcome === 'A' || this.outcome === 'B' ? [this.outcome] : []);
      p.pendingPlugins = new Set(this.outcome === 'pending' ? ['A'] : []);
      // The failure handler requeues the informer's latest version of the pod.
      p.update(podOf(m, name));
      const err = r.q.addUnschedulableIfNotPresent(p, r.q.schedulingCycle());
      expect(err).toBeUndefined();
      m.state.set(name, 'queued');
    }
    check(m, r);
  }
  toString() {
    return `finish(${this.index},${this.outcome})`;
  }
}

class Event implements Cmd {
  readonly event: ClusterEvent;
  constructor(event: ClusterEvent) {
    this.event = event;
  }
  check() {
    return true;
  }
  run(m: Model, r: Real) {
    r.q.moveAllToActiveOrBackoffQueue(this.event);
    check(m, r);
  }
  toString() {
    return `event(${this.event.label ?? `${this.event.resource}/${this.event.action}`})`;
  }
}

class Activate implements Cmd {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  check() {
    return true;
  }
  run(m: Model, r: Real) {
    r.q.activate([podOf(m, this.name)]);
    check(m, r);
  }
  toString() {
    return `activate(${this.name})`;
  }
}

class Tick implements Cmd {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
  check() {
    return true;
  }
  run(m: Model, r: Real) {
    r.clock.advance(this.ms);
    r.q.flushBackoffQCompleted();
    r.q.flushUnschedulablePodsLeftover();
    check(m, r);
  }
  toString() {
    return `tick(${this.ms})`;
  }
}

const name = fc.constantFrom(...NAMES);
const commands = [
  fc.tuple(name, fc.boolean(), fc.integer({ min: 0, max: 2 })).map(([n, g, p]) => new Add(n, g, p)),
  fc.tuple(name, fc.boolean()).map(([n, u]) => new Update(n, u)),
  name.map((n) => new Delete(n)),
  fc.constant(new Pop()),
  fc.constant(new Pop()),
  fc
    .tuple(
      fc.nat(4),
      fc.constantFrom('bound' as const, 'error' as const, 'A' as const, 'B' as const, 'pending' as const),
    )
    .map(([i, o]) => new Finish(i, o)),
  fc
    .constantFrom<ClusterEvent>(
      EVENT_NODE_ADD,
      { resource: 'Node', action: ActionType.UpdateNodeLabel },
      { resource: 'PersistentVolume', action: ActionType.Add },
      { resource: '*', action: ActionType.All, label: 'UnschedulableTimeout' },
    )
    .map((e) => new Event(e)),
  name.map((n) => new Activate(n)),
  fc.constantFrom(0, 500, 1000, 10_000, 400_000).map((ms) => new Tick(ms)),
];

describe('PriorityQueue model', () => {
  it.each([
    { hints: true, popFromBackoffQ: true },
    { hints: true, popFromBackoffQ: false },
    // Hints off is left out on purpose: as upstream, an update of an in-flight pod then queues a
    // second copy (the later requeue reports "already present in the active queue").
  ])(
    'every pod is in exactly one place, never popped twice, memory bounded by pods (%o)',
    ({ hints, popFromBackoffQ }) => {
      fc.assert(
        fc.property(fc.commands(commands, { maxCommands: 120 }), (cmds) => {
          const { q, clock } = newQueue(
            {
              A: [{ event: EVENT_NODE_ADD, hint: queueHint }],
              B: [
                { event: EVENT_NODE_ADD, hint: skipHint },
                { event: { resource: 'Node', action: ActionType.Update }, hint: queueHint },
              ],
              SchedulingGates: [
                {
                  event: { resource: 'Pod', action: ActionType.UpdatePodSchedulingGatesEliminated },
                  hint: queueHint,
                },
              ],
            },
            {
              preEnqueuePlugins: { 'default-scheduler': [schedulingGates] },
              queueingHintsEnabled: hints,
              popFromBackoffQEnabled: popFromBackoffQ,
            },
          );
          const model: Model = {
            state: new Map(),
            deletedInFlight: new Set(),
            version: new Map(),
            popped: new Map(),
            tracksInFlight: hints,
          };
          fc.modelRun(() => ({ model, real: { q, clock } }), cmds);
        }),
        { numRuns: 150 },
      );
    },
  );

  it('holds one entry per pod however many updates and events arrive', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.nat(1000)), { minLength: 1, maxLength: 300 }),
        (updates) => {
          const { q } = newQueue({ A: [{ event: EVENT_NODE_ADD }] });
          const latest = new Map<string, number>();
          for (const [n, gen] of updates) {
            const before = latest.has(n) ? pod(n, { labels: { gen: `${latest.get(n)}` } }) : undefined;
            q.update(before, pod(n, { labels: { gen: `${gen}` } }));
            q.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
            latest.set(n, gen);
          }
          const { pods } = q.pendingPods();
          expect(pods).toHaveLength(latest.size);
          for (const p of pods) expect(p.metadata.labels?.gen).toBe(`${latest.get(p.metadata.name!)}`);
          expect(q.inFlightEventsCount()).toBe(0);
        },
      ),
    );
  });

  it('a ForceActivate aimed at one pod never moves another', () => {
    fc.assert(
      fc.property(fc.subarray(NAMES, { minLength: 1 }), fc.constantFrom(...NAMES), (rejected, target) => {
        const { q, clock } = newQueue({ B: [{ event: EVENT_NODE_ADD, hint: skipHint }] });
        for (const n of rejected) {
          q.add(pod(n));
          const p = q.pop()!;
          p.unschedulablePlugins = new Set(['B']);
          q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
        }
        clock.advance(20_000);
        q.moveAllToActiveOrBackoffQueue(FORCE_ACTIVATE, undefined, pod(target));
        for (const n of rejected) {
          expect(q.whereIs('ns', n)).toBe(n === target ? 'active' : 'unschedulable');
        }
      }),
    );
  });
});
