// DefaultTolerationSeconds: the not-ready and unreachable NoExecute tolerations added unless the pod has its own (upstream's admission_test cases).
import { describe, expect, it } from 'vitest';
import { defaultTolerationSeconds } from '../../../../src/apiserver/admission/default-toleration-seconds.ts';
import { registryFixture } from './registry-fixture.ts';

const NOT_READY = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const UNREACHABLE = {
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};

describe('DefaultTolerationSeconds', () => {
  const { def } = registryFixture();
  const admit = (tolerations: object[] | undefined) => {
    const object = { metadata: { name: 'p' }, spec: tolerations ? { tolerations } : {} };
    defaultTolerationSeconds().admit!(
      { operation: 'CREATE', def: def('pods'), namespace: 'default', name: 'p', object },
      undefined as never,
    );
    return (object.spec as { tolerations: object[] }).tolerations;
  };

  it.each([
    ['a pod with no tolerations gets both', undefined, [NOT_READY, UNREACHABLE]],
    [
      'unrelated tolerations are kept and both added',
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }],
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }, NOT_READY, UNREACHABLE],
    ],
    [
      'its own not-ready toleration stays, only unreachable is added',
      [{ ...NOT_READY, tolerationSeconds: 700 }],
      [{ ...NOT_READY, tolerationSeconds: 700 }, UNREACHABLE],
    ],
    [
      'its own unreachable toleration stays, only not-ready is added',
      [{ ...UNREACHABLE, tolerationSeconds: 700 }],
      [{ ...UNREACHABLE, tolerationSeconds: 700 }, NOT_READY],
    ],
    [
      'both its own: nothing added',
      [
        { ...NOT_READY, tolerationSeconds: 1 },
        { ...UNREACHABLE, tolerationSeconds: 1 },
      ],
      [
        { ...NOT_READY, tolerationSeconds: 1 },
        { ...UNREACHABLE, tolerationSeconds: 1 },
      ],
    ],
    ['a toleration of every taint: nothing added', [{ operator: 'Exists' }], [{ operator: 'Exists' }]],
    [
      'a key toleration with no effect covers NoExecute: nothing added for it',
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }],
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, UNREACHABLE],
    ],
    [
      'a NoSchedule toleration of the same key does not cover NoExecute',
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
        NOT_READY,
        UNREACHABLE,
      ],
    ],
  ])('%s', (_name, tolerations, expected) => {
    expect(admit(tolerations as object[] | undefined)).toEqual(expected);
  });

  it('leaves other resources and updates alone', () => {
    const object = { metadata: { name: 'x' }, spec: {} };
    const plugin = defaultTolerationSeconds();
    plugin.admit!(
      { operation: 'CREATE', def: def('services'), namespace: 'default', name: 'x', object },
      undefined as never,
    );
    plugin.admit!(
      { operation: 'UPDATE', def: def('pods'), namespace: 'default', name: 'x', object },
      undefined as never,
    );
    expect(object.spec).toEqual({});
  });
});
