// Tables for pruning unknown fields and applying schema defaults (after apiextensions' pruning and defaulting tests).
import { describe, expect, it } from 'vitest';
import { applySchemaDefaults } from '../../../../src/apiserver/crd/apply-schema-defaults.ts';
import type { JSONSchemaProps } from '../../../../src/apiserver/crd/json-schema-props.ts';
import { pruneUnknownFields } from '../../../../src/apiserver/crd/prune-unknown-fields.ts';

const S: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        a: { type: 'string' },
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } },
        map: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { y: { type: 'string' } } },
        },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        half: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { k: { type: 'string' } } } },
        },
        embedded: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { z: { type: 'string' } } } },
        },
        any: { type: 'object', additionalProperties: true },
      },
    },
  },
};

describe('pruneUnknownFields', () => {
  it.each<[string, unknown, unknown, string[]]>([
    [
      'keeps apiVersion, kind and metadata at the root',
      { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'n' }, junk: 1 },
      { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'n' } },
      ['junk'],
    ],
    ['drops an unknown field of a struct', { spec: { a: 'x', b: 'y' } }, { spec: { a: 'x' } }, ['spec.b']],
    [
      'descends into array items',
      { spec: { list: [{ x: 1, y: 2 }, { z: 3 }] } },
      { spec: { list: [{ x: 1 }, {}] } },
      ['spec.list[0].y', 'spec.list[1].z'],
    ],
    [
      'descends into map values',
      { spec: { map: { k1: { y: 'a', w: 1 } } } },
      { spec: { map: { k1: { y: 'a' } } } },
      ['spec.map.k1.w'],
    ],
    [
      'keeps everything under preserve-unknown-fields',
      { spec: { free: { a: { b: [1] } } } },
      { spec: { free: { a: { b: [1] } } } },
      [],
    ],
    [
      'still prunes declared children of a preserving node',
      { spec: { half: { other: 1, known: { k: 'v', drop: 1 } } } },
      { spec: { half: { other: 1, known: { k: 'v' } } } },
      ['spec.half.known.drop'],
    ],
    [
      'keeps apiVersion/kind/metadata of an embedded resource',
      { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { z: 'a', q: 1 }, x: 1 } } },
      { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { z: 'a' } } } },
      ['spec.embedded.spec.q', 'spec.embedded.x'],
    ],
    [
      'keeps anything with additionalProperties: true',
      { spec: { any: { a: 1 } } },
      { spec: { any: { a: 1 } } },
      [],
    ],
  ])('%s', (_name, input, expected, pruned) => {
    const value = structuredClone(input);
    expect(pruneUnknownFields(value, S)).toEqual(pruned);
    expect(value).toEqual(expected);
  });
});

describe('applySchemaDefaults', () => {
  const D: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        default: {},
        properties: {
          replicas: { type: 'integer', default: 1 },
          mode: { type: 'string', default: 'auto' },
          nullable: { type: 'string', nullable: true, default: 'd' },
          plain: { type: 'string' },
          ports: {
            type: 'array',
            items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' } } },
          },
          nested: { type: 'object', default: {}, properties: { deep: { type: 'boolean', default: true } } },
        },
      },
    },
  };
  it.each<[string, unknown, unknown]>([
    [
      'fills a missing object and defaults inside it',
      {},
      { spec: { replicas: 1, mode: 'auto', nullable: 'd', nested: { deep: true } } },
    ],
    [
      'keeps given values',
      { spec: { replicas: 3, mode: 'manual', nullable: 'x', nested: { deep: false } } },
      { spec: { replicas: 3, mode: 'manual', nullable: 'x', nested: { deep: false } } },
    ],
    [
      'replaces a null that is not nullable',
      { spec: { replicas: null } },
      { spec: { replicas: 1, mode: 'auto', nullable: 'd', nested: { deep: true } } },
    ],
    [
      'keeps a null that is nullable',
      { spec: { nullable: null } },
      { spec: { replicas: 1, mode: 'auto', nullable: null, nested: { deep: true } } },
    ],
    [
      'drops a non-nullable null without a default',
      { spec: { plain: null } },
      { spec: { replicas: 1, mode: 'auto', nullable: 'd', nested: { deep: true } } },
    ],
    [
      'defaults inside array items',
      { spec: { ports: [{}, { protocol: 'UDP' }] } },
      {
        spec: {
          replicas: 1,
          mode: 'auto',
          nullable: 'd',
          nested: { deep: true },
          ports: [{ protocol: 'TCP' }, { protocol: 'UDP' }],
        },
      },
    ],
  ])('%s', (_name, input, expected) => {
    const value = structuredClone(input);
    applySchemaDefaults(value, D);
    expect(value).toEqual(expected);
  });

  it('does not share the default value between objects', () => {
    const a: Record<string, unknown> = {};
    const b: Record<string, unknown> = {};
    applySchemaDefaults(a, D);
    applySchemaDefaults(b, D);
    (a.spec as Record<string, unknown>).replicas = 9;
    expect((b.spec as Record<string, unknown>).replicas).toBe(1);
  });
});
