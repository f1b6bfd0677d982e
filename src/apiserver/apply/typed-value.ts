// Structured-merge-diff's walks over a JSON value guided by its field types: field set, compare, merge, prune.
import { KubeRxError } from '../../../operators/errors.ts';
import { deepEqual } from '../../../operators/pod-config/deep-equal.ts';
import {
  type FieldPath,
  FieldSet,
  fieldElement,
  indexElement,
  keyElement,
  type PathElement,
  pathToString,
  valueElement,
} from './field-set.ts';
import type { FieldType, ListSemantics } from './field-type.ts';

type Obj = Record<string, unknown>;

/** A value that does not fit its declared type (an associative list item without its key, a duplicate key...). */
export class TypedValueError extends KubeRxError {
  readonly path: string;
  constructor(path: FieldPath, message: string) {
    const where = pathToString(path);
    super('KUBE_RX_APPLY_TYPE', `${where ? `${where}: ` : ''}${message}`);
    this.path = where;
  }
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What changed between two values: paths added, modified (leaves only) and removed. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * The path element of one list item: its key fields (with their schema defaults) for a map list, its value
 * for a set, its index otherwise.
 * @throws TypedValueError when an item of a map list lacks a key field that has no default
 */
export function itemElement(
  list: ListSemantics,
  item: unknown,
  index: number,
  at: FieldPath = [],
): PathElement {
  if (list.type === 'set') {
    if (isObject(item) || Array.isArray(item))
      throw new TypedValueError(at, `element ${index}: a set may only hold scalars`);
    return valueElement(item);
  }
  if (list.type === 'map' && list.keys.length > 0) {
    if (!isObject(item)) throw new TypedValueError(at, `element ${index}: expected an object`);
    const keys: Obj = {};
    for (const k of list.keys) {
      const v = item[k] ?? list.keyDefaults?.[k];
      if (v === undefined || v === null)
        throw new TypedValueError(
          at,
          `element ${index}: associative list with keys has an element that omits key field "${k}" (and doesn't have default value)`,
        );
      keys[k] = v;
    }
    return keyElement(keys);
  }
  return indexElement(index);
}

function indexItems(
  list: ListSemantics,
  items: unknown[] | undefined,
  at: FieldPath,
  rejectDuplicates: boolean,
): { order: PathElement[]; byElement: Map<PathElement, unknown> } {
  const order: PathElement[] = [];
  const byElement = new Map<PathElement, unknown>();
  (items ?? []).forEach((item, i) => {
    const pe = itemElement(list, item, i, at);
    if (byElement.has(pe)) {
      if (rejectDuplicates) throw new TypedValueError(at, `duplicate entries for key ${pathToString([pe])}`);
      return;
    }
    byElement.set(pe, item);
    order.push(pe);
  });
  return { order, byElement };
}

/** The list's semantics, or undefined when it is atomic (a leaf). */
const granularList = (t: FieldType): ListSemantics | undefined => {
  const l = t.list();
  return l.type === 'atomic' ? undefined : l;
};

/**
 * The paths a value sets, as structured-merge-diff's ToFieldSet: every scalar and atomic value, every item of
 * a granular list, every empty or null object field.
 * @throws TypedValueError on an item that has no key
 */
export function toFieldSet(value: unknown, type: FieldType): FieldSet {
  return FieldSet.collect((add) => {
    const walk = (v: unknown, t: FieldType, path: PathElement[]): void => {
      if (isObject(v) && !t.atomicObject()) {
        for (const [k, child] of Object.entries(v)) {
          if (child === undefined) continue;
          const p = [...path, fieldElement(k)];
          const ct = t.field(k);
          walk(child, ct, p);
          if (child === null || (isObject(child) && Object.keys(child).length === 0)) add(p);
        }
        return;
      }
      if (Array.isArray(v)) {
        const list = granularList(t);
        if (!list) {
          add(path);
          return;
        }
        const { order, byElement } = indexItems(list, v, path, true);
        for (const pe of order) {
          const p = [...path, pe];
          walk(byElement.get(pe), t.item(), p);
          add(p);
        }
        return;
      }
      if (path.length) add(path);
    };
    walk(value, type, []);
  });
}

/**
 * Compares two values as structured-merge-diff does: changed leaves are modified, new leaves and new
 * containers (objects, list items) added, vanished ones removed. A container both sides lack or leave empty is
 * compared as a leaf.
 * @param skip subtrees not compared (ignored fields such as status, metadata.managedFields)
 */
export function compare(lhs: unknown, rhs: unknown, type: FieldType, skip?: FieldSet): Comparison {
  const added = FieldSet.builder();
  const modified = FieldSet.builder();
  const removed = FieldSet.builder();
  const path: PathElement[] = [];
  const leaf = (l: unknown, r: unknown) => {
    if (!path.length) return;
    if (l === undefined) added.add(path);
    else if (r === undefined) removed.add(path);
    else if (!deepEqual(l, r)) modified.add(path);
  };
  const step = (pe: PathElement, l: unknown, r: unknown, t: FieldType, skipBelow: FieldSet | undefined) => {
    if (skipBelow?.childIsMember(pe)) return;
    path.push(pe);
    walk(l, r, t, skipBelow?.hasPrefix([pe]) ? skipBelow.child(pe) : undefined);
    path.pop();
  };
  const walk = (l: unknown, r: unknown, t: FieldType, skipHere: FieldSet | undefined): void => {
    if (l === undefined && r === undefined) return;
    const objects = (l === undefined || isObject(l)) && (r === undefined || isObject(r));
    const lists = (l === undefined || Array.isArray(l)) && (r === undefined || Array.isArray(r));
    if (objects && !t.atomicObject()) {
      const lo = l as Obj | undefined;
      const ro = r as Obj | undefined;
      const lk = lo ? Object.keys(lo) : [];
      const rk = ro ? Object.keys(ro) : [];
      if (lk.length === 0 && rk.length === 0) {
        leaf(l, r);
        return;
      }
      for (const k of lk) step(fieldElement(k), lo![k], ro?.[k], t.field(k), skipHere);
      for (const k of rk)
        if (!lo || !Object.hasOwn(lo, k)) step(fieldElement(k), undefined, ro![k], t.field(k), skipHere);
    } else if (lists && t.list().type !== 'atomic') {
      const la = l as unknown[] | undefined;
      const ra = r as unknown[] | undefined;
      if ((la ?? []).length === 0 && (ra ?? []).length === 0) {
        leaf(l, r);
        return;
      }
      const list = t.list();
      const left = indexItems(list, la, path, false);
      const right = indexItems(list, ra, path, false);
      const item = t.item();
      for (const pe of right.order) step(pe, left.byElement.get(pe), right.byElement.get(pe), item, skipHere);
      for (const pe of left.order)
        if (!right.byElement.has(pe)) step(pe, left.byElement.get(pe), undefined, item, skipHere);
    } else {
      leaf(l, r);
      return;
    }
    // A container that appeared or vanished is itself added or removed.
    if (!path.length) return;
    if (l === undefined && !t.alwaysPresent()) added.add(path);
    else if (r === undefined) removed.add(path);
  };
  walk(lhs, rhs, type, skip);
  return { added: added.done(), modified: modified.done(), removed: removed.done() };
}

/**
 * Merges an applied configuration into a live value: objects field by field, granular lists item by item
 * (shared items in the configuration's order, live-only items kept where they were), anything atomic or scalar
 * replaced; a null in the configuration removes a scalar or atomic field and leaves an object or list as it is.
 * Neither input is changed.
 */
export function merge(live: unknown, config: unknown, type: FieldType, at: FieldPath = []): unknown {
  if (config === undefined) return live;
  if (isObject(config) && isObject(live) && !type.atomicObject()) {
    const out: Obj = { ...live };
    for (const [k, v] of Object.entries(config)) {
      if (v === null) {
        // null on a granular object or list merges as an empty one (the applier owns the field, not its
        // contents); on anything else it clears the field, as decoding a null does.
        const ft = type.field(k);
        const granular =
          (isObject(live[k]) && !ft.atomicObject()) ||
          (Array.isArray(live[k]) && ft.list().type !== 'atomic');
        if (!granular) delete out[k];
        continue;
      }
      const m = merge(live[k], v, type.field(k), [...at, fieldElement(k)]);
      if (m !== undefined) out[k] = m;
    }
    return out;
  }
  if (Array.isArray(config) && Array.isArray(live) && type.list().type !== 'atomic') {
    return mergeLists(live, config, type, at);
  }
  return stripNulls(structuredClone(config));
}

function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (!isObject(v)) return v;
  const out: Obj = {};
  for (const [k, c] of Object.entries(v)) if (c !== null && c !== undefined) out[k] = stripNulls(c);
  return out;
}

