// callExtenders: preemption's candidates narrowed by the extenders that take part in preemption, as upstream's Evaluator.callExtenders.
import type { Pod } from '../../../api/core-v1.ts';
import type { Extender, Victims } from '../../framework/extender.ts';
import type { NodeInfoLister } from '../../framework/interface.ts';
import { asStatus, type Status } from '../../framework/status.ts';
import type { Candidate } from './pick-one-node-for-preemption.ts';

/**
 * Hands the candidates (node → victims) to each interested extender that supports preemption, in order;
 * each answer replaces the map the next extender sees. An extender's error fails preemption unless it is
 * ignorable (then it is skipped); a node answered without victims is an error ("expected at least one
 * victim pod on node ...") unless the extender is ignorable (then the node is dropped). Stops once no
 * node is left. Without extenders, or without candidates, the candidates are returned as they are.
 *
 * @returns the surviving candidates, or an Error status
 */
export async function callExtenders(
  extenders: readonly Extender[],
  pod: Pod,
  candidates: readonly Candidate[],
  nodeInfos: NodeInfoLister,
): Promise<{ candidates: readonly Candidate[]; status?: Status }> {
  if (extenders.length === 0 || candidates.length === 0) return { candidates };
  let victims = new Map<string, Victims>();
  for (const c of candidates) {
    if (c.name !== '' && !victims.has(c.name))
      victims.set(c.name, { pods: c.victims, numPDBViolations: c.numPdbViolations });
  }
  if (victims.size === 0) return { candidates };
  for (const ext of extenders) {
    if (!ext.supportsPreemption?.() || !ext.processPreemption || !ext.isInterested(pod)) continue;
    let answer: Map<string, Victims>;
    try {
      answer = await ext.processPreemption(pod, victims, nodeInfos);
    } catch (error) {
      if (ext.isIgnorable()) continue;
      return { candidates: [], status: asStatus(error) };
    }
    for (const [node, v] of [...answer]) {
      if (v && v.pods.length > 0) continue;
      if (ext.isIgnorable()) {
        answer.delete(node);
        continue;
      }
      return {
        candidates: [],
        status: asStatus(new Error(`expected at least one victim pod on node "${node}"`)),
      };
    }
    victims = answer;
    if (victims.size === 0) break;
  }
  return {
    candidates: [...victims].map(([name, v]) => ({
      name,
      victims: v.pods,
      numPdbViolations: v.numPDBViolations,
    })),
  };
}
