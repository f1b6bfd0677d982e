// The in-tree plugin names, as kube-scheduler's names package spells them.
export const PLUGIN_NAMES = {
  PrioritySort: 'PrioritySort',
  DefaultBinder: 'DefaultBinder',
  DefaultPreemption: 'DefaultPreemption',
  ImageLocality: 'ImageLocality',
  InterPodAffinity: 'InterPodAffinity',
  NodeAffinity: 'NodeAffinity',
  NodeName: 'NodeName',
  NodePorts: 'NodePorts',
  NodeResourcesBalancedAllocation: 'NodeResourcesBalancedAllocation',
  NodeResourcesFit: 'NodeResourcesFit',
  NodeUnschedulable: 'NodeUnschedulable',
  PodTopologySpread: 'PodTopologySpread',
  SchedulingGates: 'SchedulingGates',
  TaintToleration: 'TaintToleration',
} as const;
