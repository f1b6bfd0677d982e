// Property: for any interleaving of creates, updates, kills, runtime failures and time, a killed pod ends with no running container, one sync at a time per pod, grace never growing (pod workers + runtime manager + simulated runtime, virtual time).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { CrashLoopBackOff } from '../../../operators/kubelet/crash-loop-backoff.ts';
import { PodWorkers } from '../../../operators/pod-workers/pod-workers.ts';
import type { PodSyncer } from '../../../operators/pod-workers/types.ts';
import type { KubeObjectReader } from '../../../src/kubelet/kube-objects.ts';
import { kubeRuntimeManager } from '../../../src/kubelet/kuberuntime/kuberuntime-manager.ts';
import { podVolumes } from '../../../src/kubelet/volumes/pod-volumes.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { SIMULATED, simulatedRuntime } from '../../../streams/runtimes/simulated/simulated-runtime.ts';

type Command =
  | { type: 'create'; pod: number; script: number; termSeconds: number }
  | { type: 'update'; pod: number }
  | { type: 'kill'; pod: number; grace: number }
  | { type: 'fail' }
  | { type: 'advance'; ms: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    type: fc.constant('create' as const),
    pod: fc.nat(3),
    script: fc.nat(3),
    termSeconds: fc.nat(20),
  }),
  fc.record({ type: fc.constant('update' as const), pod: fc.nat(3) }),
  fc.record({ type: fc.constant('kill' as const), pod: fc.nat(3), grace: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ type: fc.constant('fail' as const) }),
  fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 15_000 }) }),
);

const SCRIPTS = [['sleep', '3'], ['false'], ['server'], ['sh', '-c', 'sleep 1; exit 2']];
const reader: KubeObjectReader = { configMap: async () => undefined, secret: async () => undefined };
const settle = async () => {
  for (let i = 0; i < 4; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('kubelet kill (property)', () => {
  it('leaves no running container for a killed pod, whatever came before', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-rx-kill-prop-'));
    let created = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
          const clock = new VirtualClock();
          const runtime = simulatedRuntime({ scheduler: clock.scheduler, logs: 'none' });
          let failNext = false;
          const flaky = Object.create(runtime) as typeof runtime;
          flaky.createContainer = async (...args) => {
            if (failNext) {
              failNext = false;
              throw new Error('injected runtime failure');
            }
            created++;
            return runtime.createContainer(...args);
          };
          const krm = kubeRuntimeManager({
            runtime: flaky,
            podLogsDir: join(dir, 'logs'),
            volumes: podVolumes({ rootDir: dir, reader }),
            reader,
            recordEvent: () => undefined,
            node: () => ({}),
            backOff: new CrashLoopBackOff(),
            now: () => clock.now(),
          });
          const running = new Map<string, number>();
          let overlap = false;
          const graces = new Map<string, number[]>();
          const guard = async <T>(uid: string, work: () => Promise<T>): Promise<T> => {
            running.set(uid, (running.get(uid) ?? 0) + 1);
            if ((running.get(uid) ?? 0) > 1) overlap = true;
            try {
              return await work();
            } finally {
              running.set(uid, (running.get(uid) ?? 1) - 1);
            }
          };
          const ref = (pod: Pod) => ({
            uid: pod.metadata.uid ?? '',
            name: pod.metadata.name ?? '',
            namespace: 'ns',
          });
          const syncer: PodSyncer = {
            syncPod: (signal, _type, pod) =>
              guard(ref(pod).uid, async () => {
                await krm.syncPod(pod, await krm.getPodStatus(ref(pod).uid, ref(pod).name, 'ns'), signal);
                return false;
              }),
            syncTerminatingPod: (_signal, pod, grace) =>
              guard(ref(pod).uid, async () => {
                graces.set(ref(pod).uid, [...(graces.get(ref(pod).uid) ?? []), grace]);
                await krm.killPod(pod, ref(pod), grace);
              }),
            syncTerminatingRuntimePod: (_signal, pod) => guard(pod.uid, () => krm.killPod(undefined, pod, 1)),
            syncTerminatedPod: (_signal, pod) => guard(ref(pod).uid, async () => undefined),
          };
          const workers = new PodWorkers(syncer, { scheduler: clock.scheduler, random: () => 0.5 });
          const pods = new Map<number, Pod>();
          const killed = new Set<string>();
          for (const c of commands) {
            if (c.type === 'create') {
              const pod: Pod = {
                metadata: {
                  uid: `u${c.pod}`,
                  name: `p${c.pod}`,
                  namespace: 'ns',
                  annotations: { [SIMULATED.termSeconds]: String(c.termSeconds) },
                },
                spec: {
                  restartPolicy: 'Always',
                  terminationGracePeriodSeconds: 10,
                  containers: [{ name: 'main', image: 'x', command: SCRIPTS[c.script] }],
                },
              };
              if (!pods.has(c.pod)) pods.set(c.pod, pod);
              workers.updatePod({ updateType: 'create', pod: pods.get(c.pod) as Pod });
            } else if (c.type === 'update') {
              const pod = pods.get(c.pod);
              if (pod) workers.updatePod({ updateType: 'update', pod });
            } else if (c.type === 'kill') {
              const pod = pods.get(c.pod);
              if (pod) {
                killed.add(ref(pod).uid);
                workers.updatePod({
                  updateType: 'kill',
                  pod,
                  killPodOptions: { podTerminationGracePeriodSecondsOverride: c.grace },
                });
              }
            } else if (c.type === 'fail') {
              failNext = true;
            } else {
              await settle();
              clock.advance(c.ms);
            }
            await settle();
            for (const uid of workers.dueWork()) {
              const pod = [...pods.values()].find((p) => p.metadata.uid === uid);
              if (pod) workers.updatePod({ updateType: 'sync', pod });
            }
          }
          // kill everything, then let (virtual) time pass until every worker has finished
          for (const pod of pods.values()) {
            killed.add(ref(pod).uid);
            workers.updatePod({ updateType: 'kill', pod });
          }
          for (let i = 0; i < 80 && [...killed].some((uid) => !workers.shouldPodBeFinished(uid)); i++) {
            await settle();
            clock.advance(1_000);
            for (const uid of workers.dueWork()) {
              const pod = [...pods.values()].find((p) => p.metadata.uid === uid);
              if (pod) workers.updatePod({ updateType: 'sync', pod });
            }
          }
          await settle();
          expect(overlap).toBe(false);
          for (const uid of killed) expect(workers.isPodKnownTerminated(uid)).toBe(true);
          expect(await runtime.listContainers({ state: 'CONTAINER_RUNNING' })).toEqual([]);
          for (const list of graces.values()) {
            for (let k = 1; k < list.length; k++) expect(list[k]).toBeLessThanOrEqual(list[k - 1] ?? 0);
          }
          workers.close();
          await runtime.close();
        }),
        { numRuns: 40 },
      );
      // the property is not vacuous: containers were really created along the way (how many depends on the
      // generated runs: 9 in 40 runs was seen once, so only their presence is asserted)
      expect(created).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
