// The API server validates metadata.ownerReferences as upstream's ValidateOwnerReferences (the garbage collector relies on it): required coordinates, no Event owner, one controller.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../operators/errors.ts';
import type { OwnerReference } from '../../../operators/types.ts';
import { CONFIG_MAPS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';

const cluster = useEmbeddedCluster();
const ref = (more: Partial<OwnerReference>): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: 'owner',
  uid: 'u1',
  ...more,
});
const create = (name: string, ownerReferences: OwnerReference[]) =>
  firstValueFrom(
    cluster.api.create(
      CONFIG_MAPS,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ownerReferences } },
      { namespace: 'default' },
    ),
  );
const causesOf = async (name: string, refs: OwnerReference[]) => {
  const e = await create(name, refs).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(ApiError);
  expect((e as ApiError).statusCode).toBe(422);
  return ((e as ApiError).status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
};

describe('ownerReferences validation', () => {
  it.each<[string, OwnerReference[], string]>([
    [
      'an empty uid',
      [ref({ uid: '' })],
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ],
    [
      'an empty name',
      [ref({ name: '' })],
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
    ],
    [
      'an empty kind',
      [ref({ kind: '' })],
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
    ],
    [
      'an apiVersion without a version',
      [ref({ apiVersion: 'apps/' })],
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
    ],
    [
      'an Event as owner',
      [ref({ kind: 'Event' })],
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"owner","uid":"u1"}: /v1, Kind=Event is disallowed from being an owner',
    ],
  ])('refuses %s', async (_name, refs, cause) => {
    expect(
      await causesOf(
        `bad-${refs[0]!.kind}-${refs[0]!.name}-${refs[0]!.uid}-${refs[0]!.apiVersion.replace('/', '')}`.toLowerCase(),
        refs,
      ),
    ).toContain(cause);
  });

  it('refuses two controller references, naming both', async () => {
    const causes = await causesOf('two-controllers', [
      ref({ uid: '1', name: 'a', controller: false }),
      ref({ uid: '2', name: 'b', controller: true }),
      ref({ uid: '3', name: 'c', controller: true }),
    ]);
    expect(causes.join('\n')).toContain(
      'Only one reference can have Controller set to true. Found "true" in references for ConfigMap/b and ConfigMap/c',
    );
  });

  it('accepts references with their coordinates and one controller', async () => {
    const made = await create('fine', [
      ref({ uid: '1', controller: true, blockOwnerDeletion: true }),
      ref({ uid: '2', name: 'other' }),
    ]);
    expect(made.metadata?.ownerReferences).toHaveLength(2);
  });
});
