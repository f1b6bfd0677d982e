// fast-check arbitraries for Kubernetes objects, write sequences and fault plans, to property-test pipelines.
import fc from 'fast-check';
import type { KubeObject } from '../../operators/types.ts';
import {
  expiredError,
  internalError,
  tooLargeResourceVersionError,
  tooManyRequestsError,
} from './api-errors.ts';
import type { Fault, GarbleKind, WriteOp } from './fake-api-server.ts';

/** The key space of generated objects: small on purpose, so that writes collide on the same keys. */
export interface KeySpaceConfig {
  /** Names to draw from; default `a`..`e`. */
  names?: readonly string[];
  /** Namespaces to draw from; `''` means cluster-scoped. Default `['default', 'kube-system']`. */
  namespaces?: readonly string[];
}

const defaultNames = ['a', 'b', 'c', 'd', 'e'] as const;
const defaultNamespaces = ['default', 'kube-system'] as const;
const labelKeys = ['app', 'tier', 'example.com/team'] as const;
const labelValues = ['web', 'db', 'x', 'a-b_c.d', ''] as const;

/** Labels as Kubernetes allows them (qualified keys, values of up to 63 characters or empty). */
export function arbLabels(): fc.Arbitrary<Record<string, string>> {
  return fc.dictionary(fc.constantFrom(...labelKeys), fc.constantFrom(...labelValues), { maxKeys: 3 });
}

/**
 * A Kubernetes object with metadata (name, namespace, labels, uid) and a small payload; no resourceVersion
 * (the server assigns it).
 * @param config the names and namespaces to draw from
 * @returns an arbitrary of objects
 */
export function arbObject(config: KeySpaceConfig = {}): fc.Arbitrary<KubeObject> {
  const names = config.names ?? defaultNames;
  const namespaces = config.namespaces ?? defaultNamespaces;
  return fc
    .record({
      name: fc.constantFrom(...names),
      namespace: fc.constantFrom(...namespaces),
      labels: arbLabels(),
      generation: fc.integer({ min: 1, max: 5 }),
      data: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), {
        maxKeys: 2,
      }),
    })
    .map(({ name, namespace, labels, generation, data }) => {
      const metadata: KubeObject['metadata'] = { name, labels, generation };
      if (namespace) metadata.namespace = namespace;
      return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
    });
}

/**
 * One create-or-update or delete on the bounded key space.
 * @param config the names and namespaces to draw from
 * @returns an arbitrary of writes
 */
export function arbWriteOp(config: KeySpaceConfig = {}): fc.Arbitrary<WriteOp> {
  const names = config.names ?? defaultNames;
  const namespaces = config.namespaces ?? defaultNamespaces;
  const where = { name: fc.constantFrom(...names), namespace: fc.constantFrom(...namespaces) };
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant('upsert' as const),
        ...where,
        labels: arbLabels(),
        data: fc.nat(99),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), ...where }) },
  );
}

/**
 * Creates, updates and deletes on a bounded key set, as data for `FakeApiServer.write`.
 * @param config key space and length (default at most 30 writes)
 * @returns an arbitrary of write sequences
 */
export function arbWriteSequence(
  config: KeySpaceConfig & { maxLength?: number } = {},
): fc.Arbitrary<WriteOp[]> {
  return fc.array(arbWriteOp(config), { maxLength: config.maxLength ?? 30 });
}

/** An error an API server answers with: 410, 429 with Retry-After, 500, 503, 504 too-large-rv. */
export function arbApiError(): fc.Arbitrary<Error> {
  return fc.oneof(
    fc.constant(null).map(() => expiredError()),
    fc.integer({ min: 0, max: 5 }).map((s) => tooManyRequestsError(s)),
    fc.constant(null).map(() => internalError()),
    fc.constant(null).map(() => internalError('unavailable', 503, 2)),
    fc.constant(null).map(() => tooLargeResourceVersionError()),
  );
}

/** One fault for `FakeApiServer.inject`. */
export function arbFault(): fc.Arbitrary<Fault> {
  const garble = fc.constantFrom<GarbleKind>('invalid-json', 'no-metadata', 'unknown-type');
  return fc.oneof(
    fc.constant<Fault>({ type: 'dropWatches' }),
    fc.constant<Fault>({ type: 'breakWatches' }),
    fc.constant<Fault>({ type: 'expireWatches' }),
    fc.constant<Fault>({ type: 'compact' }),
    fc.constant<Fault>({ type: 'stallWatches' }),
    fc.constant<Fault>({ type: 'bookmark' }),
    fc.record({
      type: fc.constant('failNext' as const),
      op: fc.constantFrom('list' as const, 'watch' as const),
      error: arbApiError(),
    }),
    fc.record({
      type: fc.constant('hangNext' as const),
      op: fc.constantFrom('list' as const, 'watch' as const),
    }),
    fc.record({ type: fc.constant('garbleWatches' as const), kind: garble }),
    fc.record({ type: fc.constant('garbleNextEvent' as const), kind: garble }),
  );
}

/** One step of a fault plan: a write, a fault, or time passing (virtual ms). */
export type PlanStep =
  | { type: 'write'; write: WriteOp }
  | { type: 'fault'; fault: Fault }
  | { type: 'advance'; ms: number };

/**
 * Writes interleaved with faults and pauses: run it against a `FakeApiServer` on a `VirtualClock`, then
 * check that your pipeline converged on `server.snapshot()`.
 * @param config key space and length (default at most 40 steps)
 * @returns an arbitrary of plans
 */
export function arbFaultPlan(config: KeySpaceConfig & { maxLength?: number } = {}): fc.Arbitrary<PlanStep[]> {
  const step: fc.Arbitrary<PlanStep> = fc.oneof(
    { weight: 5, arbitrary: arbWriteOp(config).map((write) => ({ type: 'write' as const, write })) },
    { weight: 2, arbitrary: arbFault().map((fault) => ({ type: 'fault' as const, fault })) },
    {
      weight: 2,
      arbitrary: fc.integer({ min: 0, max: 40_000 }).map((ms) => ({ type: 'advance' as const, ms })),
    },
  );
  return fc.array(step, { maxLength: config.maxLength ?? 40 });
}
