// Tables for the printer columns' JSONPath subset and for kube-aware version ordering.
import { describe, expect, it } from 'vitest';
import { JsonPathError, jsonPathValues, parseJsonPath } from '../../../../src/apiserver/crd/json-path.ts';
import { compareVersionPriority } from '../../../../src/apiserver/crd/version-priority.ts';

const doc = {
  metadata: { name: 'w', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: { replicas: 3, items: [{ name: 'a' }, { name: 'b' }] },
  status: {
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'Synced', status: 'False' },
    ],
  },
};

describe('JSONPath', () => {
  it.each<[string, unknown[]]>([
    ['.spec.replicas', [3]],
    ['{.spec.replicas}', [3]],
    ['.spec.items[1].name', ['b']],
    ['.spec.items[-1].name', ['b']],
    ['.spec.items[*].name', ['a', 'b']],
    ['.spec.items[9].name', []],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
    [".status.conditions[?(@.type=='Synced')].status", ['False']],
    ['.status.conditions[?(@.type!="Ready")].type', ['Synced']],
    ['.metadata.labels.app\\.kubernetes\\.io/name', ['web']],
    [".metadata.labels['app.kubernetes.io/name']", ['web']],
    ['.spec.missing.deeper', []],
  ])('%s', (path, expected) => {
    expect(jsonPathValues(doc, parseJsonPath(path))).toEqual(expected);
  });

  it.each(['spec[', '.spec..x', '.spec[?(@.a ~ 1)]', 'spec.replicas'])('refuses %s', (path) => {
    expect(() => parseJsonPath(path)).toThrow(JsonPathError);
  });
});

describe('compareVersionPriority', () => {
  it('orders as Kubernetes does', () => {
    const versions = [
      'v1alpha1',
      'foo',
      'v2beta1',
      'v1',
      'v11alpha2',
      'v1beta1',
      'v2',
      'v10beta3',
      'bar',
      'v12alpha1',
    ];
    expect([...versions].sort(compareVersionPriority)).toEqual([
      'v2',
      'v1',
      'v10beta3',
      'v2beta1',
      'v1beta1',
      'v12alpha1',
      'v11alpha2',
      'v1alpha1',
      'bar',
      'foo',
    ]);
  });
});
