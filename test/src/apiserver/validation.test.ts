// Name rules and object validation, with cases from Kubernetes' validation tests.
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../src/apiserver/resource-table.ts';
import { nameProblem, validateObject } from '../../../src/apiserver/validation.ts';

const def = (resource: string) => RESOURCES.find((d) => d.resource === resource)!;

describe('nameProblem', () => {
  it.each([
    ['subdomain', 'a', true],
    ['subdomain', 'a.b-c.d', true],
    ['subdomain', '0', true],
    ['subdomain', 'A', false],
    ['subdomain', '-a', false],
    ['subdomain', 'a_b', false],
    ['subdomain', 'a..b', false],
    ['subdomain', 'a'.repeat(253), true],
    ['subdomain', 'a'.repeat(254), false],
    ['label', 'a-b', true],
    ['label', 'a.b', false],
    ['label', 'a'.repeat(64), false],
    ['dns1035', 'a1', true],
    ['dns1035', '1a', false],
  ] as const)('%s %j valid: %s', (rule, name, valid) => {
    expect(nameProblem(rule, name) === undefined).toBe(valid);
  });
});

describe('validateObject', () => {
  it.each([
    [
      'a valid pod',
      'pods',
      { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      [],
    ],
    [
      'no name',
      'pods',
      { metadata: {}, spec: { containers: [{ name: 'c', image: 'i' }] } },
      ['metadata.name'],
    ],
    ['no containers', 'pods', { metadata: { name: 'p' }, spec: { containers: [] } }, ['spec.containers']],
    [
      'a bad label value',
      'configmaps',
      { metadata: { name: 'c', labels: { a: 'b c' } } },
      ['metadata.labels'],
    ],
    [
      'a bad label key',
      'configmaps',
      { metadata: { name: 'c', labels: { 'a/b/c': 'x' } } },
      ['metadata.labels'],
    ],
    ['a namespace with a dot', 'namespaces', { metadata: { name: 'a.b' } }, ['metadata.name']],
    ['a service name starting with a digit', 'services', { metadata: { name: '1svc' } }, ['metadata.name']],
    [
      'a deployment whose selector misses its template',
      'deployments',
      {
        metadata: { name: 'd' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'c' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      },
      ['spec.template.metadata.labels'],
    ],
    [
      'a negative replica count',
      'replicasets',
      {
        metadata: { name: 'r' },
        spec: { replicas: -1, selector: {}, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } },
      },
      ['spec.replicas'],
    ],
    ['a job without a template', 'jobs', { metadata: { name: 'j' }, spec: {} }, ['spec.template']],
    [
      'a bad finalizer',
      'configmaps',
      { metadata: { name: 'c', finalizers: ['a b'] } },
      ['metadata.finalizers[0]'],
    ],
  ])('%s', (_name, resource, object, fields) => {
    expect(validateObject(def(resource), object).map((c) => c.field)).toEqual(fields);
  });
});
