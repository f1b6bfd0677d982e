// The protobuf messages of coordination/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** coordination/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const COORDINATION_V1: MessagePackage = {
  name: 'coordination/v1',
  messages: {
    Lease: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'LeaseSpec'],
    ],
    LeaseList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'Lease', 're'],
    ],
    LeaseSpec: [
      ['holderIdentity', 1, 'string', 'p'],
      ['leaseDurationSeconds', 2, 'int32', 'p'],
      ['acquireTime', 3, '@MicroTime', 'p'],
      ['renewTime', 4, '@MicroTime', 'p'],
      ['leaseTransitions', 5, 'int32', 'p'],
      ['strategy', 6, 'string', 'p'],
      ['preferredHolder', 7, 'string', 'p'],
    ],
  },
};
