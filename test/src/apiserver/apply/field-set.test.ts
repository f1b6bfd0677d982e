// FieldSet: FieldsV1 reading and writing, printed paths and set algebra (structured-merge-diff's fieldpath tests).
import { describe, expect, it } from 'vitest';
import {
  comparePathElements,
  FieldSet,
  fieldElement,
  indexElement,
  keyElement,
  pathToString,
  valueElement,
} from '../../../../src/apiserver/apply/field-set.ts';

const f = fieldElement;

describe('path elements', () => {
  it.each([
    [[f('spec'), f('replicas')], '.spec.replicas'],
    [
      [f('spec'), f('containers'), keyElement({ name: 'nginx' }), f('image')],
      '.spec.containers[name="nginx"].image',
    ],
    [
      [f('ports'), keyElement({ protocol: 'TCP', containerPort: 80 })],
      '.ports[containerPort=80,protocol="TCP"]',
    ],
    [[f('metadata'), f('finalizers'), valueElement('a')], '.metadata.finalizers[="a"]'],
    [[f('list'), indexElement(3)], '.list[3]'],
    [[f('metadata'), f('labels'), f('app.kubernetes.io/name')], '.metadata.labels.app.kubernetes.io/name'],
  ])('%j prints as %s', (path, printed) => {
    expect(pathToString(path)).toBe(printed);
  });

  it('writes key fields sorted by name, as FieldsV1 does', () => {
    expect(keyElement({ protocol: 'TCP', containerPort: 80 })).toBe(
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
  });

  it('orders fields before keys, values and indexes', () => {
    const sorted = [
      indexElement(2),
      valueElement('x'),
      keyElement({ name: 'a' }),
      f('b'),
      f('a'),
      indexElement(10),
    ].sort(comparePathElements);
    expect(sorted).toEqual([
      f('a'),
      f('b'),
      keyElement({ name: 'a' }),
      valueElement('x'),
      indexElement(2),
      indexElement(10),
    ]);
  });
});

describe('FieldsV1', () => {
  const wire = {
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': {
      'f:containers': {
        'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} },
      },
      'f:replicas': {},
    },
  };

  it('reads members ("." and leaves) and writes the same document back', () => {
    const set = FieldSet.fromFieldsV1(wire);
    expect(set.paths().map(pathToString)).toEqual([
      '.metadata.labels',
      '.metadata.labels.app',
      '.spec.replicas',
      '.spec.containers[name="nginx"]',
      '.spec.containers[name="nginx"].image',
      '.spec.containers[name="nginx"].name',
    ]);
    expect(set.toFieldsV1()).toEqual(wire);
    expect(JSON.stringify(set.toFieldsV1())).toBe(JSON.stringify(wire));
  });

  it.each([
    [[], 'fieldsV1: expected an object'],
    [{ 'x:y': {} }, 'fieldsV1: unknown path element "x:y"'],
    [{ 'f:spec': 3 }, '.spec: expected an object'],
  ])('refuses %j naming where', (value, message) => {
    expect(() => FieldSet.fromFieldsV1(value)).toThrow(message);
  });

  it('an empty set writes as {}', () => {
    expect(FieldSet.empty().toFieldsV1()).toEqual({});
    expect(FieldSet.empty().empty).toBe(true);
  });
});

describe('set algebra', () => {
  const a = FieldSet.of([f('a')], [f('b'), f('c')], [f('b'), f('d')]);
  const b = FieldSet.of([f('b'), f('c')], [f('e')]);

  it('union, intersection and difference work path by path', () => {
    expect(a.union(b).paths().map(pathToString)).toEqual(['.a', '.e', '.b.c', '.b.d']);
    expect(a.intersection(b).paths().map(pathToString)).toEqual(['.b.c']);
    expect(a.difference(b).paths().map(pathToString)).toEqual(['.a', '.b.d']);
  });

  it('difference removes a path but not what is below it; recursiveDifference removes both', () => {
    const withParent = FieldSet.of([f('s')], [f('s'), f('x')]);
    expect(
      withParent
        .difference(FieldSet.of([f('s')]))
        .paths()
        .map(pathToString),
    ).toEqual(['.s.x']);
    expect(withParent.recursiveDifference(FieldSet.of([f('s')])).empty).toBe(true);
  });

  it('has is membership, hasPrefix is anything at or below', () => {
    expect(a.has([f('b')])).toBe(false);
    expect(a.hasPrefix([f('b')])).toBe(true);
    expect(a.has([f('b'), f('c')])).toBe(true);
    expect(a.child(f('b')).paths().map(pathToString)).toEqual(['.c', '.d']);
  });

  it('equals compares contents', () => {
    expect(a.equals(FieldSet.of([f('b'), f('d')], [f('a')], [f('b'), f('c')]))).toBe(true);
    expect(a.equals(b)).toBe(false);
  });
});
