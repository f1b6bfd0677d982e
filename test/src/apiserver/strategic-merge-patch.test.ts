// Tests of the strategic merge patch: keyed list merges, set lists and the $patch directives.
import { describe, expect, it } from 'vitest';
import {
  StrategicMergePatchError,
  strategicMergePatch,
} from '../../../src/apiserver/strategic-merge-patch.ts';

const pod = (containers: unknown[], extra: Record<string, unknown> = {}) => ({
  spec: { containers, ...extra },
});

describe('strategicMergePatch', () => {
  it.each([
    [
      'merges containers by name',
      pod([
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ]),
      pod([{ name: 'b', image: 'z' }]),
      pod([
        { name: 'a', image: 'x' },
        { name: 'b', image: 'z' },
      ]),
    ],
    [
      'appends a container with a new name',
      pod([{ name: 'a', image: 'x' }]),
      pod([{ name: 'b', image: 'y' }]),
      pod([
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ]),
    ],
    [
      'deletes an element with $patch: delete',
      pod([
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ]),
      pod([{ name: 'a', $patch: 'delete' }]),
      pod([{ name: 'b', image: 'y' }]),
    ],
    [
      'replaces the whole list with a $patch: replace element',
      pod([
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ]),
      pod([{ $patch: 'replace' }, { name: 'c', image: 'z' }]),
      pod([{ name: 'c', image: 'z' }]),
    ],
    [
      'merges env by name inside a merged container',
      pod([
        {
          name: 'a',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
        },
      ]),
      pod([{ name: 'a', env: [{ name: 'B', value: '3' }] }]),
      pod([
        {
          name: 'a',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '3' },
          ],
        },
      ]),
    ],
    [
      'merges container ports by containerPort',
      pod([{ name: 'a', ports: [{ containerPort: 80, name: 'http' }] }]),
      pod([{ name: 'a', ports: [{ containerPort: 443, name: 'https' }] }]),
      pod([
        {
          name: 'a',
          ports: [
            { containerPort: 80, name: 'http' },
            { containerPort: 443, name: 'https' },
          ],
        },
      ]),
    ],
    [
      'replaces lists without a merge key (tolerations)',
      pod([], { tolerations: [{ key: 'a' }] }),
      { spec: { tolerations: [{ key: 'b' }] } },
      pod([], { tolerations: [{ key: 'b' }] }),
    ],
    [
      'merges conditions by type',
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'False' },
            { type: 'PodScheduled', status: 'True' },
          ],
        },
      },
      { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'PodScheduled', status: 'True' },
          ],
        },
      },
    ],
    [
      'merges finalizers as a set',
      { metadata: { finalizers: ['a', 'b'] } },
      { metadata: { finalizers: ['b', 'c'] } },
      { metadata: { finalizers: ['a', 'b', 'c'] } },
    ],
    [
      'removes from a primitive list with $deleteFromPrimitiveList',
      { metadata: { finalizers: ['a', 'b'] } },
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      { metadata: { finalizers: ['b'] } },
    ],
    [
      'merges ownerReferences by uid',
      { metadata: { ownerReferences: [{ uid: '1', name: 'x' }] } },
      { metadata: { ownerReferences: [{ uid: '2', name: 'y' }] } },
      {
        metadata: {
          ownerReferences: [
            { uid: '1', name: 'x' },
            { uid: '2', name: 'y' },
          ],
        },
      },
    ],
    [
      'null removes a map key',
      { metadata: { labels: { a: '1', b: '2' } } },
      { metadata: { labels: { a: null } } },
      { metadata: { labels: { b: '2' } } },
    ],
    [
      'replaces a map with $patch: replace',
      { metadata: { labels: { a: '1', b: '2' } } },
      { metadata: { labels: { $patch: 'replace', c: '3' } } },
      { metadata: { labels: { c: '3' } } },
    ],
    [
      'deletes a map with $patch: delete',
      { spec: { strategy: { type: 'Recreate' } }, a: 1 },
      { spec: { strategy: { $patch: 'delete' } } },
      { spec: {}, a: 1 },
    ],
    [
      'orders a list with $setElementOrder and never stores the directive',
      pod([{ name: 'a' }, { name: 'b' }]),
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
          containers: [{ name: 'b', image: 'y' }],
        },
      },
      pod([{ name: 'b', image: 'y' }, { name: 'a' }]),
    ],
    [
      'keeps only $retainKeys',
      { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
      { spec: { strategy: { type: 'Recreate' } } },
    ],
  ])('%s', (_name, original, patch, expected) => {
    const before = JSON.stringify(original);
    expect(strategicMergePatch(original as Record<string, unknown>, patch)).toEqual(expected);
    expect(JSON.stringify(original)).toBe(before);
  });

  it.each([
    ['a keyed element without its key', pod([{ name: 'a' }]), pod([{ image: 'x' }])],
    ['an unknown directive', {}, { $patch: 'frob' }],
    ['a patch that is not an object', {}, [1]],
  ])('refuses %s', (_name, original, patch) => {
    expect(() => strategicMergePatch(original as Record<string, unknown>, patch)).toThrow(
      StrategicMergePatchError,
    );
  });
});
