// What one event handler has seen of an informer: the objects it believes exist, and every broken promise.
import { objectKey } from '../../operators/object-key.ts';
import type { KubeObject } from '../../operators/types.ts';

/** A numeric resourceVersion, or undefined for an opaque one (which is not compared). */
function rvNumber(object: KubeObject): bigint | undefined {
  const rv = object.metadata?.resourceVersion;
  return rv !== undefined && /^\d+$/.test(rv) ? BigInt(rv) : undefined;
}

/**
 * Replays an informer's add/update/delete notifications into the set of objects a handler believes
 * exist (key → resourceVersion) and records each violation of the handler contract:
 * - `duplicate add`: an add for a key the handler already holds;
 * - `update of an unknown key`: an update for a key the handler does not hold;
 * - `delete of an unknown key`: a delete for a key the handler does not hold;
 * - `resourceVersion went backwards`: a notification older than one already seen for that key (the
 *   embedded API server's resourceVersions are integers and grow with every write, across deletes).
 *
 * A missed delete shows as a key the handler still holds after the server dropped it: compare
 * {@link HandlerView.snapshot} with the server's state.
 *
 * @example
 * const view = new HandlerView();
 * informer.on('add', (o) => view.onAdd(o)); // ... update, delete
 * expect(view.violations).toEqual([]);
 */
export class HandlerView {
  private readonly objects = new Map<string, string>();
  private readonly newest = new Map<string, bigint>();
  private readonly found: string[] = [];
  /** How many notifications of each kind arrived. */
  readonly notifications = { add: 0, update: 0, delete: 0 };

  /** Every violation so far, in order, at most 100 (then a count). */
  get violations(): readonly string[] {
    return this.found;
  }

  private violation(text: string): void {
    if (this.found.length < 100) this.found.push(text);
    else if (this.found.length === 100) this.found.push('… more violations not recorded');
  }

  private checkOrder(kind: string, key: string, object: KubeObject): void {
    const rv = rvNumber(object);
    if (rv === undefined) return;
    const before = this.newest.get(key);
    if (before !== undefined && rv < before) {
      this.violation(`resourceVersion went backwards: ${kind} ${key} at ${rv} after ${before}`);
    }
    if (before === undefined || rv > before) this.newest.set(key, rv);
  }

  /** An add notification. */
  onAdd(object: KubeObject): void {
    this.notifications.add++;
    const key = objectKey(object);
    if (this.objects.has(key)) this.violation(`duplicate add: ${key} at ${object.metadata?.resourceVersion}`);
    this.checkOrder('add', key, object);
    this.objects.set(key, object.metadata?.resourceVersion ?? '');
  }

  /** An update notification (`object` is the new state). */
  onUpdate(object: KubeObject): void {
    this.notifications.update++;
    const key = objectKey(object);
    if (!this.objects.has(key)) this.violation(`update of an unknown key: ${key}`);
    this.checkOrder('update', key, object);
    this.objects.set(key, object.metadata?.resourceVersion ?? '');
  }

  /** A delete notification (`object` is the last known state, possibly stale). */
  onDelete(object: KubeObject): void {
    this.notifications.delete++;
    const key = objectKey(object);
    if (!this.objects.has(key)) this.violation(`delete of an unknown key: ${key}`);
    this.checkOrder('delete', key, object);
    this.objects.delete(key);
  }

  /** The objects the handler believes exist: key → resourceVersion. */
  snapshot(): ReadonlyMap<string, string> {
    return new Map(this.objects);
  }
}
