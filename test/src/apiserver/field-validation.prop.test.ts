// Properties of field validation: pruning leaves nothing to report, is idempotent, and the scanner is total.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldProblems, pruneUnknownFields } from '../../../src/apiserver/field-validation.ts';
import { OpenApiSchemas } from '../../../src/apiserver/openapi/index.ts';
import { decodeObject, encodeObject } from '../../../src/apiserver/protobuf/object-codec.ts';
import { kubeObjectArb } from './protobuf/arb-kube-json.ts';

const schemas = new OpenApiSchemas();
const RUNS = Number(process.env.FIELD_VALIDATION_PROP_RUNS ?? 60);
const KINDS = [
  ['v1', 'Pod', 'core/v1.Pod', 'io.k8s.api.core.v1.Pod'],
  ['apps/v1', 'Deployment', 'apps/v1.Deployment', 'io.k8s.api.apps.v1.Deployment'],
  ['v1', 'Service', 'core/v1.Service', 'io.k8s.api.core.v1.Service'],
  ['batch/v1', 'CronJob', 'batch/v1.CronJob', 'io.k8s.api.batch.v1.CronJob'],
] as const;

/** Adds `junk` under keys named `zz<n>` at objects picked by `picks` (indexes into the objects found). */
function withJunk(value: unknown, picks: number[], junk: unknown): unknown {
  const copy = structuredClone(value);
  const objects: Record<string, unknown>[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      objects.push(v as Record<string, unknown>);
      Object.values(v).forEach(walk);
    }
  };
  walk(copy);
  picks.forEach((p, i) => {
    objects[p % objects.length]![`zz${i}`] = junk;
  });
  return copy;
}

describe('field validation properties', () => {
  it.each(KINDS)(
    '%s %s: after pruning nothing is unknown, and pruning again changes nothing',
    (apiVersion, kind, message, name) => {
      const schema = schemas.schema(name)!;
      fc.assert(
        fc.property(
          kubeObjectArb(apiVersion, kind, message, 'canonical', 3),
          fc.array(fc.nat(), { maxLength: 4 }),
          fc.jsonValue({ maxDepth: 2 }),
          (x, picks, junk) => {
            const dirty = withJunk(decodeObject(encodeObject(x)), picks, junk);
            const pruned = pruneUnknownFields(structuredClone(dirty), schema, schemas);
            expect(fieldProblems(JSON.stringify(pruned), schema, schemas)).toEqual([]);
            expect(pruneUnknownFields(structuredClone(pruned), schema, schemas)).toEqual(pruned);
            // Every finding in the dirty object is an unknown field (no duplicates in stringified JSON).
            for (const f of fieldProblems(JSON.stringify(dirty), schema, schemas))
              expect(f).toMatch(/^unknown field "/);
          },
        ),
        { numRuns: RUNS },
      );
    },
  );

  it('finds no duplicate in any JSON a serializer writes, and never throws on any text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, text) => {
        expect(fieldProblems(JSON.stringify(value), undefined, schemas)).toEqual([]);
        expect(() => fieldProblems(text, schemas.schema('io.k8s.api.core.v1.Pod'), schemas)).not.toThrow();
      }),
      { numRuns: RUNS * 5 },
    );
  });

  it('reports a key written twice in an object as a duplicate at its path', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), {
          minKeys: 1,
        }),
        fc.nat(),
        (object, pick) => {
          const keys = Object.keys(object);
          const key = keys[pick % keys.length]!;
          const text = `{"a":{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(object[k])}`).join(',')},${JSON.stringify(key)}:1}}`;
          expect(fieldProblems(text, undefined, schemas)).toEqual([
            `duplicate field ${JSON.stringify(`a.${key}`)}`,
          ]);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});
