// NotificationBuffer against a model: per key the handler sees a subsequence of the states in order, ends on the latest, and the buffer holds at most two per key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InformerNotification } from '../../operators/informer-notification.ts';
import { NotificationBuffer } from '../../operators/notification-buffer.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../operators/types.ts';

interface World {
  buffer: NotificationBuffer;
  /** The informer's state per key: the version present, or undefined. */
  source: Map<string, number | undefined>;
  /** Every state per key in order (undefined = absent). */
  history: Map<string, (number | undefined)[]>;
  /** The handler's view per key. */
  seen: Map<string, number | undefined>;
  /** What the handler received per key, in order. */
  received: Map<string, (number | undefined)[]>;
  version: number;
  /** The model of the hand-out line: keys with something pending, in the order they joined it. */
  line: string[];
}

const pendingKeys = (w: World): string[] => [...new Set(w.buffer.pending().map((n) => n.key))];

/** A key joins the end of the line when something becomes pending for it, and leaves when nothing is. */
function updateLine(w: World, key: string): void {
  const inLine = w.line.includes(key);
  const pending = w.buffer.pending().some((n) => n.key === key);
  if (!inLine && pending) w.line.push(key);
  if (inLine && !pending) w.line.splice(w.line.indexOf(key), 1);
  expect(pendingKeys(w)).toEqual(w.line);
}

const obj = (key: string, v: number): KubeObject => ({ metadata: { name: key, resourceVersion: String(v) } });
const versionOf = (o: KubeObject | DeletedFinalStateUnknown): number =>
  Number((o instanceof DeletedFinalStateUnknown ? o.obj : o)?.metadata?.resourceVersion);

class Write implements fc.Command<object, World> {
  readonly key: string;
  readonly present: boolean;
  readonly tombstone: boolean;
  constructor(key: string, present: boolean, tombstone: boolean) {
    this.key = key;
    this.present = present;
    this.tombstone = tombstone;
  }
  check = () => true;
  run(_m: object, w: World): void {
    const before = w.source.get(this.key);
    const v = ++w.version;
    let n: InformerNotification | undefined;
    if (this.present) {
      n =
        before === undefined
          ? { type: 'add', key: this.key, object: obj(this.key, v), isInInitialList: false }
          : {
              type: 'update',
              key: this.key,
              oldObject: obj(this.key, before),
              newObject: obj(this.key, v),
              isSync: false,
            };
      w.source.set(this.key, v);
    } else if (before !== undefined) {
      const last = obj(this.key, before);
      n = {
        type: 'delete',
        key: this.key,
        object: this.tombstone ? new DeletedFinalStateUnknown(this.key, last) : last,
      };
      w.source.set(this.key, undefined);
    }
    if (!n) return;
    w.history.get(this.key)!.push(w.source.get(this.key));
    w.buffer.push(n);
    updateLine(w, this.key);
    expect(w.buffer.size).toBeLessThanOrEqual(2 * w.buffer.keys);
  }
  toString = () =>
    `write(${this.key}, ${this.present ? 'present' : this.tombstone ? 'tombstone' : 'delete'})`;
}

class Take implements fc.Command<object, World> {
  check = () => true;
  run(_m: object, w: World): void {
    const n = w.buffer.shift();
    if (!n) {
      expect(w.buffer.size).toBe(0);
      return;
    }
    // keys are handed out in the order of their oldest pending notification
    expect(n.key).toBe(w.line[0]);
    updateLine(w, n.key);
    const view = w.seen.get(n.key);
    if (n.type === 'add') {
      expect(view).toBeUndefined();
      w.seen.set(n.key, versionOf(n.object));
    } else if (n.type === 'update') {
      expect(view).toBe(versionOf(n.oldObject));
      w.seen.set(n.key, versionOf(n.newObject));
    } else {
      expect(view).not.toBeUndefined();
      w.seen.set(n.key, undefined);
    }
    w.received.get(n.key)!.push(w.seen.get(n.key));
  }
  toString = () => 'take';
}

function isSubsequence(sub: (number | undefined)[], of: (number | undefined)[]): boolean {
  let i = 0;
  for (const x of of) if (i < sub.length && sub[i] === x) i++;
  return i === sub.length;
}

describe('NotificationBuffer (model-based)', () => {
  it('delivers per key a consistent subsequence ending at the latest state, bounded by two per key, keys in line order', () => {
    const keys = ['a', 'b', 'c'];
    const commands = [
      fc.tuple(fc.constantFrom(...keys), fc.boolean(), fc.boolean()).map(([k, p, t]) => new Write(k, p, t)),
      fc.constant(new Take()),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        const w: World = {
          buffer: new NotificationBuffer(),
          source: new Map(keys.map((k) => [k, undefined])),
          history: new Map(keys.map((k) => [k, []])),
          seen: new Map(keys.map((k) => [k, undefined])),
          received: new Map(keys.map((k) => [k, []])),
          version: 0,
          line: [],
        };
        fc.modelRun(() => ({ model: {}, real: w }), cmds);
        while (w.buffer.size > 0) new Take().run({}, w);
        for (const k of keys) {
          expect(w.seen.get(k)).toBe(w.source.get(k));
          expect(isSubsequence(w.received.get(k)!, w.history.get(k)!)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
