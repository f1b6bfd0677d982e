// computeZoneState: a zone's disruption state from its nodes' Ready conditions (upstream's ComputeZoneState), with the zone key of a node.
import type { Node, NodeCondition } from '../../api/core-v1.ts';

/** Normal, PartialDisruption (many not ready) or FullDisruption (none ready). */
export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';

/**
 * The zone's state: FullDisruption when no node is Ready and at least one is not; PartialDisruption when
 * more than 2 are not Ready and they are at least `unhealthyZoneThreshold` of the zone; else Normal. A node
 * without a Ready condition counts as not Ready.
 *
 * @param readyConditions one entry per node of the zone (undefined: never posted Ready)
 * @param unhealthyZoneThreshold `--unhealthy-zone-threshold`, default 0.55
 * @returns the number of not-Ready nodes and the state
 */
export function computeZoneState(
  readyConditions: readonly (NodeCondition | undefined)[],
  unhealthyZoneThreshold = 0.55,
): { unhealthy: number; state: ZoneState } {
  const ready = readyConditions.filter((c) => c?.status === 'True').length;
  const unhealthy = readyConditions.length - ready;
  if (ready === 0 && unhealthy > 0) return { unhealthy, state: 'FullDisruption' };
  if (unhealthy > 2 && unhealthy / readyConditions.length >= unhealthyZoneThreshold) {
    return { unhealthy, state: 'PartialDisruption' };
  }
  return { unhealthy, state: 'Normal' };
}

/**
 * A node's zone key from its topology labels (region and zone, the beta failure-domain labels as fallback),
 * `''` when it has neither.
 * @param node the node
 * @returns `region:\0:zone`, or `''`
 */
export function zoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const region =
    labels['topology.kubernetes.io/region'] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone =
    labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\u0000:${zone}`;
}
