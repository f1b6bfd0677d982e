// The waiting room of a work queue: items to be added after a delay, released in time order on a scheduler.
import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';

interface Entry<T> {
  item: T;
  readyAt: number;
  /** Insertion order, so that items due at the same time leave in the order they came. */
  seq: number;
  index: number;
}

export interface DelayingQueueConfig<T> {
  /** Called with each item once its time has come, earliest first. */
  ready: (item: T) => void;
  /** The clock and timer. Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

/**
 * Holds items until their time (client-go's delaying queue, without the queue it feeds).
 *
 * Invariants: each item waits at most once; adding an item that already waits keeps the EARLIER of
 * the two times (a later request is dropped); items leave in `readyAt` order, ties in arrival order;
 * at most one timer is pending, for the earliest entry; a delay ≤ 0 releases the item at once.
 *
 * Teardown: `shutDown()` drops every waiting item and cancels the timer; later adds are ignored.
 */
export class DelayingQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private readonly byItem = new Map<T, Entry<T>>();
  private readonly scheduler: SchedulerLike;
  private readonly ready: (item: T) => void;
  private timer: Subscription | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private seq = 0;
  private closed = false;

  constructor(config: DelayingQueueConfig<T>) {
    this.ready = config.ready;
    this.scheduler = config.scheduler ?? asyncScheduler;
  }

  /** How many items are waiting. */
  get size(): number {
    return this.heap.length;
  }

  /** When `item` will be released (scheduler time), or undefined when it is not waiting. */
  readyAt(item: T): number | undefined {
    return this.byItem.get(item)?.readyAt;
  }

  /** Releases `item` after `delayMs`, or earlier if it already waits for an earlier time. */
  addAfter(item: T, delayMs: number): void {
    if (this.closed) return;
    if (!(delayMs > 0)) {
      this.ready(item);
      return;
    }
    const readyAt = this.scheduler.now() + delayMs;
    const existing = this.byItem.get(item);
    if (existing) {
      if (readyAt < existing.readyAt) {
        existing.readyAt = readyAt;
        this.up(existing.index);
      }
    } else {
      const entry: Entry<T> = { item, readyAt, seq: this.seq++, index: this.heap.length };
      this.heap.push(entry);
      this.byItem.set(item, entry);
      this.up(entry.index);
    }
    this.arm();
  }

  /** Drops every waiting item and the timer; the queue accepts nothing afterwards. */
  shutDown(): void {
    this.closed = true;
    this.timer?.unsubscribe();
    this.timer = undefined;
    this.heap.length = 0;
    this.byItem.clear();
  }

  private arm(): void {
    const head = this.heap[0];
    if (!head) {
      this.timer?.unsubscribe();
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      return;
    }
    if (this.timer && this.timerAt <= head.readyAt) return;
    this.timer?.unsubscribe();
    this.timerAt = head.readyAt;
    const dueAt = head.readyAt;
    this.timer = this.scheduler.schedule(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.release(dueAt);
      },
      Math.max(0, head.readyAt - this.scheduler.now()),
    );
  }

  /** Releases everything due by now, or by `dueAt` when a real timer fired a hair early. */
  private release(dueAt: number): void {
    const now = Math.max(this.scheduler.now(), dueAt);
    for (let head = this.heap[0]; head && head.readyAt <= now && !this.closed; head = this.heap[0]) {
      this.pop();
      this.ready(head.item);
    }
    if (!this.closed) this.arm();
  }

  private pop(): void {
    const head = this.heap[0]!;
    const last = this.heap.pop()!;
    this.byItem.delete(head.item);
    if (last !== head) {
      this.heap[0] = last;
      last.index = 0;
      this.down(0);
    }
  }

  private less(a: Entry<T>, b: Entry<T>): boolean {
    return a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    this.heap[i] = b;
    this.heap[j] = a;
    a.index = j;
    b.index = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.heap[i]!, this.heap[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.heap.length && this.less(this.heap[left]!, this.heap[smallest]!)) smallest = left;
      if (right < this.heap.length && this.less(this.heap[right]!, this.heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
