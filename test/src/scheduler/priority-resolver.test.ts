// priorityResolver: the Priority admission plugin's rules for a pod's spec.priority and preemptionPolicy.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import {
  type PriorityClass,
  priorityResolver,
  SYSTEM_PRIORITY_CLASSES,
} from '../../../src/scheduler/priority-resolver.ts';

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
  metadata: { name },
  value,
  ...extra,
});
const pod = (priorityClassName?: string, priority = 0): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: {
    containers: [],
    priority,
    preemptionPolicy: 'PreemptLowerPriority',
    ...(priorityClassName ? { priorityClassName } : {}),
  },
});

describe('priorityResolver', () => {
  const classes = [
    ...SYSTEM_PRIORITY_CLASSES,
    pc('high', 1000),
    pc('never', 50, { preemptionPolicy: 'Never' }),
    pc('default', 7, { globalDefault: true }),
  ];
  const resolve = priorityResolver(() => classes);

  it.each([
    ['a named class', pod('high'), 1000, 'PreemptLowerPriority'],
    ['a system class', pod('system-node-critical'), 2000001000, 'PreemptLowerPriority'],
    ['a class with preemptionPolicy Never', pod('never'), 50, 'Never'],
    ['no class: the global default', pod(), 7, 'PreemptLowerPriority'],
    ['an unknown class: the pod’s own value', pod('missing', 3), 3, 'PreemptLowerPriority'],
  ])('%s', (_name, input, priority, policy) => {
    const out = resolve(input);
    expect(out.spec.priority).toBe(priority);
    expect(out.spec.preemptionPolicy).toBe(policy);
  });

  it('returns the same object when nothing changes, and remembers results per object', () => {
    const p = pod('high', 1000);
    expect(resolve(p)).toBe(p);
    const q = pod('high');
    expect(resolve(q)).toBe(resolve(q));
    expect(q.spec.priority).toBe(0);
  });

  it('leaves pods alone when there are no classes', () => {
    const none = priorityResolver(() => []);
    const p = pod('high');
    expect(none(p)).toBe(p);
  });
});
