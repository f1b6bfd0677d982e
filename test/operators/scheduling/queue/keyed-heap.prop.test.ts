// KeyedHeap against a sorted array: any mix of adds, updates, deletes and pops pops in the same order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedHeap } from '../../../../operators/scheduling/queue/keyed-heap.ts';

interface Item {
  key: string;
  value: number;
}

describe('KeyedHeap', () => {
  it('holds each key once and pops the least item, like a naive sorted model', () => {
    const op = fc.oneof(
      fc.record({
        type: fc.constant('put' as const),
        key: fc.integer({ min: 0, max: 9 }),
        value: fc.integer({ min: 0, max: 20 }),
      }),
      fc.record({ type: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ type: fc.constant('pop' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        // Ties broken by key so that the order is total.
        const less = (a: Item, b: Item) => a.value < b.value || (a.value === b.value && a.key < b.key);
        const heap = new KeyedHeap<Item>((i) => i.key, less);
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o.type === 'put') {
            heap.addOrUpdate({ key: `k${o.key}`, value: o.value });
            model.set(`k${o.key}`, o.value);
          } else if (o.type === 'delete') {
            expect(heap.delete(`k${o.key}`)?.key).toBe(model.has(`k${o.key}`) ? `k${o.key}` : undefined);
            model.delete(`k${o.key}`);
          } else {
            const sorted = [...model]
              .map(([key, value]) => ({ key, value }))
              .sort((a, b) => (less(a, b) ? -1 : 1));
            const got = heap.pop();
            expect(got).toEqual(sorted[0]);
            if (got) model.delete(got.key);
          }
          expect(heap.length).toBe(model.size);
          for (const [k, v] of model) expect(heap.get(k)?.value).toBe(v);
        }
      }),
    );
  });
});
