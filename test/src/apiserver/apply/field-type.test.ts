// Merge types: the built-in kinds' list semantics (k8s.io/api's +listType markers) and schema-declared ones.
import { describe, expect, it } from 'vitest';
import {
  builtinFieldType,
  customResourceFieldType,
  schemaFieldType,
} from '../../../../src/apiserver/apply/field-type.ts';

const TCP = { protocol: 'TCP' };

describe('built-in list semantics', () => {
  it.each([
    [['spec', 'containers'], { type: 'map', keys: ['name'] }],
    [['spec', 'template', 'spec', 'initContainers'], { type: 'map', keys: ['name'] }],
    [['spec', 'containers', 'ports'], { type: 'map', keys: ['containerPort', 'protocol'], keyDefaults: TCP }],
    [['spec', 'ports'], { type: 'map', keys: ['port', 'protocol'], keyDefaults: TCP }],
    [['subsets', 'ports'], { type: 'atomic' }],
    [['spec', 'containers', 'env'], { type: 'map', keys: ['name'] }],
    [['spec', 'containers', 'volumeMounts'], { type: 'map', keys: ['mountPath'] }],
    [['spec', 'containers', 'args'], { type: 'atomic' }],
    [['spec', 'containers', 'command'], { type: 'atomic' }],
    [['spec', 'tolerations'], { type: 'atomic' }],
    [['spec', 'taints'], { type: 'atomic' }],
    [['spec', 'topologySpreadConstraints'], { type: 'map', keys: ['topologyKey', 'whenUnsatisfiable'] }],
    [['metadata', 'finalizers'], { type: 'set' }],
    [['spec', 'finalizers'], { type: 'atomic' }],
    [['metadata', 'ownerReferences'], { type: 'map', keys: ['uid'] }],
    [['status', 'conditions'], { type: 'map', keys: ['type'] }],
    [['status', 'containerStatuses'], { type: 'atomic' }],
    [['status', 'addresses'], { type: 'map', keys: ['type'] }],
    [['endpoints', 'addresses'], { type: 'set' }],
    [['spec', 'selector', 'matchExpressions'], { type: 'atomic' }],
  ])('%j merges as %j', (path, expected) => {
    expect(builtinFieldType(path).list()).toEqual(expected);
  });

  it.each([
    [['spec', 'selector'], true],
    [['spec', 'template', 'spec', 'nodeSelector'], true],
    [['spec', 'containers', 'env', 'valueFrom', 'configMapKeyRef'], true],
    [['metadata', 'labels'], false],
    [['spec', 'template'], false],
  ])('%j is atomic: %s', (path, atomic) => {
    expect(builtinFieldType(path).atomicObject()).toBe(atomic);
  });

  it('the same place is the same type object (made once)', () => {
    expect(builtinFieldType(['spec', 'containers'])).toBe(
      builtinFieldType().field('spec').field('containers'),
    );
    expect(builtinFieldType(['spec', 'containers']).item()).toBe(builtinFieldType(['spec', 'containers']));
  });
});

describe('schema-declared semantics', () => {
  const schema = {
    type: 'object',
    properties: {
      a: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k', 'p'],
        items: { type: 'object', properties: { p: { type: 'string', default: 'x' } } },
      },
      b: {
        type: 'array',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'name',
        items: { type: 'object' },
      },
      c: { type: 'array', 'x-kubernetes-patch-strategy': 'merge', items: { type: 'string' } },
      d: { type: 'array', items: { type: 'string' } },
      e: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
      r: { $ref: '#/components/schemas/R' },
    },
  };
  const named = { R: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } };
  const t = schemaFieldType(schema, (ref) => named[ref.split('/').pop() as 'R']);

  it.each([
    ['a', { type: 'map', keys: ['k', 'p'], keyDefaults: { p: 'x' } }],
    ['b', { type: 'map', keys: ['name'] }],
    ['c', { type: 'set' }],
    ['d', { type: 'atomic' }],
    ['r', { type: 'set' }],
    ['undeclared', { type: 'atomic' }],
  ])('%s merges as %j', (field, expected) => {
    expect(t.field(field).list()).toEqual(expected);
  });

  it('x-kubernetes-map-type atomic replaces the object whole; a custom resource keeps the built-in metadata rules', () => {
    expect(t.field('e').atomicObject()).toBe(true);
    const cr = customResourceFieldType(schema);
    expect(cr.field('metadata').field('finalizers').list()).toEqual({ type: 'set' });
    expect(cr.field('a').list()).toEqual({ type: 'map', keys: ['k', 'p'], keyDefaults: { p: 'x' } });
  });
});
