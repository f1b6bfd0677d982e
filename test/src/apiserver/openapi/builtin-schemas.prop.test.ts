// Properties: every field of any object of any served kind is in its schema; unknown fields are found and pruned.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldProblems, pruneUnknownFields } from '../../../../src/apiserver/field-validation.ts';
import { OpenApiSchemas } from '../../../../src/apiserver/openapi/index.ts';
import { decodeObject, encodeObject } from '../../../../src/apiserver/protobuf/object-codec.ts';
import { protobufKinds } from '../../../../src/apiserver/protobuf/protobuf-kinds.ts';
import { kubeObjectArb } from '../protobuf/arb-kube-json.ts';

const schemas = new OpenApiSchemas();
const RUNS = Number(process.env.OPENAPI_PROP_RUNS ?? 15);
const KINDS = protobufKinds().filter((k) => !k.kind.endsWith('List'));

function kindSchema(apiVersion: string, kind: string) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return schemas.schema(schemas.kindSchemaName(group!, version!, kind)!);
}

/** Every path to a plain object inside `value` (the root included), as [parent keys...]. */
function objectPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...at, i]));
  if (value === null || typeof value !== 'object') return [];
  return [at, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...at, k]))];
}

function pathText(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p),
    '',
  );
}

describe('built-in schemas against the protobuf round trip', () => {
  it.each(KINDS.map((k) => [`${k.apiVersion} ${k.kind}`, k] as const))(
    '%s: every field of a round-tripped object is known, and pruning keeps it whole',
    (_, k) => {
      const schema = kindSchema(k.apiVersion, k.kind);
      fc.assert(
        fc.property(kubeObjectArb(k.apiVersion, k.kind, k.message, 'loose'), (x) => {
          const object = decodeObject(encodeObject(x));
          expect(fieldProblems(JSON.stringify(object), schema, schemas)).toEqual([]);
          expect(pruneUnknownFields(structuredClone(object), schema, schemas)).toEqual(object);
        }),
        { numRuns: RUNS },
      );
    },
  );

  it.each(KINDS.map((k) => [`${k.apiVersion} ${k.kind}`, k] as const))(
    '%s: a field added anywhere a struct is (not a map or a free-form object) is the one reported, and pruned',
    (_, k) => {
      const schema = kindSchema(k.apiVersion, k.kind);
      fc.assert(
        fc.property(kubeObjectArb(k.apiVersion, k.kind, k.message, 'canonical'), fc.nat(), (x, pick) => {
          const object = decodeObject(encodeObject(x));
          // Candidates: objects whose every key is known, i.e. structs (maps accept any key).
          const candidates = objectPaths(object).filter((p) => {
            const probe = structuredClone(object);
            const target = p.reduce<Record<string | number, unknown>>(
              (o, key) => o[key] as never,
              probe as never,
            );
            target.zzNotAField = 1;
            return fieldProblems(JSON.stringify(probe), schema, schemas).length === 1;
          });
          expect(candidates.length).toBeGreaterThan(0); // the root at least
          const path = candidates[pick % candidates.length]!;
          const changed = structuredClone(object);
          const target = path.reduce<Record<string | number, unknown>>(
            (o, key) => o[key] as never,
            changed as never,
          );
          target.zzNotAField = 1;
          const at = pathText([...path, 'zzNotAField']);
          expect(fieldProblems(JSON.stringify(changed), schema, schemas)).toEqual([`unknown field "${at}"`]);
          expect(pruneUnknownFields(changed, schema, schemas)).toEqual(object);
        }),
        { numRuns: Math.max(3, Math.floor(RUNS / 3)) },
      );
    },
  );
});
