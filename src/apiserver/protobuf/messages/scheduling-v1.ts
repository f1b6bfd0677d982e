// The protobuf messages of scheduling/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** scheduling/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const SCHEDULING_V1: MessagePackage = {
  name: 'scheduling/v1',
  messages: {
    PriorityClass: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['value', 2, 'int32', 'e'],
      ['globalDefault', 3, 'bool'],
      ['description', 4, 'string'],
      ['preemptionPolicy', 5, 'string', 'p'],
    ],
    PriorityClassList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'PriorityClass', 're'],
    ],
  },
};
