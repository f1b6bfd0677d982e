// Properties of running probe workers in virtual time: a result is published only after `threshold` equal results in a row, and only when it changes.
import fc from 'fast-check';
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod, PodStatus } from '../../../../operators/api/core-v1.ts';
import type { ProbeResult } from '../../../../operators/kubelet/probe-worker-state.ts';
import { type ProbeUpdate, proberManager } from '../../../../src/kubelet/prober/prober-manager.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';

describe('probe workers (property)', () => {
  it('readiness: publishes a result only after its threshold of equal results, and only on change', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<ProbeResult>('Success', 'Failure'), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 30 }),
        (answers, successThreshold, failureThreshold, periodSeconds) => {
          const clock = new VirtualClock();
          const status: PodStatus = {
            phase: 'Running',
            containerStatuses: [
              {
                name: 'c',
                ready: false,
                restartCount: 0,
                image: '',
                imageID: '',
                containerID: 'test://c',
                started: true,
                state: { running: { startedAt: new Date(clock.now()).toISOString() } },
              },
            ],
          };
          const script = [...answers];
          const manager = proberManager({
            getPodStatus: () => status,
            prober: () => of(script.length > 1 ? script.shift()! : script[0]!),
            scheduler: clock.scheduler,
          });
          const updates: ProbeUpdate[] = [];
          manager.results$.subscribe((u) => updates.push(u));
          const pod: Pod = {
            metadata: { uid: 'u', name: 'p', namespace: 'ns' },
            spec: {
              containers: [
                { name: 'c', readinessProbe: { periodSeconds, successThreshold, failureThreshold } },
              ],
            },
          };
          manager.addPod(pod);
          clock.advance((answers.length - 1) * periodSeconds * 1000);
          manager.stop();

          // the model: the initial Failure, then each answer that completes a run of its threshold and differs
          const expected: ProbeResult[] = ['Failure'];
          let run = 0;
          answers.forEach((a, i) => {
            run = i > 0 && answers[i - 1] === a ? run + 1 : 1;
            const threshold = a === 'Success' ? successThreshold : failureThreshold;
            if (run >= threshold && expected.at(-1) !== a) expected.push(a);
          });
          expect(updates.map((u) => u.result)).toEqual(expected);
          expect(clock.pending).toBe(0);
        },
      ),
    );
  });
});
