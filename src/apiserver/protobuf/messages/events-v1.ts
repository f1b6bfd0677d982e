// The protobuf messages of events/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** events/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const EVENTS_V1: MessagePackage = {
  name: 'events/v1',
  messages: {
    Event: [
      ['metadata', 1, 'meta/v1.ObjectMeta', 'e'],
      ['eventTime', 2, '@MicroTime', 'e'],
      ['series', 3, 'EventSeries', 'p'],
      ['reportingController', 4, 'string'],
      ['reportingInstance', 5, 'string'],
      ['action', 6, 'string'],
      ['reason', 7, 'string'],
      ['regarding', 8, 'core/v1.ObjectReference'],
      ['related', 9, 'core/v1.ObjectReference', 'p'],
      ['note', 10, 'string'],
      ['type', 11, 'string'],
      ['deprecatedSource', 12, 'core/v1.EventSource'],
      ['deprecatedFirstTimestamp', 13, '@Time'],
      ['deprecatedLastTimestamp', 14, '@Time'],
      ['deprecatedCount', 15, 'int32'],
    ],
    EventList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'Event', 're'],
    ],
    EventSeries: [
      ['count', 1, 'int32', 'e'],
      ['lastObservedTime', 2, '@MicroTime', 'e'],
    ],
  },
};
