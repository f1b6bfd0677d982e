// FieldSet contracts: the FieldsV1 round trip and set algebra agree with path membership.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type FieldPath,
  FieldSet,
  fieldElement,
  indexElement,
  keyElement,
  pathToString,
  valueElement,
} from '../../../../src/apiserver/apply/field-set.ts';

const element = fc.oneof(
  fc.constantFrom('spec', 'metadata', 'a', 'b', 'containers').map(fieldElement),
  fc.constantFrom('x', 'y').map((name) => keyElement({ name })),
  fc.constantFrom('v1', 'v2').map(valueElement),
  fc.integer({ min: 0, max: 3 }).map(indexElement),
);
const path = fc.array(element, { minLength: 1, maxLength: 4 });
const paths = fc.array(path, { maxLength: 12 });
const key = (p: FieldPath) => JSON.stringify(p);
const members = (s: FieldSet) => new Set(s.paths().map(key));

describe('FieldSet', () => {
  it('FieldsV1 out and back gives the same set, and the same JSON', () => {
    fc.assert(
      fc.property(paths, (ps) => {
        const s = FieldSet.of(...ps);
        const back = FieldSet.fromFieldsV1(JSON.parse(JSON.stringify(s.toFieldsV1())));
        expect(back.equals(s)).toBe(true);
        expect(members(back)).toEqual(new Set(ps.map(key)));
      }),
    );
  });

  it('union, intersection and difference are the set operations on member paths', () => {
    fc.assert(
      fc.property(paths, paths, (a, b) => {
        const sa = FieldSet.of(...a);
        const sb = FieldSet.of(...b);
        const ka = new Set(a.map(key));
        const kb = new Set(b.map(key));
        expect(members(sa.union(sb))).toEqual(new Set([...ka, ...kb]));
        expect(members(sa.intersection(sb))).toEqual(new Set([...ka].filter((k) => kb.has(k))));
        expect(members(sa.difference(sb))).toEqual(new Set([...ka].filter((k) => !kb.has(k))));
        // recursiveDifference also drops whatever lies below a member of the other set
        const below = (p: string) => [...kb].some((q) => p === q || p.startsWith(`${q.slice(0, -1)},`));
        expect(members(sa.recursiveDifference(sb))).toEqual(new Set([...ka].filter((k) => !below(k))));
      }),
    );
  });

  it('every member prints as a path and has itself as prefix', () => {
    fc.assert(
      fc.property(paths, (ps) => {
        const s = FieldSet.of(...ps);
        for (const p of s.paths()) {
          expect(s.has(p)).toBe(true);
          expect(s.hasPrefix(p.slice(0, 1))).toBe(true);
          expect(pathToString(p).length).toBeGreaterThan(0);
        }
      }),
    );
  });
});
