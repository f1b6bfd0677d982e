// The protobuf messages of discovery/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** discovery/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const DISCOVERY_V1: MessagePackage = {
  name: 'discovery/v1',
  messages: {
    Endpoint: [
      ['addresses', 1, 'string', 're'],
      ['conditions', 2, 'EndpointConditions'],
      ['hostname', 3, 'string', 'p'],
      ['targetRef', 4, 'core/v1.ObjectReference', 'p'],
      ['deprecatedTopology', 5, 'map<string,string>'],
      ['nodeName', 6, 'string', 'p'],
      ['zone', 7, 'string', 'p'],
      ['hints', 8, 'EndpointHints', 'p'],
    ],
    EndpointConditions: [
      ['ready', 1, 'bool', 'p'],
      ['serving', 2, 'bool', 'p'],
      ['terminating', 3, 'bool', 'p'],
    ],
    EndpointHints: [
      ['forZones', 1, 'ForZone', 'r'],
      ['forNodes', 2, 'ForNode', 'r'],
    ],
    EndpointPort: [
      ['name', 1, 'string', 'p'],
      ['protocol', 2, 'string', 'p'],
      ['port', 3, 'int32', 'p'],
      ['appProtocol', 4, 'string', 'p'],
    ],
    EndpointSlice: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['addressType', 4, 'string', 'e'],
      ['endpoints', 2, 'Endpoint', 're'],
      ['ports', 3, 'EndpointPort', 're'],
    ],
    EndpointSliceList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'EndpointSlice', 're'],
    ],
    ForNode: [['name', 1, 'string', 'e']],
    ForZone: [['name', 1, 'string', 'e']],
  },
};
