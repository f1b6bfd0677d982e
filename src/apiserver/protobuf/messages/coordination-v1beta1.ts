// The protobuf messages of coordination/v1beta1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** coordination/v1beta1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const COORDINATION_V1BETA1: MessagePackage = {
  name: 'coordination/v1beta1',
  messages: {
    Lease: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'LeaseSpec'],
    ],
    LeaseCandidate: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'LeaseCandidateSpec'],
    ],
    LeaseCandidateList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'LeaseCandidate', 're'],
    ],
    LeaseCandidateSpec: [
      ['leaseName', 1, 'string', 'e'],
      ['pingTime', 2, '@MicroTime', 'p'],
      ['renewTime', 3, '@MicroTime', 'p'],
      ['binaryVersion', 4, 'string', 'e'],
      ['emulationVersion', 5, 'string'],
      ['strategy', 6, 'string'],
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
