// A set of field paths as server-side apply tracks ownership, with its FieldsV1 wire form (f:, k:, v:, i:, ".").

/**
 * One step of a field path, written as in FieldsV1: `f:<field>`, `k:<JSON of the key fields>`,
 * `v:<JSON of a set element>` or `i:<index>`.
 */
export type PathElement = string;
/** A path from the object's root. */
export type FieldPath = readonly PathElement[];

interface Node {
  /** The path ending here is in the set itself (FieldsV1 writes it as `".": {}` when it has children). */
  member: boolean;
  children: Map<PathElement, Node>;
}

const newNode = (): Node => ({ member: false, children: new Map() });

/** The path element of a named field. */
export const fieldElement = (name: string): PathElement => `f:${name}`;
/** The path element of an associative list item, from its key fields (written sorted by name). */
export function keyElement(keys: Readonly<Record<string, unknown>>): PathElement {
  const sorted = Object.keys(keys)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(keys[k])}`);
  return `k:{${sorted.join(',')}}`;
}
/** The path element of a set item (a scalar in a list of type set). */
export const valueElement = (value: unknown): PathElement => `v:${JSON.stringify(value)}`;
/** The path element of a list item by position. */
export const indexElement = (index: number): PathElement => `i:${index}`;

const KIND_RANK: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** Structured-merge-diff's order of path elements: fields, then keys, values, indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  const ra = KIND_RANK[a[0]!] ?? 4;
  const rb = KIND_RANK[b[0]!] ?? 4;
  if (ra !== rb) return ra - rb;
  if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How a path prints in conflict messages: `.spec.containers[name="nginx"].image`. */
export function pathToString(path: FieldPath): string {
  let out = '';
  for (const pe of path) {
    const body = pe.slice(2);
    switch (pe[0]) {
      case 'f':
        out += `.${body}`;
        break;
      case 'k': {
        const keys = JSON.parse(body) as Record<string, unknown>;
        out += `[${Object.keys(keys)
          .map((k) => `${k}=${JSON.stringify(keys[k])}`)
          .join(',')}]`;
        break;
      }
      case 'v':
        out += `[=${body}]`;
        break;
      default:
        out += `[${body}]`;
    }
  }
  return out;
}

function cloneNode(n: Node): Node {
  const out: Node = { member: n.member, children: new Map() };
  for (const [k, c] of n.children) out.children.set(k, cloneNode(c));
  return out;
}

/** A node that holds nothing (no member below) is dropped. */
function prune(n: Node): boolean {
  for (const [k, c] of n.children) if (!prune(c)) n.children.delete(k);
  return n.member || n.children.size > 0;
}

/** A set of field paths; immutable from outside (every operation returns a new set, sharing nothing it changes). */
export class FieldSet {
  private readonly root: Node;

  private constructor(root: Node) {
    this.root = root;
  }

  /** The empty set. */
  static empty(): FieldSet {
    return new FieldSet(newNode());
  }

  /** A set holding the given paths. */
  static of(...paths: FieldPath[]): FieldSet {
    const s = FieldSet.empty();
    for (const p of paths) s.insertInPlace(p);
    return s;
  }

  /** A set built by one pass that adds paths (cheaper than {@link FieldSet.with} for many paths). */
  static collect(visit: (add: (path: FieldPath) => void) => void): FieldSet {
    const s = FieldSet.empty();
    visit((path) => s.insertInPlace(path));
    return s;
  }

  /** A set filled path by path, then handed out once with `done()`. */
  static builder(): { add(path: FieldPath): void; done(): FieldSet } {
    const s = FieldSet.empty();
    return { add: (path) => s.insertInPlace(path), done: () => s };
  }

  /**
   * Reads the FieldsV1 form: an object whose keys are path elements, `".": {}` marking the path as a member.
   * @throws Error naming the bad element when the value is not FieldsV1
   */
  static fromFieldsV1(value: unknown): FieldSet {
    const read = (v: unknown, at: string): Node => {
      if (v === null || typeof v !== 'object' || Array.isArray(v))
        throw new Error(`${at || 'fieldsV1'}: expected an object`);
      const n = newNode();
      for (const [k, c] of Object.entries(v as Record<string, unknown>)) {
        if (k === '.') {
          n.member = true;
          continue;
        }
        if (!/^[fkvi]:/.test(k))
          throw new Error(`${at || 'fieldsV1'}: unknown path element ${JSON.stringify(k)}`);
        const child = read(c, `${at}${pathToString([k])}`);
        if (child.children.size === 0) child.member = true;
        n.children.set(k, child);
      }
      return n;
    };
    return new FieldSet(read(value, ''));
  }

  /** The FieldsV1 form, keys in structured-merge-diff's order, `"."` first. */
  toFieldsV1(): Record<string, unknown> {
    const write = (n: Node): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      if (n.member && n.children.size > 0) out['.'] = {};
      for (const k of [...n.children.keys()].sort(comparePathElements)) out[k] = write(n.children.get(k)!);
      return out;
    };
    return write(this.root);
  }

  private insertInPlace(path: FieldPath): void {
    let n = this.root;
    for (const pe of path) {
      let c = n.children.get(pe);
      if (!c) {
        c = newNode();
        n.children.set(pe, c);
      }
      n = c;
    }
    if (path.length > 0) n.member = true;
  }

  /** This set plus `path`. */
  with(path: FieldPath): FieldSet {
    const s = new FieldSet(cloneNode(this.root));
    s.insertInPlace(path);
    return s;
  }

  private node(path: FieldPath): Node | undefined {
    let n: Node | undefined = this.root;
    for (const pe of path) {
      n = n.children.get(pe);
      if (!n) return undefined;
    }
    return n;
  }

  /** True when `path` itself is in the set. */
  has(path: FieldPath): boolean {
    return this.node(path)?.member === true && path.length > 0;
  }

  /** True when `path` or any path below it is in the set. */
  hasPrefix(path: FieldPath): boolean {
    const n = this.node(path);
    return n !== undefined && (n.member || n.children.size > 0);
  }

  /** The subset below `pe` (paths relative to it); the member flag of `pe` itself is not kept. */
  child(pe: PathElement): FieldSet {
    const n = this.root.children.get(pe);
    // Shares the nodes: no operation changes a set once built.
    return n ? new FieldSet({ member: false, children: n.children }) : EMPTY;
  }

  /** The path elements directly below the root that hold something. */
  childElements(): PathElement[] {
    return [...this.root.children.keys()];
  }

  /** True when `pe` directly below the root is itself a member. */
  childIsMember(pe: PathElement): boolean {
    return this.root.children.get(pe)?.member === true;
  }

  get empty(): boolean {
    return this.root.children.size === 0;
  }

  /** Every member path, in structured-merge-diff's order: at each level the members, then what is below them. */
  paths(): FieldPath[] {
    const out: FieldPath[] = [];
    const walk = (n: Node, prefix: PathElement[]) => {
      const keys = [...n.children.keys()].sort(comparePathElements);
      for (const k of keys) if (n.children.get(k)!.member) out.push([...prefix, k]);
      for (const k of keys) walk(n.children.get(k)!, [...prefix, k]);
    };
    walk(this.root, []);
    return out;
  }

  /** Paths in either set. */
  union(other: FieldSet): FieldSet {
    const merge = (a: Node, b: Node): Node => {
      const out = cloneNode(a);
      out.member ||= b.member;
      for (const [k, c] of b.children) {
        const mine = out.children.get(k);
        out.children.set(k, mine ? merge(mine, c) : cloneNode(c));
      }
      return out;
    };
    return new FieldSet(merge(this.root, other.root));
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    const both = (a: Node, b: Node): Node => {
      const out: Node = { member: a.member && b.member, children: new Map() };
      for (const [k, c] of a.children) {
        const o = b.children.get(k);
        if (o) out.children.set(k, both(c, o));
      }
      return out;
    };
    const root = both(this.root, other.root);
    prune(root);
    return new FieldSet(root);
  }

  /** Paths of this set that are not in `other` (each path on its own; children of a removed path stay). */
  difference(other: FieldSet): FieldSet {
    const minus = (a: Node, b: Node | undefined): Node => {
      const out: Node = { member: a.member && !b?.member, children: new Map() };
      for (const [k, c] of a.children) out.children.set(k, minus(c, b?.children.get(k)));
      return out;
    };
    const root = minus(this.root, other.root);
    prune(root);
    return new FieldSet(root);
  }

  /** Paths of this set that are neither in `other` nor below one of its members. */
  recursiveDifference(other: FieldSet): FieldSet {
    const minus = (a: Node, b: Node | undefined): Node | undefined => {
      if (b?.member) return undefined;
      const out: Node = { member: a.member, children: new Map() };
      for (const [k, c] of a.children) {
        const r = minus(c, b?.children.get(k));
        if (r) out.children.set(k, r);
      }
      return out;
    };
    const root = minus(this.root, other.root) ?? newNode();
    root.member = false;
    prune(root);
    return new FieldSet(root);
  }

  /** True when both sets hold the same paths. */
  equals(other: FieldSet): boolean {
    return JSON.stringify(this.toFieldsV1()) === JSON.stringify(other.toFieldsV1());
  }
}

const EMPTY = FieldSet.empty();
