// Property: for any order of handler registrations and factory start across N controllers, every handler registered before start sees the initial list exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { informerFactory } from '../../../src/informers/informer-factory.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import { NODES, PODS } from '../../../streams/resources.ts';

describe('informer factory start (property)', () => {
  it('every handler registered before start() sees each object of the initial list exactly once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        // per controller: which resources it watches, then the step at which the factory starts
        fc.array(fc.subarray([PODS, NODES], { minLength: 1 }), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        (podCount, nodeCount, controllers, startAtSeed) => {
          const clock = new VirtualClock();
          const servers: Record<string, FakeApiServer> = {
            pods: new FakeApiServer({ scheduler: clock.scheduler }),
            nodes: new FakeApiServer({ scheduler: clock.scheduler }),
          };
          for (let i = 0; i < podCount; i++)
            servers.pods!.upsert({ metadata: { name: `p${i}`, namespace: 'ns' } });
          for (let i = 0; i < nodeCount; i++) servers.nodes!.upsert({ metadata: { name: `n${i}` } });
          const client = {
            list: (r: ResourceDescriptor, o = {}) => servers[r.plural]!.list(o),
            watch: (r: ResourceDescriptor, o = {}) => servers[r.plural]!.watch(o),
          } as unknown as ApiClient;
          const factory = informerFactory({ client, scheduler: clock.scheduler });
          const startAt = startAtSeed % (controllers.length + 1);
          const before: { resource: string; seen: string[] }[] = [];
          controllers.forEach((resources, i) => {
            if (i === startAt) factory.start();
            for (const r of resources) {
              const seen: string[] = [];
              factory.forResource(r).addEventHandler({ onAdd: (o) => void seen.push(o.metadata!.name!) });
              if (i < startAt) before.push({ resource: r.plural, seen });
            }
            clock.advance(0);
          });
          factory.start(); // informers created after the first start need another
          clock.advance(0);
          for (const { resource, seen } of before) {
            const expected = resource === 'pods' ? podCount : nodeCount;
            expect(seen.length).toBe(expected);
            expect(new Set(seen).size).toBe(expected);
          }
          factory.shutdown();
        },
      ),
      { numRuns: 200 },
    );
  });
});
