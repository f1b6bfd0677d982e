// A preemption test bench: a framework with TestResourceFit (and optionally the spreading/affinity plugins) and DefaultPreemption.
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import { type Extender, writeExtenders } from '../../../../../operators/scheduling/framework/extender.ts';
import type {
  NodeToStatus,
  PodDisruptionBudget,
  Registry,
} from '../../../../../operators/scheduling/framework/interface.ts';
import type { Status } from '../../../../../operators/scheduling/framework/status.ts';
import {
  type DefaultPreemption,
  defaultPreemptionFactory,
} from '../../../../../operators/scheduling/plugins/default-preemption/default-preemption.ts';
import { interPodAffinityFactory } from '../../../../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity.ts';
import { newNodeResourcesFit } from '../../../../../operators/scheduling/plugins/node-resources/node-resources-fit.ts';
import { podTopologySpreadFactory } from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import { type ClusterOptions, makeCluster, TEST_FIT } from './cluster.ts';

export interface BenchOptions extends Omit<ClusterOptions, 'registry'> {
  /** Also run PodTopologySpread and InterPodAffinity (PreFilter + Filter). */
  withPodPlugins?: boolean;
  /** Use the real NodeResourcesFit instead of the bench's TestResourceFit. */
  realFit?: boolean;
  args?: Record<string, unknown>;
  random?: (n: number) => number;
}

export function preemptionBench(o: BenchOptions) {
  const registry: Registry = {
    DefaultPreemption: defaultPreemptionFactory({ random: o.random ?? (() => 0) }),
    PodTopologySpread: podTopologySpreadFactory(),
    InterPodAffinity: interPodAffinityFactory(),
    NodeResourcesFit: newNodeResourcesFit,
  };
  const podPlugins = o.withPodPlugins ? ['PodTopologySpread', 'InterPodAffinity'] : [];
  const fit = o.realFit ? 'NodeResourcesFit' : TEST_FIT;
  const cluster = makeCluster({
    ...o,
    registry,
    preFilter: o.realFit ? [fit, ...podPlugins] : podPlugins,
    filter: [fit, ...podPlugins],
    postFilter: ['DefaultPreemption'],
    pluginArgs: { DefaultPreemption: o.args ?? {} },
  });
  const plugin = cluster.framework.plugin('DefaultPreemption') as DefaultPreemption;

  /** Runs PreFilter and Filter on every node and returns the cycle state and the NodeToStatus (or the given statuses). */
  function filterAll(
    pod: Pod,
    given?: Map<string, Status>,
  ): { state: ReturnType<typeof cluster.newState>; statuses: NodeToStatus } {
    const state = cluster.newState();
    cluster.framework.runPreFilterPlugins(state, pod);
    if (given)
      return {
        state,
        statuses: { statuses: given, absent: { code: 'UnschedulableAndUnresolvable', reasons: [] } },
      };
    const statuses = new Map<string, Status>();
    for (const n of cluster.snapshot.list()) {
      const s = cluster.framework.runFilterPlugins(state, pod, n);
      if (s) statuses.set(n.name, s);
    }
    return { state, statuses: { statuses, absent: { code: 'UnschedulableAndUnresolvable', reasons: [] } } };
  }

  /** The whole PostFilter for `pod` after a filter pass (or with `given` statuses), with the cycle's extenders. */
  async function postFilter(pod: Pod, given?: Map<string, Status>, extenders: readonly Extender[] = []) {
    const { state, statuses } = filterAll(pod, given);
    writeExtenders(state, extenders);
    return plugin.postFilter(state, pod, statuses);
  }

  return { ...cluster, plugin, filterAll, postFilter };
}

export function pdb(
  name: string,
  matchLabels: Record<string, string>,
  disruptionsAllowed: number,
  o: { ns?: string; disrupted?: string[] } = {},
): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: o.ns ?? 'default' },
    spec: { selector: { matchLabels } },
    status: {
      disruptionsAllowed,
      disruptedPods: Object.fromEntries((o.disrupted ?? []).map((p) => [p, '2026-01-01T00:00:00Z'])),
    },
  };
}
