// Benchmark of the scheduling queue: add+pop of 10,000 pods, failures and a node event over 10,000 unschedulable pods.
import { performance } from 'node:perf_hooks';
import { VirtualTimeScheduler } from 'rxjs';
import type { Pod } from '../operators/api/core-v1.ts';
import { ActionType } from '../operators/scheduling/framework/interface.ts';
import { EVENT_NODE_ADD } from '../operators/scheduling/queue/cluster-events.ts';
import { KeyedHeap } from '../operators/scheduling/queue/keyed-heap.ts';
import { PriorityQueue, prioritySortLess } from '../operators/scheduling/queue/priority-queue.ts';
import { QueuedPodInfo } from '../operators/scheduling/queue/queued-pod-info.ts';

const N = 10_000;
const REPS = 5;

function makePods(n: number): Pod[] {
  return Array.from({ length: n }, (_, i) => ({
    metadata: { name: `pod-${i}`, namespace: 'bench', uid: `uid-${i}`, labels: { app: `a${i % 10}` } },
    spec: {
      containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
      priority: (i * 7919) % 10,
    },
  }));
}

function newQueue(clock: VirtualTimeScheduler): PriorityQueue {
  return new PriorityQueue({
    scheduler: clock,
    queueingHints: {
      'default-scheduler': {
        NodeResourcesFit: [{ event: EVENT_NODE_ADD, hint: () => 'Queue' }],
        TaintToleration: [
          { event: { resource: 'Node', action: ActionType.UpdateNodeTaint }, hint: () => 'QueueSkip' },
        ],
      },
    },
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')}/s`;

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

const pods = makePods(N);
const results: Record<string, number[]> = { heap: [], addPop: [], interleaved: [], requeue: [], moveAll: [] };
let peakHeap = 0;

for (let rep = 0; rep < REPS; rep++) {
  // Peer: the bare heap with the same order, no queue bookkeeping.
  results.heap!.push(
    time(() => {
      const h = new KeyedHeap<QueuedPodInfo>((p) => p.pod.metadata.name!, prioritySortLess);
      for (let i = 0; i < N; i++) h.addOrUpdate(new QueuedPodInfo(pods[i]!, i));
      while (h.pop());
    }),
  );

  const clock = new VirtualTimeScheduler();
  const q = newQueue(clock);
  results.addPop!.push(
    time(() => {
      for (const p of pods) q.add(p);
      for (let p = q.pop(); p; p = q.pop()) q.done(p.uid);
    }),
  );

  const q2 = newQueue(new VirtualTimeScheduler());
  results.interleaved!.push(
    time(() => {
      for (const p of pods) {
        q2.add(p);
        const got = q2.pop();
        if (got) q2.done(got.uid);
      }
    }),
  );

  // Every pod fails (rejected by NodeResourcesFit), then one node event requeues them all.
  const clock3 = new VirtualTimeScheduler();
  const q3 = newQueue(clock3);
  for (const p of pods) q3.add(p);
  const popped: QueuedPodInfo[] = [];
  for (let p = q3.pop(); p; p = q3.pop()) popped.push(p);
  results.requeue!.push(
    time(() => {
      for (const p of popped) {
        p.unschedulablePlugins = new Set(['NodeResourcesFit']);
        q3.addUnschedulableIfNotPresent(p, q3.schedulingCycle());
      }
    }),
  );
  clock3.frame = 20_000;
  results.moveAll!.push(time(() => q3.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD)));
  if (q3.podsInActiveQ().length !== N) throw new Error(`expected ${N} pods in activeQ after the node event`);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}

const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)])) as Record<
  string,
  number
>;
console.log(`scheduling queue, ${N.toLocaleString('en-US')} pods, median of ${REPS}:`);
console.log(`  bare heap add+pop (peer):       ${m.heap!.toFixed(1)} ms  ${rate(N, m.heap!)}`);
console.log(
  `  queue add all, then pop+done:   ${m.addPop!.toFixed(1)} ms  ${rate(N, m.addPop!)}  (x${(m.heap! / m.addPop!).toFixed(2)} of the bare heap)`,
);
console.log(`  queue add, pop, done in turn:   ${m.interleaved!.toFixed(1)} ms  ${rate(N, m.interleaved!)}`);
console.log(`  requeue as unschedulable:       ${m.requeue!.toFixed(1)} ms  ${rate(N, m.requeue!)}`);
console.log(`  one NodeAdd moving every pod:   ${m.moveAll!.toFixed(1)} ms  ${rate(N, m.moveAll!)}`);
console.log(`  peak heap used: ${(peakHeap / 1024 / 1024).toFixed(1)} MiB`);
