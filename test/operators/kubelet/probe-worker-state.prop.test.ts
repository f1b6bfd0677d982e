// Property: a probe worker sets a result only after `threshold` consecutive equal results, and then on each further one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_PROBE_WORKER_STATE,
  type ProbeResult,
  type ProbeType,
  type ProbeWorkerState,
  probeWorkerRecord,
} from '../../../operators/kubelet/probe-worker-state.ts';

describe('probeWorkerRecord thresholds (property)', () => {
  it('readiness: result i is set exactly when the run of equal results ending at i reaches its threshold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<ProbeResult>('Success', 'Failure'), { maxLength: 60 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        (results, successThreshold, failureThreshold) => {
          let state: ProbeWorkerState = { ...INITIAL_PROBE_WORKER_STATE, containerId: 'x' };
          let run = 0;
          results.forEach((r, i) => {
            run = i > 0 && results[i - 1] === r ? run + 1 : 1;
            const out = probeWorkerRecord(state, 'readiness', { successThreshold, failureThreshold }, r);
            state = out.state;
            const threshold = r === 'Success' ? successThreshold : failureThreshold;
            expect(out.set?.result).toBe(run >= threshold ? r : undefined);
          });
        },
      ),
    );
  });

  it('liveness/startup: after a failure counts, the next failure needs a whole new run', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ProbeType>('liveness', 'startup'),
        fc.array(fc.constantFrom<ProbeResult>('Success', 'Failure'), { maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        (type, results, failureThreshold) => {
          let state: ProbeWorkerState = { ...INITIAL_PROBE_WORKER_STATE, containerId: 'x' };
          let failuresSinceSet = 0;
          for (const r of results) {
            const out = probeWorkerRecord(state, type, { failureThreshold }, r);
            state = out.state;
            failuresSinceSet = r === 'Failure' ? failuresSinceSet + 1 : 0;
            if (out.set?.result === 'Failure') {
              expect(failuresSinceSet).toBe(failureThreshold);
              expect(state.onHold).toBe(true);
              failuresSinceSet = 0;
            }
          }
        },
      ),
    );
  });
});
