// replicationControllerAsReplicaSet: a core/v1 ReplicationController read as a ReplicaSet (its map selector as matchLabels), as upstream's RC adapter does.
import type { ReplicaSet } from './replica-set-types.ts';

/**
 * The ReplicaSet view of a ReplicationController: the same metadata, replicas, minReadySeconds, template
 * and status; `spec.selector` (a plain label map) becomes `{ matchLabels }`, and an absent selector
 * defaults to the template's labels as the API server would.
 *
 * @param rc the ReplicationController
 */
export function replicationControllerAsReplicaSet(rc: ReplicaSet): ReplicaSet {
  const raw = rc.spec.selector as Record<string, string> | undefined;
  const matchLabels = raw ?? rc.spec.template?.metadata?.labels ?? {};
  return { ...rc, spec: { ...rc.spec, selector: { matchLabels: { ...matchLabels } } } };
}
