// ResourceQuota: creates over a quota refused naming it, usage in the quota's status (upstream's admission_test cases).
import { describe, expect, it } from 'vitest';
import { pod, refusal, registryFixture } from './registry-fixture.ts';

const quota = (name: string, hard: Record<string, string>) => ({ metadata: { name }, spec: { hard } });
const statusOf = (o: object) =>
  (o as { status?: { used?: Record<string, string>; hard?: Record<string, string> } }).status;

describe('ResourceQuota admission', () => {
  it('refuses the pod over a pods quota naming the quota, requested, used and limited', () => {
    const { create } = registryFixture();
    create('resourcequotas', 'default', quota('q', { pods: '2' }));
    create('pods', 'default', pod('a'));
    create('pods', 'default', pod('b'));
    expect(refusal(() => create('pods', 'default', pod('c')))).toEqual({
      code: 403,
      message: 'pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    });
  });

  it.each([
    [
      'cpu requests',
      { 'requests.cpu': '1' },
      { requests: { cpu: '600m' } },
      { requests: { cpu: '500m' } },
      'requests.cpu=500m',
      'requests.cpu=600m',
      'requests.cpu=1',
    ],
    [
      'memory limits',
      { 'limits.memory': '1Gi' },
      { limits: { memory: '512Mi' } },
      { limits: { memory: '768Mi' } },
      'limits.memory=768Mi',
      'limits.memory=512Mi',
      'limits.memory=1Gi',
    ],
    [
      'cpu as requests.cpu',
      { cpu: '1' },
      { requests: { cpu: '1' } },
      { requests: { cpu: '1m' } },
      'cpu=1m',
      'cpu=1',
      'cpu=1',
    ],
  ])('counts %s', (_name, hard, first, second, requested, used, limited) => {
    const { create } = registryFixture();
    create('resourcequotas', 'default', quota('compute', hard));
    create('pods', 'default', pod('a', { c: first }));
    expect(refusal(() => create('pods', 'default', pod('b', { c: second })))?.message).toBe(
      `pods "b" is forbidden: exceeded quota: compute, requested: ${requested}, used: ${used}, limited: ${limited}`,
    );
  });

  it('requires containers to declare the compute resources a quota tracks', () => {
    const { create } = registryFixture();
    create('resourcequotas', 'default', quota('compute', { 'limits.cpu': '4', 'requests.memory': '1Gi' }));
    expect(refusal(() => create('pods', 'default', pod('p', { nginx: {} })))?.message).toBe(
      'pods "p" is forbidden: failed quota: compute: must specify limits.cpu for: nginx; requests.memory for: nginx',
    );
  });

  it.each([
    ['configmaps', 'configmaps', { metadata: { name: 'x' } }],
    ['count/configmaps', 'configmaps', { metadata: { name: 'x' } }],
    [
      'count/deployments.apps',
      'apps/deployments',
      {
        metadata: { name: 'x' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      },
    ],
    [
      'services.nodeports',
      'services',
      { metadata: { name: 'x' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } },
    ],
    [
      'persistentvolumeclaims',
      'persistentvolumeclaims',
      {
        metadata: { name: 'x' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ],
  ])('counts %s of other kinds', (name, resource, object) => {
    const { create } = registryFixture();
    create('resourcequotas', 'default', quota('objects', { [name]: '0' }));
    expect(refusal(() => create(resource, 'default', object))?.message).toBe(
      `${resource.split('/').pop()} "x" is forbidden: exceeded quota: objects, requested: ${name}=1, used: ${name}=0, limited: ${name}=0`,
    );
  });

  it.each([
    ['BestEffort counts a pod without resources', { scopes: ['BestEffort'] }, {}, {}, true],
    [
      'BestEffort ignores a pod with requests',
      { scopes: ['BestEffort'] },
      { requests: { cpu: '1m' } },
      {},
      false,
    ],
    [
      'NotBestEffort counts a pod with limits',
      { scopes: ['NotBestEffort'] },
      { limits: { cpu: '1m' } },
      {},
      true,
    ],
    [
      'Terminating counts a pod with a deadline',
      { scopes: ['Terminating'] },
      {},
      { activeDeadlineSeconds: 60 },
      true,
    ],
    ['Terminating ignores a pod without one', { scopes: ['Terminating'] }, {}, {}, false],
    ['NotTerminating counts a pod without one', { scopes: ['NotTerminating'] }, {}, {}, true],
    [
      'PriorityClass In counts a pod of that class',
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      },
      {},
      { priorityClassName: 'high' },
      true,
    ],
    [
      'PriorityClass In ignores a pod of another class',
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      },
      {},
      { priorityClassName: 'low' },
      false,
    ],
    [
      'PriorityClass DoesNotExist counts a pod of no class',
      { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'DoesNotExist' }] } },
      {},
      {},
      true,
    ],
  ])('scope %s', (_name, scope, resources, podSpec, governed) => {
    const { create } = registryFixture();
    for (const name of ['high', 'low'])
      create('scheduling.k8s.io/priorityclasses', undefined, { metadata: { name }, value: 10 });
    create('resourcequotas', 'default', {
      metadata: { name: 'scoped' },
      spec: { hard: { pods: '0' }, ...scope },
    });
    const out = refusal(() => create('pods', 'default', pod('p', { c: resources }, podSpec)));
    expect(out?.message.includes('exceeded quota: scoped') ?? false).toBe(governed);
  });

  it('a scoped quota leaves other kinds alone', () => {
    const { create } = registryFixture();
    create('resourcequotas', 'default', {
      metadata: { name: 'scoped' },
      spec: { hard: { pods: '0' }, scopes: ['BestEffort'] },
    });
    expect(create('configmaps', 'default', { metadata: { name: 'cm' } }).metadata?.name).toBe('cm');
  });

  it('keeps status.hard and status.used current through creates and deletes', () => {
    const { create, get, remove } = registryFixture();
    create('resourcequotas', 'default', quota('q', { pods: '5', 'requests.cpu': '2' }));
    expect(statusOf(get('resourcequotas', 'default', 'q'))).toEqual({
      hard: { pods: '5', 'requests.cpu': '2' },
      used: { pods: '0', 'requests.cpu': '0' },
    });
    create('pods', 'default', pod('a', { c: { requests: { cpu: '250m' } } }));
    create('pods', 'default', pod('b', { c: { requests: { cpu: '1' } } }));
    expect(statusOf(get('resourcequotas', 'default', 'q'))?.used).toEqual({
      pods: '2',
      'requests.cpu': '1250m',
    });
    remove('pods', 'default', 'a');
    expect(statusOf(get('resourcequotas', 'default', 'q'))?.used).toEqual({ pods: '1', 'requests.cpu': '1' });
  });

  it('follows a change of spec.hard and a pod turning terminal in the status', () => {
    const { create, get, registry, def } = registryFixture();
    create('resourcequotas', 'default', quota('q', { pods: '5' }));
    create('pods', 'default', pod('a'));
    const q = get('resourcequotas', 'default', 'q');
    registry.update(
      def('resourcequotas'),
      'default',
      'q',
      { ...q, spec: { hard: { pods: '3' } } },
      undefined,
    );
    expect(statusOf(get('resourcequotas', 'default', 'q'))).toEqual({
      hard: { pods: '3' },
      used: { pods: '1' },
    });
    const a = get('pods', 'default', 'a');
    registry.update(def('pods'), 'default', 'a', { ...a, status: { phase: 'Failed' } }, 'status');
    expect(statusOf(get('resourcequotas', 'default', 'q'))?.used).toEqual({ pods: '0' });
  });

  it('frees the quota of terminal pods and ignores other namespaces', () => {
    const { create, registry, def } = registryFixture();
    create('namespaces', undefined, { metadata: { name: 'other' } });
    create('resourcequotas', 'default', quota('q', { pods: '1' }));
    create('pods', 'other', pod('elsewhere'));
    create('pods', 'default', pod('done'));
    const done = registry.get(def('pods'), 'default', 'done').object;
    registry.update(def('pods'), 'default', 'done', { ...done, status: { phase: 'Succeeded' } }, 'status');
    expect(create('pods', 'default', pod('next')).metadata?.name).toBe('next');
  });

  it('a dry run is checked but counts nothing', () => {
    const { registry, def, create } = registryFixture();
    create('resourcequotas', 'default', quota('q', { pods: '1' }));
    registry.create(def('pods'), 'default', pod('dry'), { dryRun: true });
    expect(create('pods', 'default', pod('real')).metadata?.name).toBe('real');
  });
});
