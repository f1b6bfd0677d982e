// The README's "compose your own pipeline" example, run against the embedded API server through the public entry.
import { EMPTY, firstValueFrom, NEVER, Subject, switchMap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dropManagedFields,
  informerFactory,
  kubeApiClient,
  leaderElection,
  leaseClient,
  objectKey,
  PODS,
  type RunningApiServer,
  reconcileWith,
  startApiServer,
  waitForCacheSync,
  workQueue,
} from '../src/index.ts';

describe('README example', () => {
  let server: RunningApiServer;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reconciles every pod while leading, from a shared informer through a work queue', async () => {
    const api = kubeApiClient({ kubeConfig: { from: 'string', yaml: server.kubeconfig } });
    await firstValueFrom(
      api.create(
        PODS,
        { metadata: { name: 'before' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        { namespace: 'default' },
      ),
    );
    const factory = informerFactory({ client: api, transform: dropManagedFields });
    const pods = factory.forResource(PODS);
    const queue = workQueue<string>({ name: 'pods' });
    pods.addEventHandler({
      onAdd: (p) => queue.add(objectKey(p)),
      onUpdate: (_, p) => queue.add(objectKey(p)),
    });
    factory.start();
    expect(await waitForCacheSync(AbortSignal.timeout(10_000), pods)).toBe(true);

    const reconciled = new Subject<string>();
    const work$ = NEVER.pipe(
      reconcileWith(
        async (key) => {
          const pod = pods.getStore().getByKey(key);
          if (pod) reconciled.next(key);
          return {};
        },
        { queue, workers: 4 },
      ),
    );
    const seen = new Set<string>();
    const both = new Promise<void>((done) =>
      reconciled.subscribe((key) => {
        seen.add(key);
        if (seen.has('default/before') && seen.has('default/after')) done();
      }),
    );
    const leading: boolean[] = [];
    const sub = leaderElection({
      client: leaseClient(api),
      namespace: 'kube-system',
      name: 'my-controller',
      identity: 'readme-test',
    })
      .pipe(
        switchMap((lead) => {
          leading.push(lead);
          return lead ? work$ : EMPTY;
        }),
      )
      .subscribe();
    await firstValueFrom(
      api.create(
        PODS,
        { metadata: { name: 'after' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        { namespace: 'default' },
      ),
    );
    await both;
    expect(leading).toContain(true);
    sub.unsubscribe();
    factory.shutdown();
    api.close();
  });
});
