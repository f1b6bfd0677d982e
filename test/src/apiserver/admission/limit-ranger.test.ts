// LimitRanger: container defaults from LimitRanges and their min, max and ratio in upstream's words (upstream's admission_test cases).
import { describe, expect, it } from 'vitest';
import { pod, refusal, registryFixture } from './registry-fixture.ts';

const limitRange = (item: object) => ({
  metadata: { name: 'lr' },
  spec: { limits: [{ type: 'Container', ...item }] },
});
type Resources = { requests?: Record<string, string>; limits?: Record<string, string> };
const resourcesOf = (o: object, i = 0) =>
  (o as { spec: { containers: { resources: Resources }[] } }).spec.containers[i]!.resources;

describe('LimitRanger', () => {
  it.each([
    [
      'default and defaultRequest fill an empty container',
      { default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } },
      {},
      { requests: { cpu: '100m' }, limits: { cpu: '500m' } },
    ],
    [
      'defaultRequest defaults to default',
      { default: { memory: '1Gi' } },
      {},
      { requests: { memory: '1Gi' }, limits: { memory: '1Gi' } },
    ],
    ['default defaults to max', { max: { cpu: '2' } }, {}, { requests: { cpu: '2' }, limits: { cpu: '2' } }],
    [
      "a container's own values are kept",
      { default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } },
      { requests: { cpu: '200m' }, limits: { cpu: '300m' } },
      { requests: { cpu: '200m' }, limits: { cpu: '300m' } },
    ],
    [
      "a request defaults to the container's own limit",
      { default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } },
      { limits: { cpu: '300m' } },
      { requests: { cpu: '300m' }, limits: { cpu: '300m' } },
    ],
  ])('%s', (_name, item, resources, expected) => {
    const { create } = registryFixture();
    create('limitranges', 'default', limitRange(item));
    expect(resourcesOf(create('pods', 'default', pod('p', { c: resources })))).toEqual(expected);
  });

  it('records what it set in the kubernetes.io/limit-ranger annotation', () => {
    const { create } = registryFixture();
    create('limitranges', 'default', limitRange({ default: { cpu: '1' } }));
    const created = create('pods', 'default', pod('p', { nginx: {} }));
    expect(created.metadata?.annotations?.['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu request for container nginx; cpu limit for container nginx',
    );
  });

  it.each([
    [
      'a request under min',
      { min: { cpu: '100m' } },
      { requests: { cpu: '50m' } },
      'minimum cpu usage per Container is 100m, but request is 50m',
    ],
    [
      'a limit over max',
      { max: { memory: '1Gi' } },
      { requests: { memory: '1Gi' }, limits: { memory: '2Gi' } },
      'maximum memory usage per Container is 1Gi, but limit is 2Gi',
    ],
    [
      'a limit to request ratio over maxLimitRequestRatio',
      { maxLimitRequestRatio: { cpu: '2' } },
      { requests: { cpu: '100m' }, limits: { cpu: '500m' } },
      'cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000',
    ],
  ])('refuses %s', (_name, item, resources, why) => {
    const { create } = registryFixture();
    create('limitranges', 'default', limitRange(item));
    expect(refusal(() => create('pods', 'default', pod('p', { c: resources })))).toEqual({
      code: 403,
      message: `pods "p" is forbidden: ${why}`,
    });
  });

  it('lists every violation at once', () => {
    const { create } = registryFixture();
    create('limitranges', 'default', limitRange({ min: { cpu: '100m', memory: '10Mi' } }));
    expect(
      refusal(() => create('pods', 'default', pod('p', { c: { requests: { cpu: '1m', memory: '1Mi' } } })))
        ?.message,
    ).toBe(
      'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 1m, minimum memory usage per Container is 10Mi, but request is 1Mi]',
    );
  });

  it('accepts a pod within the range and ignores other namespaces', () => {
    const { create } = registryFixture();
    create('namespaces', undefined, { metadata: { name: 'other' } });
    create('limitranges', 'other', limitRange({ max: { cpu: '1' } }));
    expect(resourcesOf(create('pods', 'default', pod('p', { c: { limits: { cpu: '4' } } })))).toEqual({
      limits: { cpu: '4' },
    });
  });
});
