// fast-check arbitraries of Kubernetes objects in JSON, built from the protobuf message table.
import fc from 'fast-check';
import { formatRfc3339 } from '../../../../src/apiserver/protobuf/message-codec.ts';
import type { FieldSpec, MessageSpec, ValueType } from '../../../../src/apiserver/protobuf/message-table.ts';
import { MESSAGES } from '../../../../src/apiserver/protobuf/messages.ts';

type Json = Record<string, unknown>;

/**
 * `canonical`: the JSON Go prints (every non-omitempty field present, omitempty ones absent or
 * non-zero, lists and maps absent/null or non-empty): decode(encode(x)) must equal x exactly.
 * `loose`: any subset of fields with any values, zeros and nulls included, as a client may send.
 */
export type ArbMode = 'canonical' | 'loose';

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const int64 = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const text = fc.string({ maxLength: 6, unit: 'grapheme' });
const seconds = fc.integer({ min: 0, max: 253402300799 });
const quantity = fc.stringMatching(/^[1-9][0-9]{0,3}(m|k|M|G|Ki|Mi|Gi)?$/);
// Values as JSON text carries them (JSON has no -0: it reads back as 0).
const jsonNotNull = fc
  .jsonValue({ maxDepth: 2 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
  .filter((v) => v !== null);

function scalarArb(scalar: string, nonZero: boolean): fc.Arbitrary<unknown> {
  switch (scalar) {
    case 'string':
      return nonZero ? text.filter((s) => s !== '') : text;
    case 'bool':
      return nonZero ? fc.constant(true) : fc.boolean();
    case 'bytes':
      return fc
        .uint8Array({ minLength: nonZero ? 1 : 0, maxLength: 6 })
        .map((b) => Buffer.from(b).toString('base64'));
    case 'int32':
      return nonZero ? int32.filter((n) => n !== 0) : int32;
    case 'uint32':
      return fc.integer({ min: nonZero ? 1 : 0, max: 2 ** 32 - 1 });
    case 'uint64':
      return fc.integer({ min: nonZero ? 1 : 0, max: Number.MAX_SAFE_INTEGER });
    case 'double':
    case 'float':
      return fc.integer({ min: nonZero ? 1 : 0, max: 1000 });
    default:
      return nonZero ? int64.filter((n) => n !== 0) : int64;
  }
}

function specialArb(special: string): fc.Arbitrary<unknown> {
  switch (special) {
    case 'Time':
      return seconds.map((s) => formatRfc3339(s));
    case 'MicroTime':
      return fc.tuple(seconds, fc.integer({ min: 0, max: 999_999 })).map(([s, us]) => formatRfc3339(s, us));
    case 'Quantity':
      return quantity;
    case 'IntOrString':
      return fc.oneof(int32, text);
    case 'FieldsV1':
      return fc.dictionary(fc.string({ maxLength: 4 }), jsonNotNull, { maxKeys: 3 });
    default:
      return jsonNotNull;
  }
}

/** Looser values for the same type: numbers as strings, times with offsets and fractions, numeric quantities. */
function looseScalar(scalar: string): fc.Arbitrary<unknown> {
  if (scalar === 'int32' || scalar === 'int64') return fc.oneof(scalarArb(scalar, false), int32.map(String));
  return scalarArb(scalar, false);
}

function looseSpecial(special: string): fc.Arbitrary<unknown> {
  if (special === 'Time' || special === 'MicroTime') {
    return fc.oneof(
      specialArb(special),
      fc
        .tuple(
          seconds.filter((s) => s > 86400 && s < 253402200000),
          fc.integer({ min: -12, max: 12 }),
        )
        .map(([s, h]) => {
          const local = formatRfc3339(s + h * 3600).slice(0, 19);
          const sign = h < 0 ? '-' : '+';
          return `${local}.25${sign}${String(Math.abs(h)).padStart(2, '0')}:00`;
        }),
    );
  }
  if (special === 'Quantity') return fc.oneof(quantity, fc.integer({ min: 0, max: 64 }));
  return specialArb(special);
}

function valueArb(type: ValueType, mode: ArbMode, depth: number, nonZero: boolean): fc.Arbitrary<unknown> {
  if (type.kind === 'scalar')
    return mode === 'loose' ? looseScalar(type.scalar) : scalarArb(type.scalar, nonZero);
  if (type.kind === 'special')
    return mode === 'loose' ? looseSpecial(type.special) : specialArb(type.special);
  return messageArb(MESSAGES.get(type.message), mode, depth - 1);
}

/** The field's JSON when present; undefined entry = the field may be left out. */
function fieldArb(
  f: FieldSpec,
  mode: ArbMode,
  depth: number,
): { arb: fc.Arbitrary<unknown>; required: boolean } {
  const deep = depth <= 0;
  if (mode === 'loose') {
    const one =
      deep && f.value.kind === 'message' ? fc.constant(null) : valueArb(f.value, mode, depth, false);
    if (f.mapKey) return { arb: fc.dictionary(text, one, { maxKeys: 2 }), required: false };
    if (f.repeated) return { arb: fc.array(one, { maxLength: 2 }), required: false };
    return {
      arb: fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: one }),
      required: false,
    };
  }
  const wrapper = f.value.kind === 'message' && MESSAGES.get(f.value.message).wrapper;
  if (f.mapKey || f.repeated) {
    const el = wrapper ? fc.constant(null) : valueArb(f.value, mode, depth, false);
    const some = f.mapKey
      ? fc.dictionary(text, el, { minKeys: 1, maxKeys: 2 })
      : fc.array(el, { minLength: 1, maxLength: 2 });
    if (f.always)
      return { arb: deep ? fc.constant(null) : fc.oneof(fc.constant(null), some), required: true };
    return { arb: some, required: false };
  }
  if (f.pointer) {
    const v = valueArb(f.value, mode, depth, false);
    if (f.always) return { arb: deep ? fc.constant(null) : fc.oneof(fc.constant(null), v), required: true };
    return { arb: v, required: false };
  }
  if (f.value.kind === 'message') return { arb: valueArb(f.value, mode, depth, false), required: true };
  if (f.value.kind === 'special') {
    const nullable =
      f.value.special === 'Time' || f.value.special === 'MicroTime' || f.value.special === 'RawExtension';
    const v = valueArb(f.value, mode, depth, false);
    return { arb: nullable ? fc.oneof(fc.constant(null), v) : v, required: true };
  }
  if (f.always) {
    if (f.value.scalar === 'bytes')
      return { arb: fc.oneof(fc.constant(null), scalarArb('bytes', false)), required: true };
    return { arb: scalarArb(f.value.scalar, false), required: true };
  }
  return { arb: scalarArb(f.value.scalar, true), required: false };
}

