// The protobuf messages of node/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** node/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const NODE_V1: MessagePackage = {
  name: 'node/v1',
  messages: {
    Overhead: [['podFixed', 1, 'map<string,@Quantity>']],
    RuntimeClass: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['handler', 2, 'string', 'e'],
      ['overhead', 3, 'Overhead', 'p'],
      ['scheduling', 4, 'Scheduling', 'p'],
    ],
    RuntimeClassList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'RuntimeClass', 're'],
    ],
    Scheduling: [
      ['nodeSelector', 1, 'map<string,string>'],
      ['tolerations', 2, 'core/v1.Toleration', 'r'],
    ],
  },
};
