// apiserverPodSource against the fake API server through the real listWatch, in virtual time.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/pod-config/types.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { apiserverPodSource } from '../../../streams/pod-sources/apiserver.ts';

const pod = (name: string, image: string, namespace = 'default'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: { nodeName: 'node-1', containers: [{ name: 'c', image }] },
});
const images = (pods: Pod[]) =>
  pods
    .map((p) => `${p.metadata?.namespace}/${p.metadata?.name}=${p.spec?.containers?.[0]?.image}`)
    .sort()
    .join(' ');

describe('apiserverPodSource', () => {
  it('lists and watches the pods of this node and emits full sets after every change', async () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer<Pod>({ scheduler: clock.scheduler });
    server.upsert(pod('p', 'image/one'));
    const sets: string[] = [];
    const sub = apiserverPodSource({
      listerWatcher: server,
      nodeName: 'node-1',
      scheduler: clock.scheduler,
    }).subscribe((pods) => sets.push(images(pods)));
    const step = async () => {
      for (let i = 0; i < 5; i++) {
        clock.advance(1);
        await Promise.resolve();
      }
    };
    await step();
    expect(sets).toEqual(['default/p=image/one']);
    server.upsert(pod('q', 'image/blah'));
    await step();
    server.upsert(pod('p', 'image/two'));
    await step();
    server.delete('default/p');
    await step();
    server.delete('default/q');
    await step();
    expect(sets).toEqual([
      'default/p=image/one',
      'default/p=image/one default/q=image/blah',
      'default/p=image/two default/q=image/blah',
      'default/q=image/blah',
      '',
    ]);
    const calls = [...server.listCalls, ...server.watchCalls];
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.fieldSelector === 'spec.nodeName=node-1')).toBe(true);
    sub.unsubscribe();
    expect(server.openWatches).toBe(0);
  });

  it('emits an empty set when nothing is bound to the node yet', async () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer<Pod>({ scheduler: clock.scheduler });
    const sets: Pod[][] = [];
    const sub = apiserverPodSource({
      listerWatcher: server,
      nodeName: 'node-1',
      scheduler: clock.scheduler,
    }).subscribe((pods) => sets.push(pods));
    for (let i = 0; i < 5; i++) {
      clock.advance(1);
      await Promise.resolve();
    }
    expect(sets).toEqual([[]]);
    sub.unsubscribe();
  });
});
