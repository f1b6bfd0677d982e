// The informer lifecycle as client-go has it (factory Start, stop for good, AddEventHandler after stop), beside refCount.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../operators/types.ts';
import { informerFactory } from '../../../src/informers/informer-factory.ts';
import { InformerStoppedError, sharedInformer } from '../../../src/informers/shared-informer.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { PODS } from '../../../streams/resources.ts';

function setup() {
  const clock = new VirtualClock();
  const server = new FakeApiServer({ scheduler: clock.scheduler });
  for (const name of ['a', 'b', 'c']) server.upsert({ metadata: { name, namespace: 'ns' } });
  let requests = 0; // lists and watches: a start lists (or streams the list through a watch) once
  const client = {
    list: (_r: unknown, o = {}) => {
      requests += 1;
      return server.list(o);
    },
    watch: (_r: unknown, o = {}) => {
      requests += 1;
      return server.watch(o);
    },
  } as unknown as ApiClient;
  return { clock, server, client, requests: () => requests };
}

const adds = () => {
  const seen: string[] = [];
  return { seen, handler: { onAdd: (o: KubeObject) => void seen.push(o.metadata!.name!) } };
};

describe('informer lifecycle (shared_informer_test.go)', () => {
  it("the factory's informers start only at start(): handlers registered before it all see the initial list once", () => {
    const { clock, client, requests } = setup();
    const factory = informerFactory({ client, scheduler: clock.scheduler });
    const pods = factory.forResource(PODS);
    const [h1, h2] = [adds(), adds()];
    pods.addEventHandler(h1.handler);
    const seenByEvents: string[] = [];
    const sub = pods.events().subscribe((n) => {
      if (n.type === 'add') seenByEvents.push(n.object.metadata!.name!);
    });
    pods.addEventHandler(h2.handler);
    clock.advance(1_000);
    expect(requests()).toBe(0);
    expect(pods.running).toBe(false);
    factory.start();
    clock.advance(0);
    for (const seen of [h1.seen, h2.seen, seenByEvents]) expect(seen.sort()).toEqual(['a', 'b', 'c']);
    sub.unsubscribe();
    expect(pods.running).toBe(true); // subscribers leaving does not stop it
    factory.shutdown();
  });

  it('after stop, adding a handler is an error (client-go message), start() does nothing, isStopped says so', () => {
    const { clock, client, requests } = setup();
    const factory = informerFactory({ client, scheduler: clock.scheduler });
    const pods = factory.forResource(PODS);
    const stopped: boolean[] = [];
    pods.isStopped$.subscribe((v) => stopped.push(v));
    factory.start();
    clock.advance(0);
    expect(pods.isStopped()).toBe(false);
    factory.shutdown();
    expect(pods.isStopped()).toBe(true);
    expect(stopped).toEqual([false, true]);
    expect(() => pods.addEventHandler({}, { name: 'late' })).toThrow(InformerStoppedError);
    expect(() => pods.addEventHandler({}, { name: 'late' })).toThrow(
      'handler late was not added to shared informer because it has stopped already',
    );
    let error: unknown;
    pods.events().subscribe({ error: (e) => (error = e) });
    expect(error).toBeInstanceOf(InformerStoppedError);
    const hold = pods.start();
    expect(hold.closed).toBe(true);
    expect(pods.running).toBe(false);
    expect(requests()).toBe(1);
  });

  it('refCount (the standalone default) starts with the first handler and restarts with a fresh list', () => {
    const { clock, client, requests } = setup();
    const factory = informerFactory({ client, scheduler: clock.scheduler, lifecycle: 'refCount' });
    const pods = factory.forResource(PODS);
    const h = adds();
    const reg = pods.addEventHandler(h.handler);
    clock.advance(0);
    expect(pods.running).toBe(true);
    reg.remove();
    expect(pods.running).toBe(false);
    expect(pods.isStopped()).toBe(false);
    pods.addEventHandler(adds().handler);
    expect(requests()).toBe(2);
    const standalone = sharedInformer({
      source: { list: () => client.list(PODS), watch: () => client.watch(PODS) },
    });
    standalone.addEventHandler({});
    expect(standalone.running).toBe(true);
  });

  it('rejects a lifecycle it does not know, naming the field', () => {
    const { client } = setup();
    expect(() =>
      sharedInformer({
        source: { list: () => client.list(PODS), watch: () => client.watch(PODS) },
        lifecycle: 'x' as never,
      }),
    ).toThrow("lifecycle: must be 'refCount' or 'explicit', got x");
  });
});
