// Coordinated leader election end to end: the embedded API server's controller picks the holder among real candidates over HTTPS.
import { merge, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lease } from '../../../operators/leader-election-record.ts';
import { leaderElection } from '../../../src/leader-election/leader-election.ts';
import { leaseCandidate } from '../../../src/leader-election/lease-candidate.ts';
import { type KubeApiClient, kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { leaseClient } from '../../../streams/lease-client.ts';
import { type EmbeddedCluster, embeddedCluster } from '../../helpers/embedded-cluster.ts';
import { eventually } from '../../helpers/eventually.ts';

const timings = { leaseDuration: 2_000, renewDeadline: 1_500, retryPeriod: 200 };

describe('coordinated leader election (CoordinatedLeaderElection feature gate)', () => {
  const open: { sub?: Subscription; cluster?: EmbeddedCluster; clients: KubeApiClient[] } = { clients: [] };
  afterEach(async () => {
    open.sub?.unsubscribe();
    for (const c of open.clients) c.close();
    open.clients = [];
    await open.cluster?.close();
  });

  it('elects the candidate with the oldest emulation version and hands over when a better one joins', async () => {
    open.cluster = await embeddedCluster({
      featureGates: { CoordinatedLeaderElection: true },
      coordinatedElectionTiming: { electionDurationMs: 300, requeueMs: 300 },
    });
    const { server } = open.cluster;
    const leading = { a: false, b: false };
    const overlaps: string[] = [];
    const candidate = (id: 'a' | 'b', emulationVersion: string) => {
      const api = kubeApiClient({
        kubeConfig: { from: 'string', yaml: server.kubeconfig },
        qps: Number.POSITIVE_INFINITY,
      });
      open.clients.push(api);
      return merge(
        leaseCandidate({
          client: api,
          namespace: 'kube-system',
          name: id,
          leaseName: 'my-controller',
          binaryVersion: '1.33.0',
          emulationVersion,
        }),
        leaderElection({
          client: leaseClient(api),
          namespace: 'kube-system',
          name: 'my-controller',
          identity: id,
          coordinated: true,
          ...timings,
        }),
      ).subscribe((lead) => {
        leading[id] = lead;
        if (leading.a && leading.b) overlaps.push(`${id} started leading while the other led`);
      });
    };

    open.sub = candidate('a', '1.33');
    await eventually(() => expect(leading.a).toBe(true), 15_000);
    const lease = await new Promise<Lease | undefined>((resolve, reject) =>
      leaseClient(open.cluster!.api)
        .get('kube-system', 'my-controller')
        .subscribe({ next: resolve, error: reject }),
    );
    expect(lease?.spec).toMatchObject({ holderIdentity: 'a', strategy: 'OldestEmulationVersion' });

    open.sub.add(candidate('b', '1.32'));
    await eventually(() => {
      expect(leading.b).toBe(true);
      expect(leading.a).toBe(false);
    }, 20_000);
    expect(overlaps).toEqual([]);
  }, 40_000);

  it('refuses a feature gate it does not know, naming it', async () => {
    await expect(embeddedCluster({ featureGates: { Nope: true } })).rejects.toThrow(
      'unrecognized feature gate: Nope',
    );
  });
});
