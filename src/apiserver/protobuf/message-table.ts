// The Kubernetes protobuf messages as rows in our own form, and the compiled view the codec walks.

/**
 * One field of a message: its JSON name, its protobuf field number, its type and flags.
 *
 * Type: a scalar (`string`, `int32`, `int64`, `bool`, `bytes`, `double`, `float`, `uint32`,
 * `uint64`), a message of the same package (`PodSpec`), of another package (`meta/v1.ObjectMeta`),
 * one of the messages with their own JSON form (`@Time`, `@MicroTime`, `@Quantity`, `@IntOrString`,
 * `@RawExtension`, `@FieldsV1`), or a map `map<string,V>` (entries `{key=1, value=2}` on the wire).
 *
 * Flags, as Go's JSON shows the field: `r` repeated; `p` a pointer (present only when set, zero
 * values included); `i` inlined into the parent's JSON; `e` always in JSON (no omitempty: an unset
 * field shows as its zero, or null for lists, maps and pointers); `z` omitted when zero (omitzero);
 * `w` the message is a wrapper whose JSON is this one repeated field's array.
 */
export type FieldRow = readonly [json: string, no: number, type: string, flags?: string];

/** One proto package's messages, by message name. */
export interface MessagePackage {
  /** `core/v1`, `apps/v1`, `meta/v1`, ...: the prefix other packages use to name these messages. */
  name: string;
  messages: Readonly<Record<string, readonly FieldRow[]>>;
}

export type Scalar =
  | 'string'
  | 'int32'
  | 'int64'
  | 'bool'
  | 'bytes'
  | 'double'
  | 'float'
  | 'uint32'
  | 'uint64';
export type Special = 'Time' | 'MicroTime' | 'Quantity' | 'IntOrString' | 'RawExtension' | 'FieldsV1';

/** What a field (or a map's value) holds. */
export type ValueType =
  | { kind: 'scalar'; scalar: Scalar }
  | { kind: 'special'; special: Special }
  | { kind: 'message'; message: string };

/** A compiled field. */
export interface FieldSpec {
  json: string;
  no: number;
  value: ValueType;
  /** Set for `map<K,V>` fields; then `value` is the map's value type. */
  mapKey: Scalar | undefined;
  repeated: boolean;
  pointer: boolean;
  inline: boolean;
  /** No omitempty: Go's JSON always shows it. */
  always: boolean;
  omitZero: boolean;
}

/** A compiled message. Invariant: `fields` keeps the rows' order, which is Go's JSON key order. */
export interface MessageSpec {
  /** Qualified name, `core/v1.Pod`. */
  name: string;
  fields: readonly FieldSpec[];
  byNo: ReadonlyMap<number, FieldSpec>;
  /** The JSON of this message is its single repeated field's array. */
  wrapper: boolean;
}

const SCALARS = new Set<string>([
  'string',
  'int32',
  'int64',
  'bool',
  'bytes',
  'double',
  'float',
  'uint32',
  'uint64',
]);
const SPECIALS = new Set<string>([
  'Time',
  'MicroTime',
  'Quantity',
  'IntOrString',
  'RawExtension',
  'FieldsV1',
]);

/** Every message of the given packages, compiled and looked up by qualified name. */
export class MessageTable {
  readonly #messages = new Map<string, MessageSpec>();

  constructor(packages: readonly MessagePackage[]) {
    const known = new Set<string>();
    for (const pkg of packages)
      for (const name of Object.keys(pkg.messages)) known.add(`${pkg.name}.${name}`);
    for (const pkg of packages) {
      for (const [name, rows] of Object.entries(pkg.messages)) {
        const qualified = `${pkg.name}.${name}`;
        const fields = rows.map((row) => compileField(pkg.name, qualified, row, known));
        this.#messages.set(qualified, {
          name: qualified,
          fields,
          byNo: new Map(fields.map((f) => [f.no, f])),
          wrapper: rows.length === 1 && (rows[0]![3] ?? '').includes('w'),
        });
      }
    }
  }

  /** The message named `pkg/version.Name`; throws for an unknown name (a table bug, not bad input). */
  get(name: string): MessageSpec {
    const m = this.#messages.get(name);
    if (!m) throw new Error(`protobuf message table: no message ${name}`);
    return m;
  }

  has(name: string): boolean {
    return this.#messages.has(name);
  }

  names(): string[] {
    return [...this.#messages.keys()];
  }
}

function valueType(pkg: string, owner: string, type: string, known: ReadonlySet<string>): ValueType {
  if (SCALARS.has(type)) return { kind: 'scalar', scalar: type as Scalar };
  if (type.startsWith('@')) {
    const special = type.slice(1);
    if (!SPECIALS.has(special)) throw new Error(`protobuf message table: ${owner}: unknown special ${type}`);
    return { kind: 'special', special: special as Special };
  }
  const qualified = type.includes('.') ? type : `${pkg}.${type}`;
  if (!known.has(qualified)) throw new Error(`protobuf message table: ${owner}: unknown message ${type}`);
  return { kind: 'message', message: qualified };
}

function compileField(pkg: string, owner: string, row: FieldRow, known: ReadonlySet<string>): FieldSpec {
  const [json, no, type, flags = ''] = row;
  const map = /^map<(\w+),(.+)>$/.exec(type);
  let mapKey: Scalar | undefined;
  let value: ValueType;
  if (map) {
    if (!SCALARS.has(map[1]!)) throw new Error(`protobuf message table: ${owner}.${json}: bad map key`);
    mapKey = map[1] as Scalar;
    value = valueType(pkg, `${owner}.${json}`, map[2]!, known);
  } else {
    value = valueType(pkg, `${owner}.${json}`, type, known);
  }
  return {
    json,
    no,
    value,
    mapKey,
    repeated: flags.includes('r'),
    pointer: flags.includes('p'),
    inline: flags.includes('i'),
    always: flags.includes('e'),
    omitZero: flags.includes('z'),
  };
}
