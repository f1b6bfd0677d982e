// Priority admission: spec.priority from the class or the global default, unknown classes refused, PriorityClass rules (upstream's admission_test cases).
import { describe, expect, it } from 'vitest';
import { pod, refusal, registryFixture } from './registry-fixture.ts';

const PC = 'scheduling.k8s.io/priorityclasses';
const pc = (name: string, value: number, extra: object = {}) => ({ metadata: { name }, value, ...extra });
type Spec = { priority?: number; priorityClassName?: string; preemptionPolicy?: string };

describe('Priority admission', () => {
  it.each([
    ['system-node-critical', 2_000_001_000],
    ['system-cluster-critical', 2_000_000_000],
  ])('%s exists from the start with value %d', (name, value) => {
    const { get } = registryFixture();
    expect((get(PC, undefined, name) as unknown as { value: number }).value).toBe(value);
  });

  it.each([
    ['no class and no default: 0', [], {}, { priority: 0 }],
    [
      'no class: the global default',
      [pc('low', 10, { globalDefault: true }), pc('high', 100)],
      {},
      { priority: 10, priorityClassName: 'low' },
    ],
    [
      'a named class',
      [pc('high', 100)],
      { priorityClassName: 'high' },
      { priority: 100, priorityClassName: 'high' },
    ],
    [
      'a named class over the default',
      [pc('low', 10, { globalDefault: true }), pc('high', 100)],
      { priorityClassName: 'high' },
      { priority: 100 },
    ],
    ['a system class', [], { priorityClassName: 'system-node-critical' }, { priority: 2_000_001_000 }],
    [
      'the class preemption policy',
      [pc('np', 5, { preemptionPolicy: 'Never' })],
      { priorityClassName: 'np' },
      { priority: 5, preemptionPolicy: 'Never' },
    ],
  ])('%s', (_name, classes, podSpec, expected) => {
    const { create } = registryFixture();
    for (const c of classes) create(PC, undefined, c);
    const created = create('pods', 'default', pod('p', { c: {} }, podSpec));
    expect(created.spec as Spec).toMatchObject(expected);
  });

  it('refuses a pod naming an unknown class', () => {
    const { create } = registryFixture();
    expect(
      refusal(() => create('pods', 'default', pod('p', { c: {} }, { priorityClassName: 'nope' }))),
    ).toEqual({
      code: 403,
      message: 'pods "p" is forbidden: no PriorityClass with name nope was found',
    });
  });

  it('refuses a pod whose priority disagrees with its class', () => {
    const { create } = registryFixture();
    create(PC, undefined, pc('high', 100));
    expect(
      refusal(() =>
        create('pods', 'default', pod('p', { c: {} }, { priorityClassName: 'high', priority: 7 })),
      )?.message,
    ).toBe(
      'pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 100 from the given PriorityClass name',
    );
  });

  it.each([
    [
      'a second global default',
      [pc('a', 1, { globalDefault: true })],
      pc('b', 2, { globalDefault: true }),
      'priorityclasses "b" is forbidden: PriorityClass a is already marked as default. Only one default can exist',
    ],
    [
      'a reserved system- name',
      [],
      pc('system-mine', 10),
      `priorityclasses "system-mine" is forbidden: priority class names with 'system-' prefix are reserved`,
    ],
    [
      'a value above the user maximum',
      [],
      pc('huge', 1_000_000_001),
      'priorityclasses "huge" is forbidden: maximum allowed value of a user defined priority is 1000000000',
    ],
  ])('refuses %s', (_name, before, created, message) => {
    const { create } = registryFixture();
    for (const c of before) create(PC, undefined, c);
    expect(refusal(() => create(PC, undefined, created))).toEqual({ code: 403, message });
  });
});
