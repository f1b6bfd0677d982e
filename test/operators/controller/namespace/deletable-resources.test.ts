// Tests: which discovered resources a terminating namespace loses, and with which verbs (upstream's testResources and GroupVersionResources).
import { describe, expect, it } from 'vitest';
import {
  deletableResources,
  groupVersionResourceString,
  parseGroupVersion,
} from '../../../../operators/controller/namespace/deletable-resources.ts';
import { ALL_VERBS, TEST_RESOURCES } from './test-resources.ts';

const ALL = ALL_VERBS;

describe('deletableResources', () => {
  it('takes every namespaced resource that supports delete, with deletecollection and list', () => {
    expect(
      deletableResources(TEST_RESOURCES).resources.map((r) => `${r.group}/${r.version}/${r.resource}`),
    ).toEqual(['/v1/pods', '/v1/services', 'apps/v1/deployments']);
    expect(deletableResources(TEST_RESOURCES).resources[0]).toMatchObject({
      deleteCollection: true,
      list: true,
    });
  });

  it.each([
    ['a cluster-scoped resource', { name: 'nodes', namespaced: false, kind: 'Node', verbs: ALL }, 0],
    [
      'a subresource without delete',
      { name: 'pods/status', namespaced: true, kind: 'Pod', verbs: ['get', 'update'] },
      0,
    ],
    [
      'a resource without delete',
      { name: 'bindings', namespaced: true, kind: 'Binding', verbs: ['create'] },
      0,
    ],
    ['a namespaced deletable resource', { name: 'flakes', namespaced: true, kind: 'Flake', verbs: ALL }, 1],
  ])('%s is kept only when namespaced and deletable', (_name, resource, count) => {
    expect(
      deletableResources([{ groupVersion: 'example.com/v1', resources: [resource] }]).resources,
    ).toHaveLength(count);
  });

  it('remembers which verbs are missing: no deletecollection means list and delete each', () => {
    const [r] = deletableResources([
      { groupVersion: 'v1', resources: [{ name: 'odd', namespaced: true, kind: 'Odd', verbs: ['delete'] }] },
    ]).resources;
    expect(r).toMatchObject({ deleteCollection: false, list: false });
  });

  it('lists a resource once when discovery repeats it', () => {
    expect(deletableResources([TEST_RESOURCES[0]!, TEST_RESOURCES[0]!]).resources).toHaveLength(2);
  });

  it('gives up on everything when a group-version does not parse, as upstream', () => {
    const out = deletableResources([...TEST_RESOURCES, { groupVersion: 'a/b/c', resources: [] }]);
    expect(out).toEqual({ resources: [], groupVersionError: 'unexpected GroupVersion string: a/b/c' });
  });

  it.each([
    ['v1', { group: '', version: 'v1' }],
    ['apps/v1', { group: 'apps', version: 'v1' }],
    ['', { group: '', version: '' }],
    ['a/b/c', undefined],
  ])('parseGroupVersion(%j)', (gv, want) => {
    expect(parseGroupVersion(gv)).toEqual(want);
  });

  it('prints a resource as a GroupVersionResource', () => {
    expect(groupVersionResourceString({ group: '', version: 'v1', resource: 'pods' })).toBe(
      '/v1, Resource=pods',
    );
    expect(groupVersionResourceString({ group: 'apps', version: 'v1', resource: 'deployments' })).toBe(
      'apps/v1, Resource=deployments',
    );
  });
});
