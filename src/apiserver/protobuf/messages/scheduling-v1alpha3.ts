// The protobuf messages of scheduling/v1alpha3 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** scheduling/v1alpha3: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const SCHEDULING_V1ALPHA3: MessagePackage = {
  name: 'scheduling/v1alpha3',
  messages: {
    TopologyConstraint: [['key', 1, 'string', 'e']],
    WorkloadPodGroupAllDisruptionMode: [],
    WorkloadPodGroupBasicSchedulingPolicy: [],
    WorkloadPodGroupDisruptionMode: [
      ['single', 1, 'WorkloadPodGroupSingleDisruptionMode', 'p'],
      ['all', 2, 'WorkloadPodGroupAllDisruptionMode', 'p'],
    ],
    WorkloadPodGroupGangSchedulingPolicy: [['minCount', 1, 'int32', 'p']],
    WorkloadPodGroupResourceClaim: [
      ['name', 1, 'string', 'e'],
      ['resourceClaimName', 2, 'string', 'p'],
      ['resourceClaimTemplateName', 3, 'string', 'p'],
    ],
    WorkloadPodGroupSchedulingConstraints: [['topology', 1, 'TopologyConstraint', 'r']],
    WorkloadPodGroupSchedulingPolicy: [
      ['basic', 1, 'WorkloadPodGroupBasicSchedulingPolicy', 'p'],
      ['gang', 2, 'WorkloadPodGroupGangSchedulingPolicy', 'p'],
    ],
    WorkloadPodGroupSingleDisruptionMode: [],
  },
};
