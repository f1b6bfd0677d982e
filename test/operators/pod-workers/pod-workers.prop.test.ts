// Pod workers contract: for any interleaving of updates, kills and sync failures, each pod's worker sees a subsequence of its updates ending in the latest, one sync at a time, and grace periods never grow.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { PodWorkers } from '../../../operators/pod-workers/pod-workers.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { fakeSyncer, testPod } from './fake-syncer.ts';

type Command =
  | { type: 'update'; pod: number; deleted: boolean; deletionGrace: number }
  | { type: 'kill'; pod: number; grace: number }
  | { type: 'settle'; pick: number; outcome: 'ok' | 'terminal' | 'fail' };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    type: fc.constant('update' as const),
    pod: fc.nat(2),
    deleted: fc.boolean(),
    deletionGrace: fc.integer({ min: 0, max: 40 }),
  }),
  fc.record({ type: fc.constant('kill' as const), pod: fc.nat(2), grace: fc.integer({ min: 0, max: 40 }) }),
  fc.record({
    type: fc.constant('settle' as const),
    pick: fc.nat(5),
    outcome: fc.constantFrom('ok' as const, 'terminal' as const, 'fail' as const),
  }),
);

const version = (pod: Pod | undefined) => Number(pod?.metadata.labels?.v ?? -1);

describe('PodWorkers (properties)', () => {
  it('sees a subsequence of each pod’s updates, each phase ending in the latest, one call at a time, grace never growing', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        const clock = new VirtualClock();
        const syncer = fakeSyncer();
        const workers = new PodWorkers(syncer, { scheduler: clock.scheduler, random: () => 0.5 });
        const sent = new Map<string, number[]>();
        let next = 0;
        const send = (
          index: number,
          make: (pod: Pod) => Pod,
          updateType: 'update' | 'kill',
          grace?: number,
        ) => {
          const uid = `u${index}`;
          if (workers.shouldPodBeFinished(uid)) return;
          const pod = make(testPod(uid, `p${index}`, 'ns', { grace: 30 }));
          pod.metadata.labels = { v: String(next++) };
          sent.set(uid, [...(sent.get(uid) ?? []), version(pod)]);
          workers.updatePod({
            updateType,
            pod,
            ...(grace !== undefined
              ? { killPodOptions: { podTerminationGracePeriodSecondsOverride: grace } }
              : {}),
          });
        };
        const latestAtStart = new Map<object, number>();
        const annotate = () => {
          for (const call of syncer.calls) {
            if (!latestAtStart.has(call)) latestAtStart.set(call, sent.get(call.uid)?.at(-1) ?? -1);
          }
        };
        for (const c of commands) {
          annotate();
          if (c.type === 'update') {
            send(
              c.pod,
              (p) =>
                c.deleted
                  ? {
                      ...p,
                      metadata: {
                        ...p.metadata,
                        deletionTimestamp: 'x',
                        deletionGracePeriodSeconds: c.deletionGrace,
                      },
                    }
                  : p,
              'update',
            );
          } else if (c.type === 'kill') {
            send(c.pod, (p) => p, 'kill', c.grace);
          } else {
            const open = syncer.open();
            const call = open[c.pick % Math.max(1, open.length)];
            if (!call) continue;
            if (c.outcome === 'fail') call.reject(new Error('runtime failure'));
            else call.resolve(c.outcome === 'terminal');
          }
        }
        annotate();
        // drain: settle every open call successfully until nothing runs
        for (let guard = 0; guard < 100 && syncer.open().length > 0; guard++) {
          for (const call of syncer.open()) call.resolve(false);
          annotate();
        }
        expect(syncer.open()).toEqual([]);
        expect(syncer.maxConcurrentPerPod).toBeLessThanOrEqual(1);
        for (const [uid, versions] of sent) {
          const seen = syncer.calls.filter((c) => c.uid === uid).map((c) => version(c.pod));
          // a subsequence, in order (a version may be seen again by a later phase)
          let i = 0;
          for (const v of seen) {
            while (i < versions.length && versions[i] !== v) i++;
            expect(i).toBeLessThan(versions.length);
          }
          const calls = syncer.calls.filter((c) => c.uid === uid);
          const last = calls.at(-1);
          if (last) expect(version(last.pod)).toBe(latestAtStart.get(last));
          if (!workers.shouldPodBeFinished(uid)) expect(seen.at(-1)).toBe(versions.at(-1));
          const graces = syncer.calls
            .filter((c) => c.uid === uid && c.kind === 'terminating')
            .map((c) => c.gracePeriod ?? 0);
          for (let k = 1; k < graces.length; k++) expect(graces[k]).toBeLessThanOrEqual(graces[k - 1] ?? 0);
        }
        expect(workers.size).toBeLessThanOrEqual(3);
      }),
      { numRuns: 300 },
    );
  });
});