const cache = new Map<string, fc.Arbitrary<unknown>>();

/** Arbitrary JSON of one message; `depth` bounds optional nesting (required structs always appear). */
export function messageArb(spec: MessageSpec, mode: ArbMode, depth: number): fc.Arbitrary<unknown> {
  const key = `${spec.name}|${mode}|${Math.max(depth, 0)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let arb: fc.Arbitrary<unknown>;
  if (spec.wrapper) {
    arb = fc.array(text, { minLength: 1, maxLength: 2 });
  } else {
    const own: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    const inline: fc.Arbitrary<unknown>[] = [];
    for (const f of spec.fields) {
      if (f.inline && f.value.kind === 'message') {
        inline.push(messageArb(MESSAGES.get(f.value.message), mode, depth));
        continue;
      }
      if (depth <= 0 && mode === 'loose') continue;
      const { arb: a, required: req } = fieldArb(f, mode, depth);
      if (depth <= 0 && !req) continue;
      own[f.json] = a;
      if (req) required.push(f.json);
    }
    arb = fc
      .tuple(fc.record(own, { requiredKeys: required }), ...inline)
      .map(([o, ...parts]) => Object.assign({}, ...(parts as Json[]), o as Json));
  }
  cache.set(key, arb);
  return arb;
}

/** An object of `message` with its `apiVersion` and `kind`. */
export function kubeObjectArb(apiVersion: string, kind: string, message: string, mode: ArbMode, depth = 4) {
  return messageArb(MESSAGES.get(message), mode, depth).map((o) => ({ kind, apiVersion, ...(o as Json) }));
}
