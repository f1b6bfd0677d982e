// Tables for CRD validation and structural schema checks (after apiextensions' validation tests), with field paths.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/../operators/types.ts';
import { defaultCustomResourceDefinition } from '../../../../src/apiserver/crd/custom-resource-definition.ts';
import type { JSONSchemaProps } from '../../../../src/apiserver/crd/json-schema-props.ts';
import { validateCustomResourceDefinition } from '../../../../src/apiserver/crd/validate-custom-resource-definition.ts';
import { validateStructuralSchema } from '../../../../src/apiserver/crd/validate-structural-schema.ts';
import { GADGET_CRD, WIDGET_CRD } from './widgets.ts';

type Crd = typeof GADGET_CRD & KubeObject;
const base = (): Crd => structuredClone(GADGET_CRD) as Crd;
const lines = (crd: KubeObject, old?: KubeObject) =>
  validateCustomResourceDefinition(crd, old).map((c) => `${c.field}: ${c.message}`);

describe('validateCustomResourceDefinition', () => {
  it('accepts the fixtures', () => {
    for (const fixture of [base(), structuredClone(WIDGET_CRD) as KubeObject]) {
      defaultCustomResourceDefinition(fixture);
      expect(lines(fixture)).toEqual([]);
    }
  });

  it.each<[string, (c: Crd) => void, string]>([
    [
      'a name that is not plural.group',
      (c) => (c.metadata.name = 'gadget.example.org'),
      'metadata.name: Invalid value: "gadget.example.org": must be spec.names.plural+"."+spec.group',
    ],
    ['no group', (c) => ((c.spec as { group?: string }).group = ''), 'spec.group: Required value'],
    [
      'a group without a dot',
      (c) => {
        c.spec.group = 'local';
        c.metadata.name = 'gadgets.local';
      },
      'spec.group: Invalid value: "local": should be a domain with at least one dot',
    ],
    [
      'an unknown scope',
      (c) => (c.spec.scope = 'Global'),
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ],
    ['no scope', (c) => ((c.spec as { scope?: string }).scope = undefined), 'spec.scope: Required value'],
    [
      'no storage version',
      (c) => (c.spec.versions[0]!.storage = false),
      'must have exactly one version marked as storage version',
    ],
    [
      'two versions of one name',
      (c) => c.spec.versions.push({ ...c.spec.versions[0]!, storage: false }),
      'spec.versions: Invalid value:',
    ],
    [
      'a version name that is not a DNS-1035 label',
      (c) => (c.spec.versions[0]!.name = 'V1'),
      'spec.versions[0].name: Invalid value: "V1": a DNS-1035 label',
    ],
    [
      'a version without a schema',
      (c) => delete (c.spec.versions[0] as { schema?: unknown }).schema,
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
    ],
    ['no kind', (c) => ((c.spec.names as { kind?: string }).kind = ''), 'spec.names.kind: Required value'],
    [
      'a kind equal to listKind',
      (c) => ((c.spec.names as Record<string, string>).listKind = 'Gadget'),
      'spec.names.listKind: Invalid value: "Gadget": kind and listKind may not be the same',
    ],
    [
      'a bad short name',
      (c) => ((c.spec.names as Record<string, unknown>).shortNames = ['G_1']),
      'spec.names.shortNames[0]: Invalid value: "G_1"',
    ],
    [
      'a bad printer column type',
      (c) =>
        ((c.spec.versions[0] as Record<string, unknown>).additionalPrinterColumns = [
          { name: 'P', type: 'float', jsonPath: '.spec.power' },
        ]),
      'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "float": supported values: "boolean", "date", "integer", "number", "string"',
    ],
    [
      'a printer column path that is not simple',
      (c) =>
        ((c.spec.versions[0] as Record<string, unknown>).additionalPrinterColumns = [
          { name: 'P', type: 'string', jsonPath: 'spec[' },
        ]),
      'spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value: "spec[": must be a simple json path',
    ],
    [
      'a scale path outside spec',
      (c) =>
        ((c.spec.versions[0] as Record<string, unknown>).subresources = {
          scale: { specReplicasPath: '.status.n', statusReplicasPath: '.status.n' },
        }),
      'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.n": should be a json path under .spec',
    ],
    [
      'a protected group without the approval annotation',
      (c) => {
        c.spec.group = 'x.k8s.io';
        c.metadata.name = 'gadgets.x.k8s.io';
      },
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
    [
      'a protected group with an approval that is neither a URL nor unapproved',
      (c) => {
        c.spec.group = 'kubernetes.io';
        c.metadata.name = 'gadgets.kubernetes.io';
        (c.metadata as Record<string, unknown>).annotations = { 'api-approved.kubernetes.io': 'yes' };
      },
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
    [
      'preserveUnknownFields',
      (c) => ((c.spec as Record<string, unknown>).preserveUnknownFields = true),
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true',
    ],
  ])('refuses %s', (_name, change, expected) => {
    const crd = base();
    change(crd);
    defaultCustomResourceDefinition(crd);
    expect(lines(crd).join('\n')).toContain(expected);
  });

  it.each(['https://github.com/kubernetes/enhancements/pull/1111', 'unapproved, experimental'])(
    'accepts a protected group approved with %s',
    (approval) => {
      const crd = base();
      crd.spec.group = 'x.k8s.io';
      crd.metadata.name = 'gadgets.x.k8s.io';
      (crd.metadata as Record<string, unknown>).annotations = { 'api-approved.kubernetes.io': approval };
      defaultCustomResourceDefinition(crd);
      expect(lines(crd)).toEqual([]);
    },
  );

  it('defaults singular and listKind from the kind', () => {
    const crd = base();
    (crd.spec.names as Record<string, unknown>) = { plural: 'gadgets', kind: 'Gadget' };
    defaultCustomResourceDefinition(crd);
    expect(crd.spec.names).toEqual({
      plural: 'gadgets',
      kind: 'Gadget',
      singular: 'gadget',
      listKind: 'GadgetList',
    });
    expect((crd.spec as Record<string, unknown>).conversion).toEqual({ strategy: 'None' });
  });

  it.each<[string, (c: Crd) => void, string]>([
    [
      'the group',
      (c) => (c.spec.group = 'example.net'),
      'spec.group: Invalid value: "example.net": field is immutable',
    ],
    [
      'the plural',
      (c) => ((c.spec.names as Record<string, string>).plural = 'gizmos'),
      'spec.names.plural: Invalid value: "gizmos": field is immutable',
    ],
    [
      'the scope once established',
      (c) => (c.spec.scope = 'Namespaced'),
      'spec.scope: Invalid value: "Namespaced": field is immutable',
    ],
    [
      'a stored version dropped from spec.versions',
      (c) => {
        c.spec.versions[0]!.name = 'v1';
        (c as Record<string, unknown>).status = { storedVersions: ['v1alpha1', 'v1'] };
      },
      'status.storedVersions[0]: Invalid value: "v1alpha1": must appear in spec.versions',
    ],
  ])('on update, refuses changing %s', (_name, change, expected) => {
    const old = {
      ...base(),
      status: { conditions: [{ type: 'Established', status: 'True' }] },
    } as KubeObject;
    const crd = base();
    change(crd);
    expect(lines(crd, old).join('\n')).toContain(expected);
  });
});

describe('validateStructuralSchema', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';
  const lines2 = (s: JSONSchemaProps) =>
    validateStructuralSchema(s, at).map((c) => `${c.field}: ${c.message}`);
  it.each<[string, JSONSchemaProps, string[]]>([
    [
      'a structural schema',
      { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
      [],
    ],
    [
      'a field without a type',
      { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } },
      [`${at}.properties[spec].type: Required value: must not be empty for specified object fields`],
    ],
    [
      'array items without a type',
      { type: 'object', properties: { l: { type: 'array', items: {} } } },
      [`${at}.properties[l].items.type: Required value: must not be empty for specified array items`],
    ],
    [
      'an array without items',
      { type: 'object', properties: { l: { type: 'array' } } },
      [`${at}.properties[l].items: Required value: must be specified`],
    ],
    [
      'a root that is not an object',
      { type: 'string' },
      [`${at}.type: Invalid value: "string": must be object at the root`],
    ],
    [
      'a root without type',
      { properties: {} },
      [`${at}.type: Required value: must not be empty at the root`],
    ],
    [
      'additionalProperties at the root',
      { type: 'object', additionalProperties: { type: 'string' } },
      [`${at}.additionalProperties: Forbidden: must not be used at the root`],
    ],
    [
      'properties and additionalProperties together',
      {
        type: 'object',
        properties: {
          m: {
            type: 'object',
            properties: { a: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        },
      },
      [
        `${at}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      ],
    ],
    [
      'metadata with more than name',
      {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      },
      [
        `${at}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      ],
    ],
    [
      'metadata with only a name rule',
      {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } },
      },
      [],
    ],
    [
      'a type inside anyOf',
      { type: 'object', properties: { v: { type: 'string', anyOf: [{ type: 'string' }] } } },
      [`${at}.properties[v].anyOf[0].type: Forbidden: must be empty to be structural`],
    ],
    [
      'the int-or-string anyOf pattern',
      {
        type: 'object',
        properties: {
          p: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        },
      },
      [],
    ],
    [
      'an embedded resource that is not an object',
      { type: 'object', properties: { t: { type: 'string', 'x-kubernetes-embedded-resource': true } } },
      [
        `${at}.properties[t].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
        `${at}.properties[t].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
      ],
    ],
    [
      'preserve-unknown-fields false',
      { type: 'object', 'x-kubernetes-preserve-unknown-fields': false },
      [`${at}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`],
    ],
    [
      'uniqueItems',
      { type: 'object', properties: { l: { type: 'array', uniqueItems: true, items: { type: 'string' } } } },
      [
        `${at}.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      ],
    ],
    [
      'a default of the wrong type',
      { type: 'object', properties: { n: { type: 'integer', default: 'one' } } },
      [`${at}.properties[n].default: Invalid value: "string": . in body must be of type integer: "string"`],
    ],
    [
      'a default with unknown fields',
      {
        type: 'object',
        properties: {
          o: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } },
        },
      },
      [`${at}.properties[o].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields`],
    ],
    [
      'a bad list type',
      {
        type: 'object',
        properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } },
      },
      [
        `${at}.properties[l].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
      ],
    ],
  ])('%s', (_name, schema, expected) => {
    expect(lines2(schema)).toEqual(expected);
  });

  it('accepts CEL rules without evaluating them', () => {
    expect(
      lines2({
        type: 'object',
        properties: { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 1' }] } },
      }),
    ).toEqual([]);
  });
});
