// Tests: the NamespaceDeletion* conditions (upstream's status_condition_utils and its tests, in our words).
import { describe, expect, it } from 'vitest';
import {
  NAMESPACE_DELETION_CONDITIONS,
  type NamespaceDeletionProblems,
  namespaceConditions,
} from '../../../../operators/controller/namespace/namespace-conditions.ts';
import type { NamespaceCondition } from '../../../../operators/controller/namespace/namespace-types.ts';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const byType = (conditions: NamespaceCondition[], type: string) => conditions.find((c) => c.type === type);

describe('namespaceConditions', () => {
  it('with no problems, sets the five conditions to their ok variants', () => {
    const { conditions, changed } = namespaceConditions([], {}, T0);
    expect(changed).toBe(true);
    expect(conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      [
        'NamespaceDeletionDiscoveryFailure',
        'False',
        'ResourcesDiscovered',
        'All resources successfully discovered',
      ],
      [
        'NamespaceDeletionGroupVersionParsingFailure',
        'False',
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed',
      ],
      [
        'NamespaceDeletionContentFailure',
        'False',
        'ContentDeleted',
        'All content successfully deleted, may be waiting on finalization',
      ],
      ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
      ['NamespaceFinalizersRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
    ]);
    expect(conditions.every((c) => c.lastTransitionTime === T0)).toBe(true);
  });

  it.each([
    [
      'a group that failed discovery',
      {
        discoveryFailures: [
          {
            groupVersion: 'metrics.k8s.io/v1beta1',
            message: 'the server is currently unable to handle the request',
          },
        ],
      },
      'NamespaceDeletionDiscoveryFailure',
      'DiscoveryFailed',
      'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
    ],
    [
      'discovery failing as a whole',
      { discoveryError: 'test error' },
      'NamespaceDeletionDiscoveryFailure',
      'DiscoveryFailed',
      'test error',
    ],
    [
      'a group-version that does not parse',
      { groupVersionError: 'unexpected GroupVersion string: a/b/c' },
      'NamespaceDeletionGroupVersionParsingFailure',
      'GroupVersionParsingFailed',
      'unexpected GroupVersion string: a/b/c',
    ],
    [
      'content that failed to delete, messages sorted',
      { contentErrors: ['z failed', 'a failed'] },
      'NamespaceDeletionContentFailure',
      'ContentDeletionFailed',
      'Failed to delete all resource types, 2 remaining: a failed, z failed',
    ],
    [
      'resources remaining, sorted',
      {
        remaining: [
          { group: 'apps', resource: 'deployments', count: 1 },
          { group: '', resource: 'configmaps', count: 2 },
        ],
      },
      'NamespaceContentRemaining',
      'SomeResourcesRemain',
      'Some resources are remaining: configmaps. has 2 resource instances, deployments.apps has 1 resource instances',
    ],
    [
      'finalizers remaining',
      { finalizers: { 'example.com/hold': 1, 'a.io/x': 3 } },
      'NamespaceFinalizersRemaining',
      'SomeFinalizersRemain',
      'Some content in the namespace has finalizers remaining: a.io/x in 3 resource instances, example.com/hold in 1 resource instances',
    ],
  ])('%s sets its condition True', (_name, problems, type, reason, message) => {
    const { conditions } = namespaceConditions([], problems, T0);
    expect(byType(conditions, type)).toEqual({
      type,
      status: 'True',
      reason,
      message,
      lastTransitionTime: T0,
    });
    const others = conditions.filter((c) => c.type !== type);
    expect(others.every((c) => c.status === 'False')).toBe(true);
  });

  it('counts of zero are not problems', () => {
    const { conditions } = namespaceConditions(
      [],
      { remaining: [{ group: '', resource: 'pods', count: 0 }], finalizers: { x: 0 } },
      T0,
    );
    expect(conditions.every((c) => c.status === 'False')).toBe(true);
  });

  it('reports no change when nothing differs, so no status write is made', () => {
    const first = namespaceConditions([], { finalizers: { x: 1 } }, T0).conditions;
    expect(namespaceConditions(first, { finalizers: { x: 1 } }, T1)).toEqual({
      conditions: first,
      changed: false,
    });
  });

  it('moves lastTransitionTime only when the status flips, and keeps other conditions', () => {
    const other: NamespaceCondition = { type: 'Custom', status: 'True', reason: 'Mine' };
    const first = namespaceConditions([other], { finalizers: { x: 1 } }, T0).conditions;
    const message = namespaceConditions(first, { finalizers: { x: 2 } }, T1);
    expect(message.changed).toBe(true);
    expect(byType(message.conditions, 'NamespaceFinalizersRemaining')?.lastTransitionTime).toBe(T0);
    const cleared = namespaceConditions(message.conditions, {}, T1).conditions;
    expect(byType(cleared, 'NamespaceFinalizersRemaining')).toMatchObject({
      status: 'False',
      lastTransitionTime: T1,
    });
    expect(byType(cleared, 'Custom')).toEqual(other);
    expect(cleared.map((c) => c.type)).toEqual(['Custom', ...NAMESPACE_DELETION_CONDITIONS]);
  });

  // upstream's TestUpdateConditions: known conditions keep their place, missing ones are added in order
  const ok = (type: string) => ['False', type];
  it.each<[string, NamespaceCondition[], NamespaceDeletionProblems, [string, string][]]>([
    [
      'leave unknown',
      [{ type: 'unknown', status: 'True' }],
      {},
      [['True', 'unknown'], ...NAMESPACE_DELETION_CONDITIONS.map(ok)] as [string, string][],
    ],
    [
      'replace with success',
      [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'True' }],
      {},
      NAMESPACE_DELETION_CONDITIONS.map(ok) as [string, string][],
    ],
    [
      'leave different order',
      [
        { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'True' },
        { type: 'NamespaceDeletionDiscoveryFailure', status: 'True' },
      ],
      {},
      [
        ok('NamespaceDeletionGroupVersionParsingFailure'),
        ok('NamespaceDeletionDiscoveryFailure'),
        ...NAMESPACE_DELETION_CONDITIONS.slice(2).map(ok),
      ] as [string, string][],
    ],
    [
      'overwrite with failure',
      [
        { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False' },
        { type: 'NamespaceDeletionDiscoveryFailure', status: 'True' },
      ],
      { groupVersionError: 'bar' },
      [
        ['True', 'NamespaceDeletionGroupVersionParsingFailure'],
        ok('NamespaceDeletionDiscoveryFailure'),
        ...NAMESPACE_DELETION_CONDITIONS.slice(2).map(ok),
      ] as [string, string][],
    ],
    [
      'write new failure',
      [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'True' }],
      { groupVersionError: 'bar' },
      [
        ok('NamespaceDeletionDiscoveryFailure'),
        ['True', 'NamespaceDeletionGroupVersionParsingFailure'],
        ...NAMESPACE_DELETION_CONDITIONS.slice(2).map(ok),
      ] as [string, string][],
    ],
  ])('%s', (_name, current, problems, want) => {
    const { conditions } = namespaceConditions(current, problems, T1);
    expect(conditions.map((c) => [c.status, c.type])).toEqual(want);
  });

  it('both remaining content and finalizers (TestProcessContentTotals), sorted for stable updates', () => {
    const { conditions } = namespaceConditions(
      [],
      {
        remaining: [
          { group: 'apps.k8s.io', resource: 'deployments', count: 5 },
          { group: 'apps.k8s.io', resource: 'daemonsets', count: 5 },
        ],
        finalizers: { 'service-catalog': 6, kubedb: 5 },
      },
      T0,
    );
    expect(byType(conditions, 'NamespaceContentRemaining')?.message).toBe(
      'Some resources are remaining: daemonsets.apps.k8s.io has 5 resource instances, deployments.apps.k8s.io has 5 resource instances',
    );
    expect(byType(conditions, 'NamespaceFinalizersRemaining')?.message).toBe(
      'Some content in the namespace has finalizers remaining: kubedb in 5 resource instances, service-catalog in 6 resource instances',
    );
  });
});
