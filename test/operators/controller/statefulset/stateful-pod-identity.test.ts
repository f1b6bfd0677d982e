// statefulPod identity: upstream's stateful_set_utils_test cases in our words — parent and ordinal from a name, identity and storage checks and repairs, the new pod and its claims.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  identityMatches,
  isMemberOf,
  newStatefulPod,
  parentAndOrdinal,
  statefulClaims,
  storageMatches,
  withIdentity,
  withStorage,
} from '../../../../operators/controller/statefulset/stateful-pod-identity.ts';
import { makeSet } from './fixtures.ts';

const claimTemplate = (name: string, labels?: Record<string, string>) => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const withClaims = () => makeSet(3, { volumeClaimTemplates: [claimTemplate('data'), claimTemplate('logs')] });
const named = (name: string): Pod => ({ metadata: { name }, spec: { containers: [] } });

describe('parentAndOrdinal', () => {
  it.each([
    ['web-0', 'web', 0],
    ['web-12', 'web', 12],
    ['my-web-3', 'my-web', 3],
    ['web', '', -1],
    ['web-', '', -1],
    ['web-x1', '', -1],
    ['web-99999999999', '', -1],
  ])('%s → parent %j, ordinal %i', (name, parent, ordinal) => {
    expect(parentAndOrdinal(named(name))).toEqual({ parent, ordinal });
  });

  it.each([
    ['web-1', true],
    ['webs-1', false],
    ['web', false],
  ])('%s is a member of web: %s', (name, member) => {
    expect(isMemberOf(makeSet(1), named(name))).toBe(member);
  });
});

describe('newStatefulPod', () => {
  it('names the pod, labels it, gives it hostname, subdomain, its claims and the set as controller', () => {
    const pod = newStatefulPod(withClaims(), 2, 'web-abc');
    expect(pod.metadata).toMatchObject({
      name: 'web-2',
      namespace: 'default',
      labels: {
        app: 'web',
        'controller-revision-hash': 'web-abc',
        'statefulset.kubernetes.io/pod-name': 'web-2',
        'apps.kubernetes.io/pod-index': '2',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: 'web',
          uid: 'set-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(pod.spec).toMatchObject({ hostname: 'web-2', subdomain: 'web' });
    expect(pod.spec.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-2' } },
      { name: 'logs', persistentVolumeClaim: { claimName: 'logs-web-2' } },
    ]);
    expect(identityMatches(withClaims(), pod)).toBe(true);
    expect(storageMatches(withClaims(), pod)).toBe(true);
  });

  it('without serviceName leaves subdomain out', () => {
    const set = makeSet(1);
    delete set.spec.serviceName;
    expect(newStatefulPod(set, 0, 'r').spec.subdomain).toBeUndefined();
  });

  it('replaces a template volume of a claim template name by the claim', () => {
    const set = withClaims();
    set.spec.template!.spec!.volumes = [
      { name: 'data', emptyDir: {} },
      { name: 'cache', emptyDir: {} },
    ];
    expect(
      newStatefulPod(set, 0, 'r').spec.volumes?.map((v) => [v.name, v.persistentVolumeClaim?.claimName]),
    ).toEqual([
      ['data', 'data-web-0'],
      ['logs', 'logs-web-0'],
      ['cache', undefined],
    ]);
  });
});

describe('identity and storage checks', () => {
  const set = withClaims();
  const good = () => newStatefulPod(set, 1, 'r');
  it.each<[string, (p: Pod) => void, boolean, boolean]>([
    ['a pod as made', () => {}, true, true],
    [
      'another namespace',
      (p) => {
        p.metadata.namespace = 'other';
      },
      false,
      true,
    ],
    [
      'no pod-name label',
      (p) => {
        delete p.metadata.labels!['statefulset.kubernetes.io/pod-name'];
      },
      false,
      true,
    ],
    [
      'a wrong pod-name label',
      (p) => {
        p.metadata.labels!['statefulset.kubernetes.io/pod-name'] = 'web-2';
      },
      false,
      true,
    ],
    [
      'a wrong pod-index label',
      (p) => {
        p.metadata.labels!['apps.kubernetes.io/pod-index'] = '7';
      },
      false,
      true,
    ],
    [
      'a claim volume missing',
      (p) => {
        p.spec.volumes = p.spec.volumes!.slice(1);
      },
      true,
      false,
    ],
    [
      'a claim volume naming another claim',
      (p) => {
        p.spec.volumes![0]!.persistentVolumeClaim!.claimName = 'data-web-0';
      },
      true,
      false,
    ],
  ])('%s: identity %s, storage %s; repaired both hold', (_what, spoil, identity, storage) => {
    const pod = good();
    spoil(pod);
    expect(identityMatches(set, pod)).toBe(identity);
    expect(storageMatches(set, pod)).toBe(storage);
    const fixed = withStorage(set, withIdentity(set, pod));
    expect(identityMatches(set, fixed)).toBe(true);
    expect(storageMatches(set, fixed)).toBe(true);
  });

  it('a pod of another set or without an ordinal never matches', () => {
    expect(identityMatches(set, named('db-0'))).toBe(false);
    expect(storageMatches(set, named('web'))).toBe(false);
  });
});

describe('statefulClaims', () => {
  it('names each claim <template>-<set>-<ordinal> with the template labels and the selector labels', () => {
    const set = makeSet(1, { volumeClaimTemplates: [claimTemplate('data', { tier: 'disk' })] });
    const claims = statefulClaims(set, 4);
    expect(claims).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data-web-4', namespace: 'default', labels: { tier: 'disk', app: 'web' } },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ]);
  });

  it('is empty without claim templates', () => {
    expect(statefulClaims(makeSet(1), 0)).toEqual([]);
  });
});
