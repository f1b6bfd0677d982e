// The protobuf messages of policy/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** policy/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const POLICY_V1: MessagePackage = {
  name: 'policy/v1',
  messages: {
    Eviction: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['deleteOptions', 2, 'meta/v1.DeleteOptions', 'p'],
    ],
    PodDisruptionBudget: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'PodDisruptionBudgetSpec'],
      ['status', 3, 'PodDisruptionBudgetStatus'],
    ],
    PodDisruptionBudgetList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'PodDisruptionBudget', 're'],
    ],
    PodDisruptionBudgetSpec: [
      ['minAvailable', 1, '@IntOrString', 'p'],
      ['selector', 2, 'meta/v1.LabelSelector', 'p'],
      ['maxUnavailable', 3, '@IntOrString', 'p'],
      ['unhealthyPodEvictionPolicy', 4, 'string', 'p'],
    ],
    PodDisruptionBudgetStatus: [
      ['observedGeneration', 1, 'int64'],
      ['disruptedPods', 2, 'map<string,@Time>'],
      ['disruptionsAllowed', 3, 'int32', 'e'],
      ['currentHealthy', 4, 'int32', 'e'],
      ['desiredHealthy', 5, 'int32', 'e'],
      ['expectedPods', 6, 'int32', 'e'],
      ['conditions', 7, 'meta/v1.Condition', 'r'],
    ],
  },
};
