// The in-tree registry: every default plugin's name → its factory.
import type { Registry } from '../framework/interface.ts';
import { newDefaultBinder } from './default-binder/default-binder.ts';
import { defaultPreemptionFactory } from './default-preemption/default-preemption.ts';
import { newImageLocality } from './image-locality/image-locality.ts';
import { interPodAffinityFactory } from './inter-pod-affinity/inter-pod-affinity.ts';
import { PLUGIN_NAMES } from './names.ts';
import { newNodeAffinity } from './node-affinity/node-affinity.ts';
import { newNodeName } from './node-name/node-name.ts';
import { newNodePorts } from './node-ports/node-ports.ts';
import { newNodeResourcesBalancedAllocation } from './node-resources/node-resources-balanced-allocation.ts';
import { newNodeResourcesFit } from './node-resources/node-resources-fit.ts';
import { newNodeUnschedulable } from './node-unschedulable/node-unschedulable.ts';
import { podTopologySpreadFactory } from './pod-topology-spread/pod-topology-spread.ts';
import { newPrioritySort } from './priority-sort/priority-sort.ts';
import { newSchedulingGates } from './scheduling-gates/scheduling-gates.ts';
import { newTaintToleration } from './taint-toleration/taint-toleration.ts';
import { volumeRegistry } from './volume-registry.ts';
// ── in-tree plugins of the pod-topology-spread / inter-pod-affinity / default-preemption helper: imports here ──

/** The default plugins by name. Merge an out-of-tree registry over it: `{ ...inTreeRegistry, ...mine }`. */
export const inTreeRegistry: Registry = Object.freeze({
  [PLUGIN_NAMES.SchedulingGates]: newSchedulingGates,
  [PLUGIN_NAMES.PrioritySort]: newPrioritySort,
  [PLUGIN_NAMES.NodeUnschedulable]: newNodeUnschedulable,
  [PLUGIN_NAMES.NodeName]: newNodeName,
  [PLUGIN_NAMES.TaintToleration]: newTaintToleration,
  [PLUGIN_NAMES.NodeAffinity]: newNodeAffinity,
  [PLUGIN_NAMES.NodePorts]: newNodePorts,
  [PLUGIN_NAMES.NodeResourcesFit]: newNodeResourcesFit,
  [PLUGIN_NAMES.NodeResourcesBalancedAllocation]: newNodeResourcesBalancedAllocation,
  [PLUGIN_NAMES.ImageLocality]: newImageLocality,
  [PLUGIN_NAMES.DefaultBinder]: newDefaultBinder,
  // ── PodTopologySpread, InterPodAffinity, DefaultPreemption: their three lines go here ──
  [PLUGIN_NAMES.PodTopologySpread]: podTopologySpreadFactory(),
  [PLUGIN_NAMES.InterPodAffinity]: interPodAffinityFactory(),
  [PLUGIN_NAMES.DefaultPreemption]: defaultPreemptionFactory(),
  // ── the volume plugins, without storage lookups (the assembly passes claims, volumes and classes) ──
  ...volumeRegistry(),
});
