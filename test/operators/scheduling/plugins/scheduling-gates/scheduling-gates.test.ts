// SchedulingGates tests ported in our own words from scheduling_gates_test.go.
import { describe, expect, it } from 'vitest';
import { ActionType } from '../../../../../operators/scheduling/framework/interface.ts';
import {
  isSchedulableAfterUpdatePodSchedulingGatesEliminated,
  SchedulingGates,
} from '../../../../../operators/scheduling/plugins/scheduling-gates/scheduling-gates.ts';
import { makePod } from '../../framework/fixtures.ts';

describe('SchedulingGates', () => {
  it.each<[string, string[] | undefined, string | undefined]>([
    ['no scheduling gates', undefined, undefined],
    ['an empty list of gates', [], undefined],
    ['with scheduling gates', ['foo', 'bar'], 'waiting for scheduling gates: [foo bar]'],
  ])('%s', (_name, gates, want) => {
    const pod = makePod('p', gates ? { spec: { schedulingGates: gates.map((name) => ({ name })) } } : {});
    const s = new SchedulingGates().preEnqueue(pod);
    if (want === undefined) expect(s).toBeUndefined();
    else expect(s).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [want] });
  });

  it('only the gated pod’s own update queues it', () => {
    const pod = makePod('p');
    expect(isSchedulableAfterUpdatePodSchedulingGatesEliminated(pod, pod, pod)).toBe('Queue');
    expect(isSchedulableAfterUpdatePodSchedulingGatesEliminated(pod, undefined, makePod('q'))).toBe(
      'QueueSkip',
    );
    expect(new SchedulingGates().eventsToRegister()[0]!.event).toEqual({
      resource: 'Pod',
      action: ActionType.UpdatePodSchedulingGatesEliminated,
    });
  });
});
