// Test fixtures: Deployments and ReplicaSets shaped as upstream's deployment tests build them (surge and unavailable 0 unless given).
import type {
  Deployment,
  IntOrString,
} from '../../../../operators/controller/deployment/deployment-types.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';

/** A rolling Deployment `name` with `replicas`, maxSurge/maxUnavailable 0 unless given, selector foo=bar. */
export function newDeployment(
  replicas: number,
  opts: {
    maxSurge?: IntOrString;
    maxUnavailable?: IntOrString;
    revisionHistoryLimit?: number;
    progressDeadlineSeconds?: number;
    strategy?: 'RollingUpdate' | 'Recreate';
    name?: string;
  } = {},
): Deployment {
  const name = opts.name ?? 'foo';
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, generation: 1, annotations: {} },
    spec: {
      replicas,
      selector: { matchLabels: { foo: 'bar' } },
      template: {
        metadata: { labels: { foo: 'bar' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
      strategy:
        opts.strategy === 'Recreate'
          ? { type: 'Recreate' }
          : {
              type: 'RollingUpdate',
              rollingUpdate: { maxSurge: opts.maxSurge ?? 0, maxUnavailable: opts.maxUnavailable ?? 0 },
            },
      ...(opts.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: opts.revisionHistoryLimit } : {}),
      ...(opts.progressDeadlineSeconds !== undefined
        ? { progressDeadlineSeconds: opts.progressDeadlineSeconds }
        : {}),
    },
    status: {},
  };
}

/** A ReplicaSet `name` with spec `replicas`, created at `created` (ms), status optional. */
export function rs(
  name: string,
  replicas: number,
  created = 0,
  status: Partial<NonNullable<ReplicaSet['status']>> = {},
  template: ReplicaSet['spec']['template'] = { metadata: { labels: { other: name } } },
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: new Date(created).toISOString(),
      annotations: {},
    },
    spec: { replicas, selector: { matchLabels: { foo: 'bar' } }, template },
    status: { replicas: 0, ...status },
  };
}
