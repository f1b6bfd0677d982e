// KeyedHeap: a binary heap whose items are also found, replaced and removed by key in O(log n).

/**
 * A min-heap by `less` (the head is the item no other item is less than), indexed by `key`.
 *
 * Invariants: every key is held at most once; `positions` maps each held key to its slot;
 * `less(items[parent], items[child])` is never true the wrong way round after any method returns.
 * An item whose ordering fields change while it is held must be passed to `addOrUpdate` again.
 */
export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly keys: string[] = [];
  private readonly positions = new Map<string, number>();

  private readonly keyOf: (item: T) => string;
  private readonly less: (a: T, b: T) => boolean;

  constructor(keyOf: (item: T) => string, less: (a: T, b: T) => boolean) {
    this.keyOf = keyOf;
    this.less = less;
  }

  get length(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.positions.has(key);
  }

  get(key: string): T | undefined {
    const i = this.positions.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Inserts `item`, or replaces the held item with the same key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const i = this.positions.get(key);
    if (i !== undefined) {
      this.items[i] = item;
      this.fix(i);
      return;
    }
    this.items.push(item);
    this.keys.push(key);
    this.positions.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  /** Removes the item held under `key`; returns it, or undefined when none was held. */
  delete(key: string): T | undefined {
    const i = this.positions.get(key);
    if (i === undefined) return undefined;
    const item = this.items[i]!;
    this.removeAt(i);
    return item;
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const item = this.items[0]!;
    this.removeAt(0);
    return item;
  }

  /** The held items in heap order (not sorted). */
  list(): T[] {
    return this.items.slice();
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.positions.delete(this.keys[i]!);
    if (i !== last) {
      this.items[i] = this.items[last]!;
      this.keys[i] = this.keys[last]!;
      this.positions.set(this.keys[i]!, i);
    }
    this.items.pop();
    this.keys.pop();
    if (i < this.items.length) this.fix(i);
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private swap(i: number, j: number): void {
    const it = this.items[i]!;
    this.items[i] = this.items[j]!;
    this.items[j] = it;
    const k = this.keys[i]!;
    this.keys[i] = this.keys[j]!;
    this.keys[j] = k;
    this.positions.set(this.keys[i]!, i);
    this.positions.set(this.keys[j]!, j);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Sifts down; true when the item moved. */
  private down(start: number): boolean {
    const n = this.items.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      let child = left;
      const right = left + 1;
      if (right < n && this.less(this.items[right]!, this.items[left]!)) child = right;
      if (!this.less(this.items[child]!, this.items[i]!)) break;
      this.swap(i, child);
      i = child;
    }
    return i > start;
  }
}
