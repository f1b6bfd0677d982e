// Apply/update sequences from structured-merge-diff's merge tests (leaf, key, multiple appliers, nested), in our words.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../../../operators/types.ts';
import { ApiStatusError } from '../../../../src/apiserver/api-status.ts';
import { FieldManager, type ManagedFieldsEntry } from '../../../../src/apiserver/apply/field-manager.ts';
import { FieldSet, pathToString } from '../../../../src/apiserver/apply/field-set.ts';
import { type ApplySchema, customResourceFieldType } from '../../../../src/apiserver/apply/field-type.ts';
import type { ResourceDef } from '../../../../src/apiserver/resource-table.ts';

/** A made-up kind whose schema has each kind of field the merge tests use. */
const THING = {
  group: 'example.com',
  version: 'v1',
  resource: 'things',
  kind: 'Thing',
  namespaced: false,
  subresources: [],
} as unknown as ResourceDef;

const keyedByName = (value: ApplySchema): ApplySchema => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
  items: { type: 'object', properties: { name: { type: 'string' }, value } },
});

const SCHEMA: ApplySchema = {
  type: 'object',
  properties: {
    numeric: { type: 'number' },
    string: { type: 'string' },
    bool: { type: 'boolean' },
    list: keyedByName({ type: 'number' }),
    listOfLists: keyedByName({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }),
    set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    atomicList: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
    struct: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        scalarField: { type: 'string' },
        complexField: { type: 'object', properties: { name: { type: 'string' } } },
      },
    },
    atomicMap: {
      type: 'object',
      'x-kubernetes-map-type': 'atomic',
      additionalProperties: { type: 'string' },
    },
    containerPorts: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      items: {
        type: 'object',
        properties: {
          port: { type: 'integer' },
          protocol: { type: 'string', default: 'TCP' },
          name: { type: 'string' },
        },
      },
    },
  },
};

type Op = { op: 'apply' | 'force' | 'update'; manager: string; object: string; conflicts?: string[] };

interface Scenario {
  name: string;
  ops: Op[];
  /** The object at the end, without apiVersion, kind and metadata. */
  object: string;
  /** Each manager's fields at the end, printed as conflict messages print paths. */
  managed: Record<string, string[]>;
}

/** Runs the operations as the registry would, keeping the stored object between them. */
function run(ops: Op[]): { object: KubeObject | undefined } {
  const fm = new FieldManager();
  fm.useSchemas((def) => (def === THING ? customResourceFieldType(SCHEMA) : undefined));
  let live: KubeObject | undefined;
  let second = 0;
  for (const o of ops) {
    const body = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'it' },
      ...(parse(o.object) ?? {}),
    };
    const w = {
      def: THING,
      manager: o.manager,
      time: new Date(Date.UTC(2026, 0, 1, 0, 0, second++)).toISOString(),
    };
    if (o.op === 'update') {
      const next = { ...body, metadata: { ...body.metadata, managedFields: live?.metadata?.managedFields } };
      const entries = fm.update(w, live, next as KubeObject);
      live = { ...next, metadata: { ...next.metadata, managedFields: entries } } as KubeObject;
      continue;
    }
    try {
      live = fm.apply(w, live, body, o.op === 'force').object;
      expect(o.conflicts, `${o.manager} applies without conflicts`).toBeUndefined();
    } catch (error) {
      if (!(error instanceof ApiStatusError) || error.statusCode !== 409) throw error;
      const causes = (error.status.details?.causes ?? []).map((c) => `${c.message}: ${c.field}`);
      expect(causes).toEqual(o.conflicts);
    }
  }
  return { object: live };
}

function managedOf(object: KubeObject | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of (object?.metadata?.managedFields ?? []) as ManagedFieldsEntry[])
    out[e.manager!] = FieldSet.fromFieldsV1(e.fieldsV1)
      .paths()
      .map((p) => pathToString(p));
  return out;
}

