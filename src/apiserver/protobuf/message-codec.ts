// JSON ↔ protobuf for one Kubernetes message, walking the message table; JSON comes out as Go shows it.
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { InvalidInputError } from '../../../operators/errors.ts';
import type { FieldSpec, MessageSpec, MessageTable, Scalar, Special, ValueType } from './message-table.ts';
import { MESSAGES } from './messages.ts';

type Json = Record<string, unknown>;

const EMPTY = new Uint8Array(0);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const toUtf8 = new TextEncoder();

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// ─── time ────────────────────────────────────────────────────────────────────────────────────────

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Seconds and nanoseconds since the epoch of an RFC 3339 time, or undefined when it is not one. */
export function parseRfc3339(text: string): { seconds: number; nanos: number } | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  const ms = date.getTime();
  if (Number.isNaN(ms)) return undefined;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    offset = sign * (Number(zone!.slice(1, 3)) * 3600 + Number(zone!.slice(4, 6)) * 60);
  }
  const nanos = frac ? Number(frac.slice(1, 10).padEnd(9, '0')) : 0;
  return { seconds: ms / 1000 - offset, nanos };
}

/** RFC 3339 in UTC, seconds precision (metav1.Time) or microseconds (metav1.MicroTime). */
export function formatRfc3339(seconds: number, micros?: number): string {
  const iso = new Date(seconds * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  const base = iso.slice(0, iso.length - 5);
  return micros === undefined ? `${base}Z` : `${base}.${String(micros).padStart(6, '0')}Z`;
}

// ─── encode: JSON → protobuf ─────────────────────────────────────────────────────────────────────

function toInt(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

function writeScalar(w: BinaryWriter, no: number, scalar: Scalar, v: unknown): void {
  switch (scalar) {
    case 'string': {
      const s =
        typeof v === 'string'
          ? v
          : typeof v === 'number' || typeof v === 'boolean'
            ? String(v)
            : v === null
              ? ''
              : undefined;
      if (s !== undefined) w.tag(no, WireType.LengthDelimited).string(s);
      return;
    }
    case 'bytes': {
      if (typeof v === 'string') w.tag(no, WireType.LengthDelimited).bytes(Buffer.from(v, 'base64'));
      else if (v === null) w.tag(no, WireType.LengthDelimited).bytes(EMPTY);
      return;
    }
    case 'bool': {
      const b =
        typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' || v === null ? false : undefined;
      if (b !== undefined) w.tag(no, WireType.Varint).bool(b);
      return;
    }
    case 'double':
    case 'float': {
      const n = typeof v === 'number' ? v : v === null ? 0 : undefined;
      if (n !== undefined) {
        if (scalar === 'double') w.tag(no, WireType.Bit64).double(n);
        else w.tag(no, WireType.Bit32).float(n);
      }
      return;
    }
    default: {
      const n = v === null ? 0 : toInt(v);
      if (n === undefined) return;
      w.tag(no, WireType.Varint);
      if (scalar === 'int32') w.int32(n);
      else if (scalar === 'uint32') w.uint32(n);
      else if (scalar === 'uint64') w.uint64(n);
      else w.int64(n);
    }
  }
}

function writeSpecial(w: BinaryWriter, no: number, special: Special, v: unknown): void {
  const sub = new BinaryWriter();
  switch (special) {
    case 'Time':
    case 'MicroTime': {
      if (typeof v !== 'string') return;
      const t = parseRfc3339(v);
      if (!t) return;
      sub.tag(1, WireType.Varint).int64(t.seconds);
      sub.tag(2, WireType.Varint).int32(special === 'Time' ? 0 : Math.floor(t.nanos / 1000) * 1000);
      break;
    }
    case 'Quantity': {
      if (typeof v !== 'string' && typeof v !== 'number') return;
      sub.tag(1, WireType.LengthDelimited).string(String(v));
      break;
    }
    case 'IntOrString': {
      if (typeof v === 'number') {
        sub.tag(1, WireType.Varint).int64(0);
        sub.tag(2, WireType.Varint).int32(Math.trunc(v));
        sub.tag(3, WireType.LengthDelimited).string('');
      } else if (typeof v === 'string') {
        sub.tag(1, WireType.Varint).int64(1);
        sub.tag(2, WireType.Varint).int32(0);
        sub.tag(3, WireType.LengthDelimited).string(v);
      } else return;
      break;
    }
    case 'RawExtension':
    case 'FieldsV1': {
      if (v === undefined) return;
      sub.tag(1, WireType.LengthDelimited).bytes(toUtf8.encode(JSON.stringify(v)));
      break;
    }
  }
  w.tag(no, WireType.LengthDelimited).bytes(sub.finish());
}

function writeValue(table: MessageTable, w: BinaryWriter, no: number, type: ValueType, v: unknown): void {
  if (type.kind === 'scalar') {
    writeScalar(w, no, type.scalar, v);
    return;
  }
  if (type.kind === 'special') {
    writeSpecial(w, no, type.special, v);
    return;
  }
  const spec = table.get(type.message);
  if (spec.wrapper ? !Array.isArray(v) && v !== null : !isObject(v) && v !== null) return;
  w.tag(no, WireType.LengthDelimited).fork();
  if (v !== null) writeFields(table, w, spec, v);
  w.join();
}

function writeFields(table: MessageTable, w: BinaryWriter, spec: MessageSpec, v: unknown): void {
  if (spec.wrapper) {
    const f = spec.fields[0]!;
    for (const el of v as unknown[]) writeValue(table, w, f.no, f.value, el);
    return;
  }
  const json = v as Json;
  for (const f of spec.fields) {
    if (f.inline) {
      if (f.value.kind !== 'message') continue;
      w.tag(f.no, WireType.LengthDelimited).fork();
      writeFields(table, w, table.get(f.value.message), json);
      w.join();
      continue;
    }
    const value = json[f.json];
    if (value === undefined || value === null) continue;
    if (f.mapKey) {
      if (!isObject(value)) continue;
      for (const key of Object.keys(value).sort()) {
        w.tag(f.no, WireType.LengthDelimited).fork();
        writeScalar(w, 1, f.mapKey, key);
        writeValue(table, w, 2, f.value, value[key] ?? null);
        w.join();
      }
    } else if (f.repeated) {
      if (!Array.isArray(value)) continue;
      for (const el of value) writeValue(table, w, f.no, f.value, el ?? null);
    } else {
      writeValue(table, w, f.no, f.value, value);
    }
  }
}

/**
 * Encodes a message from its JSON form. Lenient, as a server writing what it stored must be: fields
 * the table does not know are left out, numbers written as strings and strings as numbers are
 * converted, and a value of the wrong shape (an object where a string belongs) is left out.
 */
export function encodeMessage(message: string, json: unknown, table: MessageTable = MESSAGES): Uint8Array {
  const spec = table.get(message);
  const w = new BinaryWriter();
  if (spec.wrapper ? Array.isArray(json) : isObject(json)) writeFields(table, w, spec, json);
  return w.finish();
}

// ─── decode: protobuf → JSON ─────────────────────────────────────────────────────────────────────

function fail(path: string, message: string): never {
  throw new InvalidInputError('protobuf body', path, message);
}

function expectWire(path: string, got: WireType, want: WireType): void {
  if (got !== want) fail(path, `wire type ${got}, expected ${want}`);
}

function readScalar(r: BinaryReader, scalar: Scalar, wt: WireType, path: string): unknown {
  switch (scalar) {
    case 'string':
      expectWire(path, wt, WireType.LengthDelimited);
      try {
        return utf8.decode(r.bytes());
      } catch {
        return fail(path, 'a string that is not UTF-8');
      }
    case 'bytes':
      expectWire(path, wt, WireType.LengthDelimited);
      return Buffer.from(r.bytes()).toString('base64');
    case 'bool':
      expectWire(path, wt, WireType.Varint);
      return r.bool();
    case 'double':
      expectWire(path, wt, WireType.Bit64);
      return r.double();
    case 'float':
      expectWire(path, wt, WireType.Bit32);
      return r.float();
    case 'int32':
      expectWire(path, wt, WireType.Varint);
      return r.int32();
    case 'uint32':
      expectWire(path, wt, WireType.Varint);
      return r.uint32();
    case 'uint64':
      expectWire(path, wt, WireType.Varint);
      return Number(r.uint64());
    default:
      expectWire(path, wt, WireType.Varint);
      return Number(r.int64());
  }
}

const NUMERIC = new Set<Scalar>(['int32', 'int64', 'uint32', 'uint64', 'bool', 'double', 'float']);

function subFields(bytes: Uint8Array): Map<number, unknown> {
  // A tiny reader for the special messages, whose fields are all varints or length-delimited.
  const out = new Map<number, unknown>();
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    if (wt === WireType.Varint) out.set(no, Number(r.int64()));
    else if (wt === WireType.LengthDelimited) out.set(no, r.bytes());
    else r.skip(wt, no);
  }
  return out;
}

function readSpecial(special: Special, bytes: Uint8Array, path: string): unknown {
  const f = subFields(bytes);
  const str = (no: number) => {
    const b = f.get(no);
    return b instanceof Uint8Array ? utf8.decode(b) : '';
  };
  switch (special) {
    case 'Time':
      if (bytes.length === 0) return null;
      return formatRfc3339(Number(f.get(1) ?? 0));
    case 'MicroTime':
      if (bytes.length === 0) return null;
      return formatRfc3339(Number(f.get(1) ?? 0), Math.floor(Number(f.get(2) ?? 0) / 1000));
    case 'Quantity':
      return str(1) || '0';
    case 'IntOrString':
      return Number(f.get(1) ?? 0) === 1 ? str(3) : Number(f.get(2) ?? 0);
    case 'RawExtension':
    case 'FieldsV1': {
      const raw = f.get(1);
      if (!(raw instanceof Uint8Array) || raw.length === 0) return null;
      try {
        return JSON.parse(utf8.decode(raw));
      } catch {
        return fail(path, 'raw bytes that are not JSON');
      }
    }
  }
}

function zeroOf(table: MessageTable, type: ValueType, path: string): unknown {
  if (type.kind === 'scalar') {
    if (type.scalar === 'string') return '';
    if (type.scalar === 'bytes') return '';
    if (type.scalar === 'bool') return false;
    return 0;
  }
  if (type.kind === 'special') return readSpecial(type.special, EMPTY, path);
  return readMessage(table, table.get(type.message), EMPTY, path);
}

function readValue(
  table: MessageTable,
  r: BinaryReader,
  type: ValueType,
  wt: WireType,
  path: string,
): unknown {
  if (type.kind === 'scalar') return readScalar(r, type.scalar, wt, path);
  expectWire(path, wt, WireType.LengthDelimited);
  const bytes = r.bytes();
  if (type.kind === 'special') return readSpecial(type.special, bytes, path);
  return readMessage(table, table.get(type.message), bytes, path);
}

function isZero(v: unknown): boolean {
  if (v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.values(v).every(isZero);
  return false;
}

function readMessage(table: MessageTable, spec: MessageSpec, bytes: Uint8Array, path: string): unknown {
  const r = new BinaryReader(bytes);
  const values = new Map<FieldSpec, unknown>();
  const lists = new Map<FieldSpec, unknown[]>();
  const maps = new Map<FieldSpec, Json>();
  try {
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      const f = spec.byNo.get(no);
      if (!f) {
        r.skip(wt, no);
        continue;
      }
      const at = `${path}.${f.json}`;
      if (f.mapKey) {
        expectWire(at, wt, WireType.LengthDelimited);
        const entry = new BinaryReader(r.bytes());
        let key: unknown = zeroOf(table, { kind: 'scalar', scalar: f.mapKey }, at);
        let value: unknown;
        while (entry.pos < entry.len) {
          const [eno, ewt] = entry.tag();
          if (eno === 1) key = readScalar(entry, f.mapKey, ewt, `${at}.key`);
          else if (eno === 2) value = readValue(table, entry, f.value, ewt, `${at}[${String(key)}]`);
          else entry.skip(ewt, eno);
        }
        const m = maps.get(f) ?? {};
        // defineProperty: a key such as "__proto__" is data, never the object's prototype.
        Object.defineProperty(m, String(key), {
          value: value === undefined ? zeroOf(table, f.value, at) : value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        maps.set(f, m);
      } else if (f.repeated) {
        const list = lists.get(f) ?? [];
        if (f.value.kind === 'scalar' && NUMERIC.has(f.value.scalar) && wt === WireType.LengthDelimited) {
          const packed = new BinaryReader(r.bytes());
          const inner =
            f.value.scalar === 'double'
              ? WireType.Bit64
              : f.value.scalar === 'float'
                ? WireType.Bit32
                : WireType.Varint;
          while (packed.pos < packed.len) list.push(readScalar(packed, f.value.scalar, inner, at));
        } else {
          list.push(readValue(table, r, f.value, wt, `${at}[${list.length}]`));
        }
        lists.set(f, list);
      } else {
        values.set(f, readValue(table, r, f.value, wt, at));
      }
    }
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    fail(path, error instanceof Error ? error.message : String(error));
  }

  if (spec.wrapper) {
    const list = lists.get(spec.fields[0]!) ?? [];
    return list.length ? list : null;
  }
  // Go's JSON of the decoded struct: field order as declared, omitempty honoured.
  const out: Json = {};
  for (const f of spec.fields) {
    const at = `${path}.${f.json}`;
    if (f.inline) {
      const inner = values.has(f) ? values.get(f) : zeroOf(table, f.value, at);
      if (isObject(inner)) Object.assign(out, inner);
      continue;
    }
    if (f.mapKey || f.repeated) {
      const v = f.mapKey ? maps.get(f) : lists.get(f);
      if (v !== undefined) out[f.json] = v;
      else if (f.always) out[f.json] = null;
      continue;
    }
    if (f.pointer) {
      if (values.has(f)) out[f.json] = values.get(f);
      else if (f.always) out[f.json] = null;
      continue;
    }
    const v = values.has(f) ? values.get(f) : zeroOf(table, f.value, at);
    if (f.omitZero && isZero(v)) continue;
    if (f.value.kind === 'scalar' && !f.always && isZero(v)) continue;
    if (f.value.kind === 'scalar' && f.value.scalar === 'bytes' && !values.has(f)) {
      out[f.json] = null;
      continue;
    }
    out[f.json] = v;
  }
  return out;
}

/**
 * Decodes a message into the JSON Go's encoding/json would print for it: every field in declared
 * order; unset omitempty fields left out; unset non-omitempty ones as their zero (`""`, `0`,
 * `false`, `null` for lists, maps and pointers, `{}`-like for structs, `null` for a zero Time).
 * Unknown field numbers are skipped. Bad input throws InvalidInputError naming the field path.
 */
export function decodeMessage(message: string, bytes: Uint8Array, table: MessageTable = MESSAGES): unknown {
  const spec = table.get(message);
  return readMessage(table, spec, bytes, message.slice(message.indexOf('.') + 1));
}
