// quotaStatus, cases after upstream's resource_quota_controller_test.go (TestSyncResourceQuota): usage by scope, terminal pods released, object counts, untouched names at 0.
import { describe, expect, it } from 'vitest';
import {
  quotaStatus,
  quotaStatusEqual,
} from '../../../../operators/controller/resourcequota/quota-status.ts';
import type { QuotaObjectSource } from '../../../../operators/controller/resourcequota/quota-usage.ts';
import type { KubeObject } from '../../../../operators/types.ts';

const quota = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q', namespace: 'testing' },
  spec,
});

const pod = (
  name: string,
  opts: { phase?: string; cpu?: string; memory?: string; deadline?: number; priorityClassName?: string } = {},
): KubeObject => ({
  metadata: { name, namespace: 'testing' },
  spec: {
    ...(opts.deadline !== undefined ? { activeDeadlineSeconds: opts.deadline } : {}),
    ...(opts.priorityClassName ? { priorityClassName: opts.priorityClassName } : {}),
    containers: [
      {
        name: 'c',
        image: 'i',
        resources:
          opts.cpu || opts.memory
            ? {
                requests: {
                  ...(opts.cpu ? { cpu: opts.cpu } : {}),
                  ...(opts.memory ? { memory: opts.memory } : {}),
                },
                limits: {
                  ...(opts.cpu ? { cpu: opts.cpu } : {}),
                  ...(opts.memory ? { memory: opts.memory } : {}),
                },
              }
            : {},
      },
    ],
  },
  status: { phase: opts.phase ?? 'Running' },
});

const named = (name: string): KubeObject => ({ metadata: { name, namespace: 'testing' } });

const source = (objects: Record<string, KubeObject[]>): QuotaObjectSource => ({
  serves: (id) => id in objects,
  list: (id) => objects[id] ?? [],
});

const standard = {
  pods: [
    pod('pod-running', { cpu: '100m', memory: '1Gi' }),
    pod('pod-running-2', { cpu: '100m', memory: '1Gi', deadline: 30 }),
    pod('pod-failed', { phase: 'Failed', cpu: '100m', memory: '1Gi' }),
    pod('pod-succeeded', { phase: 'Succeeded', cpu: '1', memory: '1Gi' }),
    pod('pod-best-effort'),
    pod('pod-high', { cpu: '500m', priorityClassName: 'high' }),
  ],
  services: [named('s1'), named('s2')],
  configmaps: [named('cm')],
  secrets: [named('a'), named('b'), named('c')],
  'apps/deployments': [named('d')],
};

describe('quotaStatus', () => {
  it.each([
    [
      'an unscoped quota counts every non-terminal pod',
      { hard: { cpu: '3', memory: '100Gi', pods: '10' } },
      { cpu: '700m', memory: '2Gi', pods: '4' },
    ],
    [
      'Terminating counts pods with activeDeadlineSeconds',
      { hard: { pods: '5', 'requests.cpu': '1' }, scopes: ['Terminating'] },
      { pods: '1', 'requests.cpu': '100m' },
    ],
    [
      'NotTerminating counts the others',
      { hard: { pods: '5', 'limits.memory': '10Gi' }, scopes: ['NotTerminating'] },
      { pods: '3', 'limits.memory': '1Gi' },
    ],
    [
      'BestEffort counts pods without requests or limits',
      { hard: { pods: '5' }, scopes: ['BestEffort'] },
      { pods: '1' },
    ],
    [
      'NotBestEffort counts pods with some',
      { hard: { pods: '5', 'requests.memory': '5Gi' }, scopes: ['NotBestEffort'] },
      { pods: '3', 'requests.memory': '2Gi' },
    ],
    [
      'a PriorityClass scope selector',
      {
        hard: { pods: '5', cpu: '2' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      },
      { pods: '1', cpu: '500m' },
    ],
    [
      'object counts by their classic names',
      {
        hard: {
          services: '5',
          configmaps: '5',
          secrets: '5',
          persistentvolumeclaims: '2',
          replicationcontrollers: '1',
        },
      },
      {
        services: '2',
        configmaps: '1',
        secrets: '3',
        persistentvolumeclaims: '0',
        replicationcontrollers: '0',
      },
    ],
    [
      'count/<resource>.<group> names',
      { hard: { 'count/deployments.apps': '2', 'count/pods': '9', 'count/secrets': '9' } },
      { 'count/deployments.apps': '1', 'count/pods': '4', 'count/secrets': '3' },
    ],
    [
      'a scoped quota counts no other objects',
      { hard: { pods: '5', services: '3' }, scopes: ['BestEffort'] },
      { pods: '1', services: '0' },
    ],
  ])('%s', (_name, spec, used) => {
    const status = quotaStatus(quota(spec), source(standard));
    expect(status.used).toEqual(used);
    expect(status.hard).toEqual(spec.hard);
  });

  it('a quota with no hard limits has an empty status', () => {
    expect(quotaStatus(quota({}), source(standard))).toEqual({ hard: {}, used: {} });
  });

  it('a resource the server does not serve counts 0', () => {
    expect(quotaStatus(quota({ hard: { 'count/widgets.example.com': '3' } }), source(standard)).used).toEqual(
      {
        'count/widgets.example.com': '0',
      },
    );
  });

  it.each([
    ['an equal status', { hard: { pods: '5' }, used: { pods: '1' } }, true],
    ['a stale used', { hard: { pods: '5' }, used: { pods: '2' } }, false],
    ['a stale hard', { hard: { pods: '4' }, used: { pods: '1' } }, false],
    ['an extra name', { hard: { pods: '5', cpu: '1' }, used: { pods: '1', cpu: '0' } }, false],
    ['no status', undefined, false],
  ])('quotaStatusEqual: %s → %s', (_name, current, equal) => {
    expect(quotaStatusEqual(current, { hard: { pods: '5' }, used: { pods: '1' } })).toBe(equal);
  });
});
