// The serviceaccount controller in virtual time over in-memory informers (upstream's TestServiceAccountCreation table, in our words).
import { of, Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Namespace } from '../../../../operators/controller/namespace/namespace-types.ts';
import { ApiError } from '../../../../operators/errors.ts';
import type { KubeObject, ReflectorEvent } from '../../../../operators/types.ts';
import { serviceAccountsController } from '../../../../src/controllers/serviceaccount/serviceaccounts-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';

const ns = (phase: string): Namespace => ({ metadata: { name: 'default' }, status: { phase } });
const ACTIVE = ns('Active');
const TERMINATING = ns('Terminating');
const sa = (name: string): KubeObject => ({ metadata: { name, namespace: 'default', resourceVersion: '1' } });

interface Case {
  existingNamespace?: Namespace;
  existing?: string[];
  added?: Namespace;
  updated?: Namespace;
  deleted?: string;
  created: string[];
}

async function run(c: Case, createError?: unknown) {
  const clock = new VirtualClock();
  const namespaces$ = new Subject<ReflectorEvent<Namespace>>();
  const accounts$ = new Subject<ReflectorEvent<KubeObject>>();
  const informers = {
    namespaces: sharedInformer<Namespace>({ source: namespaces$, scheduler: clock.scheduler }),
    serviceaccounts: sharedInformer<KubeObject>({ source: accounts$, scheduler: clock.scheduler }),
  };
  const factory = {
    forResource: (r: ResourceDescriptor) => informers[r.plural as keyof typeof informers],
  } as unknown as InformerFactory;
  const created: string[] = [];
  const client = {
    create: (_r: ResourceDescriptor, o: KubeObject) => {
      created.push(o.metadata?.name ?? '');
      return createError ? throwError(() => createError) : of(o);
    },
  } as unknown as ApiClient;
  const outcomes: string[] = [];
  const sub = serviceAccountsController({
    client,
    informerFactory: factory,
    serviceAccounts: ['default', 'managed'],
    scheduler: clock.scheduler,
  }).subscribe((o) => outcomes.push(o.outcome));
  const holds = Object.values(informers).map((i) => i.start());
  namespaces$.next({
    type: 'Replace',
    items: c.existingNamespace ? [c.existingNamespace] : [],
    resourceVersion: '1',
  });
  accounts$.next({ type: 'Replace', items: (c.existing ?? []).map(sa), resourceVersion: '1' });
  const flush = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    clock.advance(10);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  await flush();
  created.length = 0;
  if (c.added) namespaces$.next({ type: 'Added', object: c.added });
  if (c.updated) namespaces$.next({ type: 'Updated', object: c.updated });
  if (c.deleted) accounts$.next({ type: 'Deleted', object: sa(c.deleted) });
  await flush();
  sub.unsubscribe();
  for (const h of holds) h.unsubscribe();
  return { created, outcomes };
}

describe('serviceAccountsController', () => {
  it.each<[string, Case]>([
    ['a new active namespace missing both accounts', { added: ACTIVE, created: ['default', 'managed'] }],
    ['a new active namespace missing one', { existing: ['managed'], added: ACTIVE, created: ['default'] }],
    ['a new active namespace with both', { existing: ['default', 'managed'], added: ACTIVE, created: [] }],
    ['a new terminating namespace', { added: TERMINATING, created: [] }],
    ['an updated active namespace missing both', { updated: ACTIVE, created: ['default', 'managed'] }],
    [
      'an updated active namespace missing one',
      { existing: ['default'], updated: ACTIVE, created: ['managed'] },
    ],
    [
      'an updated active namespace with both',
      { existing: ['default', 'managed'], updated: ACTIVE, created: [] },
    ],
    ['an updated terminating namespace', { updated: TERMINATING, created: [] }],
    ['a deleted account whose namespace is unknown', { deleted: 'default', created: [] }],
    [
      'a deleted account in an active namespace',
      { existingNamespace: ACTIVE, existing: ['managed'], deleted: 'default', created: ['default'] },
    ],
    [
      'a deleted account in a terminating namespace',
      { existingNamespace: TERMINATING, deleted: 'default', created: [] },
    ],
    [
      'a deleted unmanaged account in an active namespace',
      {
        existingNamespace: ACTIVE,
        existing: ['default', 'managed'],
        deleted: 'other-unmanaged',
        created: [],
      },
    ],
    [
      'a deleted unmanaged account in a terminating namespace',
      { existingNamespace: TERMINATING, deleted: 'other-unmanaged', created: [] },
    ],
  ])('%s', async (_name, c) => {
    expect((await run(c)).created).toEqual(c.created);
  });

  it.each([
    ['AlreadyExists', new ApiError(409, { kind: 'Status', reason: 'AlreadyExists', code: 409 }), 'done'],
    [
      'a refusal because the namespace is terminating',
      new ApiError(403, {
        kind: 'Status',
        reason: 'Forbidden',
        code: 403,
        details: {
          causes: [{ reason: 'NamespaceTerminating', message: 'namespace default is being terminated' }],
        },
      }),
      'done',
    ],
    ['another failure', new ApiError(500, { kind: 'Status', reason: 'InternalError', code: 500 }), 'error'],
  ])('a create answered with %s ends as %s', async (_name, error, outcome) => {
    const { outcomes } = await run({ added: ACTIVE, created: [] }, error);
    expect(outcomes[0]).toBe(outcome);
  });
});