/** Item order: walk both lists, shared items in the configuration's order, live-only items where they were. */
function mergeLists(live: unknown[], config: unknown[], type: FieldType, at: FieldPath): unknown[] {
  const list = type.list();
  const lhs = indexItems(list, live, at, false);
  const rhs = indexItems(list, config, at, true);
  const shared = rhs.order.filter((pe) => lhs.byElement.has(pe));
  let nextShared = 0;
  const done = new Set<PathElement>();
  const out: unknown[] = [];
  const take = (pe: PathElement) => {
    done.add(pe);
    out.push(merge(lhs.byElement.get(pe), rhs.byElement.get(pe), type.item(), [...at, pe]));
  };
  let l = 0;
  let r = 0;
  while (l < lhs.order.length || r < rhs.order.length) {
    if (l < lhs.order.length && r < rhs.order.length) {
      const pe = lhs.order[l]!;
      if (pe === rhs.order[r]) {
        take(pe);
        l++;
        r++;
        if (shared[nextShared] === pe) nextShared++;
        continue;
      }
      if (rhs.byElement.has(pe) && nextShared < shared.length && shared[nextShared] !== pe) {
        l++;
        continue;
      }
    }
    if (l < lhs.order.length) {
      const pe = lhs.order[l]!;
      if (!rhs.byElement.has(pe)) {
        out.push(lhs.byElement.get(pe));
        l++;
        continue;
      }
      // Already merged with its configuration item: skip it, and take the next configuration item now.
      if (done.has(pe)) l++;
    }
    if (r < rhs.order.length) {
      const pe = rhs.order[r]!;
      r++;
      if (done.has(pe)) continue;
      take(pe);
      if (shared[nextShared] === pe) nextShared++;
    }
  }
  return out;
}

