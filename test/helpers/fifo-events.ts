// Test builders for the FIFO operators' marble tests: reflector events in, FifoEvents out, a slow consumer.
import { map, timer } from 'rxjs';
import type { FifoItem } from '../../operators/fifo-queue.ts';
import type { FifoEvent } from '../../operators/fifo-queue-operator.ts';
import type { KubeObject, ReflectorEvent } from '../../operators/types.ts';

/** An object named `name` at resourceVersion `v`. */
export const o = (name: string, v = 0): KubeObject => ({ metadata: { name, resourceVersion: String(v) } });
/** An `Added` reflector event for `o(name, v)`. */
export const added = (name: string, v = 0): ReflectorEvent => ({ type: 'Added', object: o(name, v) });
/** An `Updated` reflector event for `o(name, v)`. */
export const updated = (name: string, v = 0): ReflectorEvent => ({ type: 'Updated', object: o(name, v) });
/** The delta types of an item joined with `+`, e.g. `Added+Updated`. */
export const types = (item: FifoItem) => item.deltas.map((d) => d.type).join('+');
/** The `Processed` event the operator emits for `key` with the consumer's `result`. */
export const processed = (
  key: string,
  result: string,
  isInInitialList = false,
): FifoEvent<KubeObject, string> => ({ type: 'Processed', key, result, isInInitialList });
/** The `Synced` event. */
export const synced: FifoEvent<KubeObject, string> = { type: 'Synced' };
/** A consumer that takes `frames` of virtual time per item, then emits the item's delta types. */
export const slow = (frames: number) => (item: FifoItem) => timer(frames).pipe(map(() => types(item)));
