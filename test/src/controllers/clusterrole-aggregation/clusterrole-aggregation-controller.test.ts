// clusterRoleAggregationController over HTTP against the embedded API server: an aggregated ClusterRole gains a labelled role's rules, follows a change to them, and loses them when that role goes.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterRole } from '../../../../operators/controller/clusterrole-aggregation/aggregated-rules.ts';
import {
  CLUSTER_ROLES,
  clusterRoleAggregationController,
} from '../../../../src/controllers/clusterrole-aggregation/clusterrole-aggregation-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { eventually } from '../../../helpers/eventually.ts';

const cluster = useEmbeddedCluster();
const LABEL = { 'rbac.example.com/aggregate-to-monitoring': 'true' };

describe('clusterRoleAggregationController', () => {
  let stop = () => {};
  beforeAll(() => {
    const factory = informerFactory({ client: cluster.api });
    const sub = clusterRoleAggregationController({
      client: cluster.api,
      informerFactory: factory,
    }).subscribe();
    factory.start();
    stop = () => {
      sub.unsubscribe();
      factory.shutdown();
    };
  });
  afterAll(() => stop());

  const rules = async () =>
    (await firstValueFrom(cluster.api.get<ClusterRole>(CLUSTER_ROLES, 'monitoring'))).rules ?? [];

  it('keeps the aggregated role at the rules of the roles it selects', async () => {
    const api = cluster.api;
    await firstValueFrom(
      api.create(CLUSTER_ROLES, {
        metadata: { name: 'monitoring' },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: LABEL }] },
      }),
    );
    await firstValueFrom(
      api.create(CLUSTER_ROLES, {
        metadata: { name: 'monitoring-endpoints', labels: LABEL },
        rules: [
          { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
        ],
      }),
    );
    await eventually(async () => {
      expect(await rules()).toEqual([
        { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
      ]);
    }, 15_000);

    const child = await firstValueFrom(api.get<ClusterRole>(CLUSTER_ROLES, 'monitoring-endpoints'));
    await firstValueFrom(
      api.update(CLUSTER_ROLES, {
        ...child,
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      }),
    );
    await eventually(async () => {
      expect(await rules()).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    }, 15_000);

    await firstValueFrom(api.delete(CLUSTER_ROLES, 'monitoring-endpoints'));
    await eventually(async () => {
      expect(await rules()).toEqual([]);
    }, 15_000);
  }, 30_000);
});
