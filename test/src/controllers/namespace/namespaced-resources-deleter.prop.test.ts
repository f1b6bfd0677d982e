// Property: the namespace deleter never finalizes a namespace while content remains or discovery failed, and finalizes it in the pass after the last finalizer goes.
import fc from 'fast-check';
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../operators/types.ts';
import { namespacedResourcesDeleter } from '../../../../src/controllers/namespace/namespaced-resources-deleter.ts';
import { ALL_VERBS } from '../../../operators/controller/namespace/test-resources.ts';
import { fakeClient, terminating } from './fake-namespace-client.ts';

const FINALIZERS = ['a.io/x', 'b.io/y'];
const RESOURCES = ['configmaps', 'secrets', 'widgets'];

/** One object: which resource, and the finalizers holding it. */
const objectArb = fc.record({
  resource: fc.constantFrom(...RESOURCES),
  finalizers: fc.subarray(FINALIZERS),
});
/** Between passes: release one object's finalizers, make discovery fail (or heal) for one group. */
const stepArb = fc.oneof(
  fc.record({ kind: fc.constant('release' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('discovery' as const), failing: fc.boolean() }),
);

describe('namespacedResourcesDeleter, for any content and any order of releases', () => {
  it('finalizes exactly when nothing remains and discovery is whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(objectArb, { maxLength: 8 }),
        fc.array(stepArb, { maxLength: 12 }),
        async (objects, steps) => {
          let failing = false;
          const lists = [
            {
              groupVersion: 'v1',
              resources: RESOURCES.map((name) => ({ name, namespaced: true, kind: name, verbs: ALL_VERBS })),
            },
          ];
          const fake = fakeClient([terminating('team')]);
          fake.client.serverPreferredResources = () =>
            of({
              lists,
              failed: failing ? [{ groupVersion: 'example.com/v1', message: 'unavailable' }] : [],
            });
          objects.forEach((o, i) => {
            const key = `${o.resource}/team`;
            const item: KubeObject = { metadata: { name: `o${i}`, finalizers: [...o.finalizers] } };
            fake.content.set(key, [...(fake.content.get(key) ?? []), item]);
          });
          const remaining = () => [...fake.content.values()].reduce((n, items) => n + items.length, 0);
          const held = () =>
            [...fake.content.values()].flat().filter((i) => (i.metadata?.finalizers ?? []).length > 0).length;
          const pass = namespacedResourcesDeleter({
            client: fake.client,
            now: () => Date.parse('2026-01-01T01:00:00Z'),
          });
          const finalized = () => (fake.namespaces.get('team')?.spec?.finalizers ?? []).length === 0;

          for (const step of [...steps, { kind: 'discovery' as const, failing: false }]) {
            if (!finalized()) {
              const outcome = await pass('team').catch(() => ({ type: 'error' as const }));
              // never finalized with content left or with a group not discovered
              if (outcome.type === 'finalized') {
                expect(remaining()).toBe(0);
                expect(failing).toBe(false);
              }
              if (!finalized()) {
                expect(fake.namespaces.get('team')?.spec?.finalizers).toEqual(['kubernetes']);
                const condition = fake.namespaces
                  .get('team')
                  ?.status?.conditions?.find((c) => c.type === 'NamespaceFinalizersRemaining');
                expect(condition?.status).toBe(held() > 0 ? 'True' : 'False');
              }
            }
            if (step.kind === 'discovery') failing = step.failing;
            else {
              // a released object that was being deleted goes at once, as the API server removes it
              const all = [...fake.content.entries()].flatMap(([key, items]) =>
                items.map((item) => ({ key, item })),
              );
              const target = all[step.index % Math.max(1, all.length)];
              if (target)
                fake.content.set(
                  target.key,
                  fake.content.get(target.key)!.filter((i) => i !== target.item),
                );
            }
          }
          // every finalizer released (or never there): one more pass with whole discovery finalizes
          for (const [key] of fake.content) fake.content.set(key, []);
          if (!finalized()) await pass('team');
          expect(finalized()).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