/**
 * Removes from `value` what an applier stopped applying: every path of `last` that nobody owns any more. A
 * field goes when no owner holds it or anything below it; a list item goes when no owner holds the item
 * itself (an owner of only some of its fields does not keep it); containers emptied by the removal go too
 * unless the applier still sets them.
 * @param last what the applier owned before this apply
 * @param owned what every manager owns after it (the applier included)
 * @param applied what the applier sets now
 */
export function removeDisowned(
  value: unknown,
  type: FieldType,
  last: FieldSet,
  owned: FieldSet,
  applied: FieldSet,
): unknown {
  if (isObject(value) && !type.atomicObject()) {
    const out: Obj = { ...value };
    for (const pe of last.childElements()) {
      if (!pe.startsWith('f:')) continue;
      const name = pe.slice(2);
      if (!(name in out)) continue;
      if (!owned.hasPrefix([pe])) {
        delete out[name];
        continue;
      }
      const before = out[name];
      const after = removeDisowned(
        before,
        type.field(name),
        last.child(pe),
        owned.child(pe),
        applied.child(pe),
      );
      if (emptied(before, after) && !applied.hasPrefix([pe])) delete out[name];
      else out[name] = after;
    }
    return out;
  }
  if (Array.isArray(value)) {
    const list = type.list();
    if (list.type === 'atomic') return value;
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = itemElement(list, item, i);
      if (last.hasPrefix([pe]) && !owned.has([pe])) return;
      if (!last.hasPrefix([pe]) || !isObject(item)) {
        out.push(item);
        return;
      }
      const kept = removeDisowned(
        item,
        type.item(),
        last.child(pe),
        owned.child(pe),
        applied.child(pe),
      ) as Obj;
      // The key fields stay with the item.
      if (list.type === 'map') for (const k of list.keys) if (k in item) kept[k] = item[k];
      out.push(kept);
    });
    return out;
  }
  return value;
}

function emptied(before: unknown, after: unknown): boolean {
  const size = (v: unknown) => (Array.isArray(v) ? v.length : isObject(v) ? Object.keys(v).length : -1);
  return size(before) > 0 && size(after) === 0;
}
