// Property: over any sequence of node status updates, heartbeats always move and a transition time moves exactly when the status changes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodeCondition } from '../../../operators/api/core-v1.ts';
import {
  observeNodeConditions,
  updateNodeConditions,
} from '../../../operators/kubelet/node-status-conditions.ts';

const arbObservation = fc.record({
  memoryPressure: fc.boolean(),
  diskPressure: fc.boolean(),
  pidPressure: fc.boolean(),
  notReadyErrors: fc.constantFrom<string[]>([], ['runtime down']),
});

describe('updateNodeConditions (property)', () => {
  it('heartbeat = now on every update; transition = the time of the last status change', () => {
    fc.assert(
      fc.property(fc.array(arbObservation, { minLength: 1, maxLength: 30 }), (observations) => {
        let conditions: NodeCondition[] | undefined;
        const changedAt = new Map<string, string>();
        const lastStatus = new Map<string, string>();
        observations.forEach((o, i) => {
          const now = new Date(Date.UTC(2026, 0, 1, 0, 0, i * 10)).toISOString().replace('.000Z', 'Z');
          conditions = updateNodeConditions(conditions, observeNodeConditions(o), now);
          for (const c of conditions) {
            if (lastStatus.get(c.type) !== c.status) changedAt.set(c.type, now);
            lastStatus.set(c.type, c.status);
            expect(c.lastHeartbeatTime).toBe(now);
            expect(c.lastTransitionTime).toBe(changedAt.get(c.type));
          }
          expect(conditions.map((c) => c.type)).toEqual([
            'MemoryPressure',
            'DiskPressure',
            'PIDPressure',
            'Ready',
          ]);
        });
      }),
    );
  });
});
