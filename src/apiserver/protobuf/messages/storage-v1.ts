// The protobuf messages of storage/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** storage/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const STORAGE_V1: MessagePackage = {
  name: 'storage/v1',
  messages: {
    CSIDriver: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'CSIDriverSpec', 'e'],
    ],
    CSIDriverList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'CSIDriver', 're'],
    ],
    CSIDriverSpec: [
      ['attachRequired', 1, 'bool', 'p'],
      ['podInfoOnMount', 2, 'bool', 'p'],
      ['volumeLifecycleModes', 3, 'string', 'r'],
      ['storageCapacity', 4, 'bool', 'p'],
      ['fsGroupPolicy', 5, 'string', 'p'],
      ['tokenRequests', 6, 'TokenRequest', 'r'],
      ['requiresRepublish', 7, 'bool', 'p'],
      ['seLinuxMount', 8, 'bool', 'p'],
      ['nodeAllocatableUpdatePeriodSeconds', 9, 'int64', 'p'],
      ['serviceAccountTokenInSecrets', 10, 'bool', 'p'],
      ['preventPodSchedulingIfMissing', 11, 'bool', 'p'],
    ],
    CSINode: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'CSINodeSpec', 'e'],
      ['status', 3, 'CSINodeStatus'],
    ],
    CSINodeDriver: [
      ['name', 1, 'string', 'e'],
      ['nodeID', 2, 'string', 'e'],
      ['topologyKeys', 3, 'string', 're'],
      ['allocatable', 4, 'VolumeNodeResources', 'p'],
    ],
    CSINodeList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'CSINode', 're'],
    ],
    CSINodeSpec: [['drivers', 1, 'CSINodeDriver', 're']],
    CSINodeStatus: [['storageHealth', 1, 'StorageHealth', 'r']],
    CSIStorageCapacity: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['nodeTopology', 2, 'meta/v1.LabelSelector', 'p'],
      ['storageClassName', 3, 'string', 'e'],
      ['capacity', 4, '@Quantity', 'p'],
      ['maximumVolumeSize', 5, '@Quantity', 'p'],
    ],
    CSIStorageCapacityList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'CSIStorageCapacity', 're'],
    ],
    StorageClass: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['provisioner', 2, 'string', 'e'],
      ['parameters', 3, 'map<string,string>'],
      ['reclaimPolicy', 4, 'string', 'p'],
      ['mountOptions', 5, 'string', 'r'],
      ['allowVolumeExpansion', 6, 'bool', 'p'],
      ['volumeBindingMode', 7, 'string', 'p'],
      ['allowedTopologies', 8, 'core/v1.TopologySelectorTerm', 'r'],
    ],
    StorageClassList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'StorageClass', 're'],
    ],
    StorageHealth: [
      ['name', 1, 'string', 'e'],
      ['healthConditions', 2, 'StorageHealthCondition', 'r'],
    ],
    StorageHealthCondition: [
      ['status', 1, 'string', 'e'],
      ['reason', 2, 'string', 'e'],
      ['message', 3, 'string'],
      ['accessMode', 4, 'string', 'p'],
      ['volumeMode', 5, 'string', 'p'],
      ['lastTransitionTime', 6, '@Time'],
    ],
    TokenRequest: [
      ['audience', 1, 'string', 'e'],
      ['expirationSeconds', 2, 'int64', 'p'],
    ],
    VolumeAttachment: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'VolumeAttachmentSpec', 'e'],
      ['status', 3, 'VolumeAttachmentStatus'],
    ],
    VolumeAttachmentList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'VolumeAttachment', 're'],
    ],
    VolumeAttachmentSource: [
      ['persistentVolumeName', 1, 'string', 'p'],
      ['inlineVolumeSpec', 2, 'core/v1.PersistentVolumeSpec', 'p'],
    ],
    VolumeAttachmentSpec: [
      ['attacher', 1, 'string', 'e'],
      ['source', 2, 'VolumeAttachmentSource', 'e'],
      ['nodeName', 3, 'string', 'e'],
    ],
    VolumeAttachmentStatus: [
      ['attached', 1, 'bool', 'e'],
      ['attachmentMetadata', 2, 'map<string,string>'],
      ['attachError', 3, 'VolumeError', 'p'],
      ['detachError', 4, 'VolumeError', 'p'],
    ],
    VolumeAttributesClass: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['driverName', 2, 'string', 'e'],
      ['parameters', 3, 'map<string,string>'],
    ],
    VolumeAttributesClassList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'VolumeAttributesClass', 're'],
    ],
    VolumeError: [
      ['time', 1, '@Time'],
      ['message', 2, 'string'],
      ['errorCode', 3, 'int32', 'p'],
    ],
    VolumeNodeResources: [['count', 1, 'int32', 'p']],
  },
};