function contentOf(object: KubeObject | undefined): unknown {
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = (object ?? {}) as Record<string, unknown>;
  return rest;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'one applier applying twice owns what it applied last',
    ops: [
      { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: s' },
      { op: 'apply', manager: 'default', object: 'numeric: 2\nstring: s\nbool: false' },
    ],
    object: 'numeric: 2\nstring: s\nbool: false',
    managed: { default: ['.bool', '.numeric', '.string'] },
  },
  {
    name: 'an updater adding a field does not conflict with a later apply of other fields',
    ops: [
      { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: s' },
      { op: 'update', manager: 'controller', object: 'numeric: 1\nstring: s\nbool: true' },
      { op: 'apply', manager: 'default', object: 'numeric: 2\nstring: s' },
    ],
    object: 'numeric: 2\nstring: s\nbool: true',
    managed: { default: ['.numeric', '.string'], controller: ['.bool'] },
  },
  {
    name: 'an apply changing a field an updater took conflicts; forcing takes it back',
    ops: [
      { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: s' },
      { op: 'update', manager: 'controller', object: 'numeric: 1\nstring: controller string\nbool: true' },
      {
        op: 'apply',
        manager: 'default',
        object: 'numeric: 2\nstring: user string',
        conflicts: ['conflict with "controller" using example.com/v1: .string'],
      },
      { op: 'force', manager: 'default', object: 'numeric: 2\nstring: user string' },
    ],
    object: 'numeric: 2\nstring: user string\nbool: true',
    managed: { default: ['.numeric', '.string'], controller: ['.bool'] },
  },
  {
    name: 'fields an applier stops applying are removed',
    ops: [
      { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: s\nbool: false' },
      { op: 'apply', manager: 'default', object: 'string: new string' },
    ],
    object: 'string: new string',
    managed: { default: ['.string'] },
  },
  {
    name: 'a field an updater took stays when the applier drops it',
    ops: [
      { op: 'apply', manager: 'default', object: 'numeric: 2' },
      { op: 'update', manager: 'controller', object: 'numeric: 1' },
      { op: 'apply', manager: 'default', object: '' },
    ],
    object: 'numeric: 1',
    managed: { controller: ['.numeric'] },
  },
  {
    name: 'an updater changing every applied field leaves the applier nothing',
    ops: [
      { op: 'apply', manager: 'default', object: 'string: s' },
      { op: 'update', manager: 'controller', object: 'string: new string' },
    ],
    object: 'string: new string',
    managed: { controller: ['.string'] },
  },
  {
    name: 'applying nothing after something removes it all',
    ops: [
      { op: 'apply', manager: 'default', object: 'string: s' },
      { op: 'apply', manager: 'default', object: '' },
    ],
    object: '{}',
    managed: {},
  },
  {
    name: 'an item of a keyed list no longer applied is removed',
    ops: [
      { op: 'apply', manager: 'default', object: 'list: [{name: a, value: 1}]' },
      { op: 'apply', manager: 'default', object: 'list: [{name: b, value: 2}]' },
    ],
    object: 'list: [{name: b, value: 2}]',
    managed: { default: ['.list[name="b"]', '.list[name="b"].name', '.list[name="b"].value'] },
  },
  {
    name: 'two appliers of one keyed list each keep their items',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'list: [{name: a}, {name: b}]' },
      { op: 'apply', manager: 'apply-two', object: 'list: [{name: c}]' },
      { op: 'apply', manager: 'apply-one', object: 'list: [{name: a}]' },
    ],
    object: 'list: [{name: a}, {name: c}]',
    managed: {
      'apply-one': ['.list[name="a"]', '.list[name="a"].name'],
      'apply-two': ['.list[name="c"]', '.list[name="c"].name'],
    },
  },
  {
    name: 'two appliers of the same value share it',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'list: [{name: a, value: 0}]' },
      { op: 'apply', manager: 'apply-two', object: 'list: [{name: a, value: 0}]' },
    ],
    object: 'list: [{name: a, value: 0}]',
    managed: {
      'apply-one': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
      'apply-two': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'],
    },
  },
  {
    name: 'a second applier changing a shared item value conflicts and changes nothing',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'list: [{name: a, value: 0}]' },
      {
        op: 'apply',
        manager: 'apply-two',
        object: 'list: [{name: a, value: 1}]',
        conflicts: ['conflict with "apply-one": .list[name="a"].value'],
      },
    ],
    object: 'list: [{name: a, value: 0}]',
    managed: { 'apply-one': ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'] },
  },
  {
    name: 'an item another applier also applies survives when the first drops it',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'list: [{name: a}, {name: b}, {name: c}]' },
      { op: 'apply', manager: 'apply-two', object: 'list: [{name: c}, {name: d}]' },
      { op: 'apply', manager: 'apply-one', object: 'list: [{name: a}]' },
    ],
    object: 'list: [{name: a}, {name: c}, {name: d}]',
    managed: {
      'apply-one': ['.list[name="a"]', '.list[name="a"].name'],
      'apply-two': ['.list[name="c"]', '.list[name="d"]', '.list[name="c"].name', '.list[name="d"].name'],
    },
  },
  {
    name: 'a scalar its sole applier drops goes',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a, scalarField: a}' },
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a}',
    managed: { 'apply-one': ['.struct.name'] },
  },
  {
    name: 'a scalar shared with another applier stays',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a, scalarField: a}' },
      { op: 'apply', manager: 'apply-two', object: 'struct: {scalarField: a}' },
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a, scalarField: a}',
    managed: { 'apply-one': ['.struct.name'], 'apply-two': ['.struct.scalarField'] },
  },
  {
    name: 'a scalar shared with an updater stays; the updater also owns the struct it created',
    ops: [
      { op: 'update', manager: 'updater', object: 'struct: {name: a, scalarField: a}' },
      { op: 'apply', manager: 'applier', object: 'struct: {name: a, scalarField: a}' },
      { op: 'apply', manager: 'applier', object: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a, scalarField: a}',
    managed: { applier: ['.struct.name'], updater: ['.struct', '.struct.name', '.struct.scalarField'] },
  },
  {
    name: 'an updater changing an applied value claims it',
    ops: [
      { op: 'apply', manager: 'applier', object: 'struct: {name: a, scalarField: a}' },
      { op: 'update', manager: 'updater', object: 'struct: {name: a, scalarField: b}' },
    ],
    object: 'struct: {name: a, scalarField: b}',
    managed: { applier: ['.struct.name'], updater: ['.struct.scalarField'] },
  },
  {
    name: 'a nested struct its sole applier drops goes whole',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a, complexField: {name: b}}' },
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a}',
    managed: { 'apply-one': ['.struct.name'] },
  },
  {
    name: 'a nested struct shared with another applier stays',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a, complexField: {name: b}}' },
      { op: 'apply', manager: 'apply-two', object: 'struct: {complexField: {name: b}}' },
      { op: 'apply', manager: 'apply-one', object: 'struct: {name: a}' },
    ],
    object: 'struct: {name: a, complexField: {name: b}}',
    managed: { 'apply-one': ['.struct.name'], 'apply-two': ['.struct.complexField.name'] },
  },
  {
    name: 'a sub-list item its applier drops goes, another applier keeps the item',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'listOfLists: [{name: a}, {name: b, value: [c]}]' },
      { op: 'apply', manager: 'apply-two', object: 'listOfLists: [{name: b, value: [d]}]' },
      { op: 'apply', manager: 'apply-one', object: 'listOfLists: [{name: a}]' },
    ],
    object: 'listOfLists: [{name: a}, {name: b, value: [d]}]',
    managed: {
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': [
        '.listOfLists[name="b"]',
        '.listOfLists[name="b"].name',
        '.listOfLists[name="b"].value[="d"]',
      ],
    },
  },
  {
    name: 'an updater owning one value of a kept item keeps that value',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'listOfLists: [{name: a}, {name: b, value: [c]}]' },
      { op: 'apply', manager: 'apply-two', object: 'listOfLists: [{name: b, value: [d]}]' },
      {
        op: 'update',
        manager: 'controller',
        object: 'listOfLists: [{name: a}, {name: b, value: [c, d, e]}]',
      },
      { op: 'apply', manager: 'apply-one', object: 'listOfLists: [{name: a}]' },
    ],
    object: 'listOfLists: [{name: a}, {name: b, value: [d, e]}]',
    managed: {
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': [
        '.listOfLists[name="b"]',
        '.listOfLists[name="b"].name',
        '.listOfLists[name="b"].value[="d"]',
      ],
      controller: ['.listOfLists[name="b"].value[="e"]'],
    },
  },
  {
    name: 'an item whose only other owner holds part of it goes with its applier',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'listOfLists: [{name: a}, {name: b, value: [c]}]' },
      { op: 'apply', manager: 'apply-two', object: 'listOfLists: [{name: a, value: [b]}]' },
      {
        op: 'update',
        manager: 'controller',
        object: 'listOfLists: [{name: a, value: [b]}, {name: b, value: [c, d]}]',
      },
      { op: 'apply', manager: 'apply-one', object: 'listOfLists: [{name: a}]' },
    ],
    object: 'listOfLists: [{name: a, value: [b]}]',
    managed: {
      'apply-one': ['.listOfLists[name="a"]', '.listOfLists[name="a"].name'],
      'apply-two': [
        '.listOfLists[name="a"]',
        '.listOfLists[name="a"].name',
        '.listOfLists[name="a"].value[="b"]',
      ],
    },
  },
  {
    name: 'a set merges by value and keeps values of other appliers',
    ops: [
      { op: 'apply', manager: 'one', object: 'set: [a, b]' },
      { op: 'apply', manager: 'two', object: 'set: [c, b]' },
      { op: 'apply', manager: 'one', object: 'set: [a]' },
    ],
    object: 'set: [a, c, b]',
    managed: { one: ['.set[="a"]'], two: ['.set[="b"]', '.set[="c"]'] },
  },
  {
    name: "set: an apply adding values around an updater's keeps the live order, new values after their neighbours",
    ops: [
      { op: 'apply', manager: 'default', object: 'set: [a, c]' },
      { op: 'update', manager: 'controller', object: 'set: [a, b, c, d]' },
      { op: 'apply', manager: 'default', object: 'set: [a, aprime, c, cprime]' },
    ],
    object: 'set: [a, b, aprime, c, d, cprime]',
    managed: {
      default: ['.set[="a"]', '.set[="aprime"]', '.set[="c"]', '.set[="cprime"]'],
      controller: ['.set[="b"]', '.set[="d"]'],
    },
  },
  {
    name: 'set: an applier taking up a value an updater added shares it',
    ops: [
      { op: 'apply', manager: 'default', object: 'set: [a, c]' },
      { op: 'update', manager: 'controller', object: 'set: [a, b, c, d]' },
      { op: 'apply', manager: 'default', object: 'set: [a, b, c]' },
    ],
    object: 'set: [a, b, c, d]',
    managed: {
      default: ['.set[="a"]', '.set[="b"]', '.set[="c"]'],
      controller: ['.set[="b"]', '.set[="d"]'],
    },
  },
  {
    name: 'set: applying the same values in another order reorders them',
    ops: [
      { op: 'apply', manager: 'default', object: 'set: [a, b, c, d]' },
      { op: 'apply', manager: 'default', object: 'set: [a, d, c, b]' },
    ],
    object: 'set: [a, d, c, b]',
    managed: { default: ['.set[="a"]', '.set[="b"]', '.set[="c"]', '.set[="d"]'] },
  },
  {
    name: 'set: an updater reordering takes nothing, and the next apply restores its order',
    ops: [
      { op: 'apply', manager: 'default', object: 'set: [a, b, c, d]' },
      { op: 'update', manager: 'controller', object: 'set: [a, d, c, b]' },
      { op: 'apply', manager: 'default', object: 'set: [a, b, c, d]' },
    ],
    object: 'set: [a, b, c, d]',
    managed: { default: ['.set[="a"]', '.set[="b"]', '.set[="c"]', '.set[="d"]'] },
  },
  {
    name: 'set: values an applier drops go',
    ops: [
      { op: 'apply', manager: 'default', object: 'set: [a, b, c, d]' },
      { op: 'apply', manager: 'default', object: 'set: [a, c]' },
    ],
    object: 'set: [a, c]',
    managed: { default: ['.set[="a"]', '.set[="c"]'] },
  },
  {
    name: 'list of lists: a changed inner value is replaced in place',
    ops: [
      { op: 'apply', manager: 'default', object: 'listOfLists: [{name: a, value: [b, c]}]' },
      { op: 'apply', manager: 'default', object: 'listOfLists: [{name: a, value: [a, c]}]' },
    ],
    object: 'listOfLists: [{name: a, value: [a, c]}]',
    managed: {
      default: [
        '.listOfLists[name="a"]',
        '.listOfLists[name="a"].name',
        '.listOfLists[name="a"].value[="a"]',
        '.listOfLists[name="a"].value[="c"]',
      ],
    },
  },
  {
    name: 'list of lists: a changed key is a new item, the old one goes',
    ops: [
      { op: 'apply', manager: 'default', object: 'listOfLists: [{name: a, value: [b, c]}]' },
      { op: 'apply', manager: 'default', object: 'listOfLists: [{name: b, value: [a, c]}]' },
    ],
    object: 'listOfLists: [{name: b, value: [a, c]}]',
    managed: {
      default: [
        '.listOfLists[name="b"]',
        '.listOfLists[name="b"].name',
        '.listOfLists[name="b"].value[="a"]',
        '.listOfLists[name="b"].value[="c"]',
      ],
    },
  },
  {
    name: 'default keys: an item without its defaulted key field is keyed by the default',
    ops: [
      { op: 'apply', manager: 'default', object: 'containerPorts: [{port: 80}, {port: 80, protocol: UDP}]' },
    ],
    object: 'containerPorts: [{port: 80}, {port: 80, protocol: UDP}]',
    managed: {
      default: [
        '.containerPorts[port=80,protocol="TCP"]',
        '.containerPorts[port=80,protocol="UDP"]',
        '.containerPorts[port=80,protocol="TCP"].port',
        '.containerPorts[port=80,protocol="UDP"].port',
        '.containerPorts[port=80,protocol="UDP"].protocol',
      ],
    },
  },
  {
    name: 'default keys: the defaulted key names the same item as the explicit one (a conflict)',
    ops: [
      { op: 'apply', manager: 'apply-one', object: 'containerPorts: [{port: 80, protocol: TCP, name: foo}]' },
      {
        op: 'apply',
        manager: 'apply-two',
        object: 'containerPorts: [{port: 80, name: bar}]',
        conflicts: ['conflict with "apply-one": .containerPorts[port=80,protocol="TCP"].name'],
      },
    ],
    object: 'containerPorts: [{port: 80, protocol: TCP, name: foo}]',
    managed: {
      'apply-one': [
        '.containerPorts[port=80,protocol="TCP"]',
        '.containerPorts[port=80,protocol="TCP"].name',
        '.containerPorts[port=80,protocol="TCP"].port',
        '.containerPorts[port=80,protocol="TCP"].protocol',
      ],
    },
  },
  {
    name: 'struct: applying nothing after a struct removes it all',
    ops: [
      { op: 'apply', manager: 'default', object: 'struct: {name: a, scalarField: b}' },
      { op: 'apply', manager: 'default', object: '' },
    ],
    object: '{}',
    managed: {},
  },
  {
    name: 'struct: what an updater added stays when the applier drops the struct',
    ops: [
      { op: 'apply', manager: 'default', object: 'struct: {name: a}' },
      { op: 'update', manager: 'controller', object: 'struct: {name: a, scalarField: b}' },
      { op: 'apply', manager: 'default', object: '' },
    ],
    object: 'struct: {scalarField: b}',
    managed: { controller: ['.struct.scalarField'] },
  },
  {
    name: 'struct: applying it empty keeps it, owned, with what others hold',
    ops: [
      { op: 'apply', manager: 'default', object: 'struct: {name: a}' },
      { op: 'update', manager: 'controller', object: 'struct: {name: a, scalarField: b}' },
      { op: 'apply', manager: 'default', object: 'struct: {}' },
    ],
    object: 'struct: {scalarField: b}',
    managed: { default: ['.struct'], controller: ['.struct.scalarField'] },
  },
  {
    name: 'struct: applying it null merges as empty',
    ops: [
      { op: 'apply', manager: 'default', object: 'struct: {name: a}' },
      { op: 'update', manager: 'controller', object: 'struct: {name: a, scalarField: b}' },
      { op: 'apply', manager: 'default', object: 'struct: null' },
    ],
    object: 'struct: {scalarField: b}',
    managed: { default: ['.struct'], controller: ['.struct.scalarField'] },
  },
  {
    name: 'struct: a value an updater took over stays when the applier lets go',
    ops: [
      { op: 'apply', manager: 'default', object: 'struct: {name: a}' },
      { op: 'update', manager: 'controller', object: 'struct: {name: b, scalarField: c}' },
      { op: 'apply', manager: 'default', object: 'struct: null' },
    ],
    object: 'struct: {name: b, scalarField: c}',
    managed: { default: ['.struct'], controller: ['.struct.name', '.struct.scalarField'] },
  },
  {
    name: 'an atomic list is one field: a different list conflicts',
    ops: [
      { op: 'apply', manager: 'one', object: 'atomicList: [a, b]' },
      {
        op: 'apply',
        manager: 'two',
        object: 'atomicList: [a]',
        conflicts: ['conflict with "one": .atomicList'],
      },
      { op: 'force', manager: 'two', object: 'atomicList: [a]' },
    ],
    object: 'atomicList: [a]',
    managed: { two: ['.atomicList'] },
  },
  {
    name: 'an atomic map is replaced whole',
    ops: [
      { op: 'apply', manager: 'one', object: 'atomicMap: {a: x, b: y}' },
      { op: 'apply', manager: 'one', object: 'atomicMap: {c: z}' },
    ],
    object: 'atomicMap: {c: z}',
    managed: { one: ['.atomicMap'] },
  },
];

describe('server-side apply scenarios (structured-merge-diff merge tests)', () => {
  it.each(SCENARIOS)('$name', ({ ops, object, managed }) => {
    const out = run(ops).object;
    expect(contentOf(out)).toEqual(parse(object));
    expect(managedOf(out)).toEqual(managed);
  });
});
