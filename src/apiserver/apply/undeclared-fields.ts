// The fields of an applied configuration its kind's schema does not declare (structured-merge-diff refuses them).
import { type FieldPath, fieldElement, indexElement, type PathElement } from './field-set.ts';
import type { ApplySchema, FieldType } from './field-type.ts';
import { itemElement } from './typed-value.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Walks `value` against `schema` and returns the path of every field the schema does not declare, printed
 * by list keys where the list has them (`.spec.template.spec.containers[name="c"].imagePullPolice`). A schema
 * that keeps unknown fields, a map (`additionalProperties`) and an object schema that lists no properties at
 * all accept anything; a schema that cannot be resolved accepts anything too (the check never refuses what it
 * cannot read).
 * @param resolve follows a `$ref`
 */
export function undeclaredFields(
  value: unknown,
  schema: ApplySchema | undefined,
  resolve: (schema: ApplySchema) => ApplySchema | undefined,
  type: FieldType,
): FieldPath[] {
  const out: FieldPath[] = [];
  const concrete = (s: ApplySchema | undefined): ApplySchema | undefined => {
    for (let hops = 0; s && hops < 16; hops++) {
      if (s.$ref) s = resolve(s);
      else if (s.allOf?.length === 1 && !s.properties && !s.type) s = s.allOf[0];
      else return s;
    }
    return undefined;
  };
  const walk = (v: unknown, sch: ApplySchema | undefined, t: FieldType, path: PathElement[]): void => {
    const s = concrete(sch);
    if (!s || s['x-kubernetes-preserve-unknown-fields'] === true) return;
    if (isObject(v)) {
      const props = s.properties;
      const extra = s.additionalProperties;
      if (!props && (extra === undefined || extra === true)) return;
      for (const [k, child] of Object.entries(v)) {
        const p = [...path, fieldElement(k)];
        const declared = props?.[k] ?? (isObject(extra) ? (extra as ApplySchema) : undefined);
        if (!declared) {
          if (extra !== true) out.push(p);
          continue;
        }
        walk(child, declared, t.field(k), p);
      }
      return;
    }
    if (Array.isArray(v) && s.items) {
      const list = t.list();
      v.forEach((item, i) => {
        let pe: PathElement;
        try {
          pe = list.type === 'atomic' ? indexElement(i) : itemElement(list, item, i, path);
        } catch {
          pe = indexElement(i);
        }
        walk(item, s.items, t.item(), [...path, pe]);
      });
    }
  };
  walk(value, schema, type, []);
  return out;
}
