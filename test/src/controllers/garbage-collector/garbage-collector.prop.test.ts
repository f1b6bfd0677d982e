// Property: the garbage collector never deletes an object that still has a live owner, nor drops a reference to one, and leaves no dangling reference behind — for any graph of owners and dependents and any order of deletions (embedded API server, few runs).
import fc from 'fast-check';
import { defer, firstValueFrom, from, type Observable, of, type Subscription, switchMap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../operators/errors.ts';
import type { KubeObject, ObjectMeta, OwnerReference } from '../../../../operators/types.ts';
import { garbageCollectorController } from '../../../../src/controllers/garbage-collector/garbage-collector-controller.ts';
import type { ApiClient, DeleteOptions, ResourceDescriptor } from '../../../../streams/api-client.ts';
import { CONFIG_MAPS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };

/** One object of a generated graph: its owners among the earlier ones, maybe a never-existing one. */
interface Spec {
  owners: { index: number; block: boolean }[];
  ghost: boolean;
}
type Op =
  | { type: 'delete'; pick: number; policy: 'Background' | 'Foreground' | 'Orphan' }
  | { type: 'dropReference'; pick: number };

const graph = fc
  .integer({ min: 2, max: 6 })
  .chain((n) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          owners: fc.uniqueArray(
            fc.record({ index: fc.nat({ max: Math.max(0, i - 1) }), block: fc.boolean() }),
            {
              maxLength: i,
              selector: (o) => o.index,
            },
          ),
          ghost: fc.boolean(),
        }),
      ),
    ),
  )
  .map((specs) => specs.map((s, i) => (i === 0 ? { ...s, owners: [] } : s)) as Spec[]);
const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof<fc.Arbitrary<Op>[]>(
    fc.record({
      type: fc.constant('delete' as const),
      pick: fc.nat(),
      policy: fc.constantFrom('Background' as const, 'Foreground' as const, 'Orphan' as const),
    }),
    fc.record({ type: fc.constant('dropReference' as const), pick: fc.nat() }),
  ),
  { minLength: 1, maxLength: 4 },
);

const status = (e: unknown) => (e instanceof ApiError ? e.statusCode : 0);

describe('garbage collector property', { timeout: 120_000 }, () => {
  const violations: string[] = [];
  let gc: Subscription;
  let run = 0;

  const get = (name: string) =>
    firstValueFrom(cluster.api.get(CONFIG_MAPS, name, ns)).then(
      (o) => o as KubeObject,
      (e) => (status(e) === 404 ? undefined : Promise.reject(e)),
    );
  /** What an owner reference names right now: gone, live, or being deleted (and how). */
  const ownerState = async (ref: OwnerReference) => {
    const o = await get(ref.name);
    if (!o || o.metadata?.uid !== ref.uid) return 'absent';
    if (!o.metadata?.deletionTimestamp) return 'live';
    return o.metadata.finalizers?.includes('foregroundDeletion') ? 'waiting' : 'deleting';
  };

  /**
   * The collector's client: before each delete or patch it sends, checks the write against the server's
   * state. Owners never come back, so an owner not live at the check was not live when the collector decided.
   */
  const checking = (api: ApiClient): ApiClient => ({
    ...api,
    get: (...a) => api.get(...a),
    list: (...a) => api.list(...a),
    watch: (...a) => api.watch(...a),
    delete: (resource: ResourceDescriptor, name: string, options?: DeleteOptions) => {
      const check = async () => {
        const target = await get(name);
        const rv = options?.preconditions?.resourceVersion;
        if (!target || (rv && target.metadata?.resourceVersion !== rv)) return; // the server refuses it anyway
        for (const ref of target.metadata?.ownerReferences ?? [])
          if ((await ownerState(ref)) === 'live')
            violations.push(`deleted ${name} while its owner ${ref.name} lives`);
      };
      return fromCheck(check, () => api.delete(resource, name, options));
    },
    patch: (resource, name, patch, type, options) => {
      const check = async () => {
        const meta = (patch as { metadata?: ObjectMeta }).metadata;
        if (!meta?.ownerReferences) return;
        const target = await get(name);
        if (!target || target.metadata?.resourceVersion !== meta.resourceVersion) return;
        const kept = new Set(meta.ownerReferences.map((r) => r.uid));
        for (const ref of target.metadata?.ownerReferences ?? [])
          if (!kept.has(ref.uid) && (await ownerState(ref)) === 'live')
            violations.push(`removed ${name}'s reference to its live owner ${ref.name}`);
      };
      return fromCheck(check, () => api.patch(resource, name, patch, type, options));
    },
  });

  beforeAll(() => {
    gc = garbageCollectorController({
      client: checking(cluster.api),
      discovery: () => of([CONFIG_MAPS]),
      workers: 4,
    }).subscribe();
  });
  afterAll(() => gc?.unsubscribe());

  it('never deletes an object with a live owner, and ends with no dangling reference', async () => {
    await fc.assert(
      fc.asyncProperty(graph, ops, async (specs, steps) => {
        run++;
        violations.length = 0; // the previous run ended quiescent: what is recorded from here is this run's
        const name = (i: number) => `p${run}-${i}`;
        const uids: string[] = [];
        for (const [i, spec] of specs.entries()) {
          const ownerReferences: OwnerReference[] = spec.owners.map((o) => ({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: name(o.index),
            uid: uids[o.index]!,
            blockOwnerDeletion: o.block,
          }));
          if (spec.ghost)
            ownerReferences.push({
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: `ghost-${run}`,
              uid: `ghost-${run}-${i}`,
            });
          const made = await firstValueFrom(
            cluster.api.create<KubeObject>(
              CONFIG_MAPS,
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: name(i), ...(ownerReferences.length ? { ownerReferences } : {}) },
              },
              ns,
            ),
          );
          uids.push(made.metadata?.uid ?? '');
        }
        const deleted = new Set<string>();
        for (const step of steps) {
          const target = name(step.pick % specs.length);
          if (step.type === 'delete') {
            await firstValueFrom(
              cluster.api.delete(CONFIG_MAPS, target, { ...ns, propagationPolicy: step.policy }),
            ).catch((e) => (status(e) === 404 ? undefined : Promise.reject(e)));
            deleted.add(target);
          } else {
            const o = await get(target);
            const refs = o?.metadata?.ownerReferences ?? [];
            if (!o || refs.length === 0) continue;
            await firstValueFrom(
              cluster.api.patch(
                CONFIG_MAPS,
                target,
                {
                  metadata: { resourceVersion: o.metadata?.resourceVersion, ownerReferences: refs.slice(1) },
                },
                'merge',
                ns,
              ),
            ).catch((e) => (status(e) === 404 || status(e) === 409 ? undefined : Promise.reject(e)));
          }
        }
        // the end state: what was deleted is gone, nothing is left half deleted, no reference dangles
        await waitFor(async () => {
          for (const [i] of specs.entries()) {
            const o = await get(name(i));
            if (deleted.has(name(i))) expect(o, `${name(i)} was deleted`).toBeUndefined();
            if (!o) continue;
            expect(o.metadata?.deletionTimestamp, `${name(i)} is still being deleted`).toBeUndefined();
            for (const ref of o.metadata?.ownerReferences ?? [])
              expect(await ownerState(ref), `${name(i)} still names ${ref.name}`).toBe('live');
          }
        }, 20_000);
        expect(violations).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });
});

/** Runs `check`, then the write it guards; cold, as the ApiClient's own calls. */
function fromCheck<T>(check: () => Promise<void>, write: () => Observable<T>): Observable<T> {
  return defer(() => from(check()).pipe(switchMap(write)));
}
