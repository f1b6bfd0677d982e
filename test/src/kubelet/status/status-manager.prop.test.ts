// Properties of the status manager against an in-memory API: terminal phases never regress, and the API ends with the latest status.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { ApiError } from '../../../../operators/errors.ts';
import { statusManager } from '../../../../src/kubelet/status/status-manager.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { FakePodApi } from './fake-pod-api.ts';

type Op =
  | { op: 'set'; phase: string; message: string }
  | { op: 'terminate' }
  | { op: 'turn' }
  | { op: 'tick' }
  | { op: 'conflict' }
  | { op: 'getFails' };

const arbOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('set' as const),
      phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed'),
      message: fc.constantFrom('a', 'b', 'c'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'terminate' as const }) },
  { weight: 3, arbitrary: fc.constant({ op: 'turn' as const }) },
  { weight: 2, arbitrary: fc.constant({ op: 'tick' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'conflict' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'getFails' as const }) },
);

const terminal = (phase: string | undefined) => phase === 'Succeeded' || phase === 'Failed';

describe('statusManager (properties)', () => {
  it('the API never sees a terminal phase followed by a non-terminal one, and ends with the latest status', () => {
    fc.assert(
      fc.property(fc.array(arbOp, { maxLength: 40 }), (ops) => {
        const clock = new VirtualClock();
        const api = new FakePodApi();
        const pod: Pod = {
          metadata: { uid: 'u', name: 'p', namespace: 'ns' },
          spec: { containers: [{ name: 'c' }] },
          status: {},
        };
        api.put(pod);
        const manager = statusManager({ client: api.client, scheduler: clock.scheduler });
        const sub = manager.run().subscribe();
        // the naive model: the phase and message the kubelet last meant
        let phase: string | undefined;
        let message: string | undefined;
        for (const o of ops) {
          switch (o.op) {
            case 'set':
              manager.setPodStatus(pod, { phase: o.phase, message: o.message });
              phase = terminal(phase) && !terminal(o.phase) ? phase : o.phase;
              message = o.message;
              break;
            case 'terminate':
              manager.terminatePod(pod);
              if (!terminal(phase)) phase = 'Failed';
              break;
            case 'turn':
              clock.advance(0);
              break;
            case 'tick':
              clock.advance(10_000);
              break;
            case 'conflict':
              api.conflictOnNextPatch(1);
              break;
            case 'getFails':
              api.faults.get.push(new ApiError(503, { kind: 'Status', code: 503, message: 'unavailable' }));
              break;
          }
        }
        api.faults.get.length = 0;
        api.faults.patch.length = 0;
        clock.advance(0);
        clock.advance(10_000);
        sub.unsubscribe();

        const history = api.phaseHistory.get('ns/p') ?? [];
        const firstTerminal = history.findIndex(terminal);
        if (firstTerminal >= 0) expect(history.slice(firstTerminal).every(terminal)).toBe(true);
        const cached = manager.getPodStatus('u');
        expect(cached?.phase).toBe(phase);
        if (phase === undefined) return;
        const stored = api.pods.get('ns/p')?.status;
        expect(stored?.phase).toBe(phase);
        expect(stored?.message).toBe(message);
        expect(stored?.startTime).toBe(cached?.startTime);
      }),
      { numRuns: 300 },
    );
  });

  it('whatever the order of statuses set in one turn, one sync writes only the last', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 10 }), (messages) => {
        const clock = new VirtualClock();
        const api = new FakePodApi();
        const pod: Pod = {
          metadata: { uid: 'u', name: 'p', namespace: 'ns' },
          spec: { containers: [] },
          status: {},
        };
        api.put(pod);
        const manager = statusManager({ client: api.client, scheduler: clock.scheduler });
        const sub = manager.run().subscribe();
        for (const m of messages) manager.setPodStatus(pod, { phase: 'Running', message: m });
        clock.advance(0);
        sub.unsubscribe();
        expect(api.count('patch')).toBe(1);
        expect(api.pods.get('ns/p')?.status?.message).toBe(messages.at(-1));
      }),
    );
  });
});
