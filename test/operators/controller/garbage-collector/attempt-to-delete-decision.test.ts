// attemptToDeleteDecision: upstream's attemptToDeleteItem cases (garbagecollector_test.go) as a table of steps.
import { describe, expect, it } from 'vitest';
import {
  type AttemptToDeleteInput,
  attemptToDeleteDecision,
} from '../../../../operators/controller/garbage-collector/attempt-to-delete-decision.ts';
import {
  classifyOwnerReferences,
  type OwnerLookup,
} from '../../../../operators/controller/garbage-collector/classify-owner-references.ts';
import type { OwnerReference } from '../../../../operators/types.ts';

const identity = { apiVersion: 'v1', kind: 'Pod', name: 'ToBeDeletedPod', uid: '456', namespace: 'ns1' };
const rc = (uid: string, more: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: `owner${uid}`,
  uid,
  ...more,
});
const absent: OwnerLookup = { state: 'absent' };
const alive: OwnerLookup = { state: 'present', beingDeleted: false, finalizers: [] };
const waiting: OwnerLookup = { state: 'present', beingDeleted: true, finalizers: ['foregroundDeletion'] };
const orphaning: OwnerLookup = { state: 'present', beingDeleted: true, finalizers: ['orphan'] };
const dep = (uid: string, deletingDependents = false) => ({
  identity: { ...identity, uid, name: `dep-${uid}` },
  deletingDependents,
});

const base: AttemptToDeleteInput = {
  node: { identity, beingDeleted: false, deletingDependents: false },
  dependents: [],
  blockingDependents: [],
};

describe('attemptToDeleteDecision', () => {
  it.each<[string, Partial<AttemptToDeleteInput>, ReturnType<typeof attemptToDeleteDecision>]>([
    [
      'an item being deleted (not waiting for its dependents) is left to finish',
      { node: { identity, beingDeleted: true, deletingDependents: false } },
      { action: 'done', reason: 'beingDeleted' },
    ],
    ['first, the live object is fetched', {}, { action: 'get' }],
    ['an item the server does not have is a virtual delete', { latest: null }, { action: 'virtualDelete' }],
    [
      'an item whose name now has another uid is a virtual delete',
      { latest: { uid: 'other', ownerReferences: [rc('123')] } },
      { action: 'virtualDelete' },
    ],
    ['an item without owners is kept', { latest: { uid: '456' } }, { action: 'done', reason: 'noOwners' }],
    [
      'an item with owners asks for their live state',
      { latest: { uid: '456', ownerReferences: [rc('123')] } },
      { action: 'lookupOwners', references: [rc('123')] },
    ],
    [
      'the pod of a replication controller the server does not have is deleted in the background (TestAttemptToDeleteItem)',
      { latest: { uid: '456', ownerReferences: [rc('123')] }, owners: [absent] },
      { action: 'delete', policy: 'Background', unblockFirst: false },
    ],
    [
      'an item with a live owner stays',
      { latest: { uid: '456', ownerReferences: [rc('1')] }, owners: [alive] },
      { action: 'done', reason: 'solidOwner' },
    ],
    [
      'an item with a live owner and a dangling one loses the dangling reference',
      { latest: { uid: '456', ownerReferences: [rc('1'), rc('2')] }, owners: [alive, absent] },
      { action: 'removeOwnerReferences', uids: ['2'] },
    ],
    [
      'an item with a live owner and one waiting for its dependents loses the waiting reference',
      {
        latest: { uid: '456', ownerReferences: [rc('1'), rc('2'), rc('3')] },
        owners: [waiting, alive, absent],
      },
      { action: 'removeOwnerReferences', uids: ['3', '1'] },
    ],
    [
      'an item whose owner orphans its dependents counts it as solid (the orphan worker removes the reference)',
      { latest: { uid: '456', ownerReferences: [rc('1')] }, owners: [orphaning] },
      { action: 'done', reason: 'solidOwner' },
    ],
    [
      'an item whose owner waits for it and which has dependents is deleted in the foreground',
      { latest: { uid: '456', ownerReferences: [rc('1')] }, owners: [waiting], dependents: [dep('d1')] },
      { action: 'delete', policy: 'Foreground', unblockFirst: false },
    ],
    [
      'and its references are unblocked first when a dependent also deletes its dependents (a possible cycle)',
      {
        latest: { uid: '456', ownerReferences: [rc('1', { blockOwnerDeletion: true })] },
        owners: [waiting],
        dependents: [dep('d1'), dep('d2', true)],
      },
      { action: 'delete', policy: 'Foreground', unblockFirst: true },
    ],
    [
      'an item whose owner waits for it but which has no dependents is deleted in the background',
      { latest: { uid: '456', ownerReferences: [rc('1')] }, owners: [waiting] },
      { action: 'delete', policy: 'Background', unblockFirst: false },
    ],
    [
      'an item without solid owners and with its own orphan finalizer is deleted with Orphan',
      { latest: { uid: '456', ownerReferences: [rc('1')], finalizers: ['orphan'] }, owners: [absent] },
      { action: 'delete', policy: 'Orphan', unblockFirst: false },
    ],
    [
      'an item without solid owners and with its own foregroundDeletion finalizer is deleted in the foreground',
      {
        latest: { uid: '456', ownerReferences: [rc('1')], finalizers: ['foregroundDeletion'] },
        owners: [absent],
      },
      { action: 'delete', policy: 'Foreground', unblockFirst: false },
    ],
    [
      'a cluster-scoped item naming a namespaced owner is dropped, never retried',
      { latest: { uid: '456', ownerReferences: [rc('1'), rc('2')] }, owners: [absent, { state: 'invalid' }] },
      { action: 'invalidReference', references: [rc('2')] },
    ],
    [
      'an owner deleting its dependents with none blocking removes its foregroundDeletion finalizer',
      {
        node: { identity, beingDeleted: true, deletingDependents: true },
        latest: { uid: '456', finalizers: ['foregroundDeletion'] },
        dependents: [dep('d1')],
      },
      { action: 'removeFinalizer', finalizer: 'foregroundDeletion' },
    ],
    [
      'an owner deleting its dependents queues the blocking ones not themselves deleting dependents',
      {
        node: { identity, beingDeleted: true, deletingDependents: true },
        latest: { uid: '456', finalizers: ['foregroundDeletion'] },
        blockingDependents: [dep('d1'), dep('d2', true)],
      },
      { action: 'attemptToDelete', uids: ['d1'] },
    ],
    [
      'an owner deleting its dependents that is gone is a virtual delete',
      { node: { identity, beingDeleted: true, deletingDependents: true }, latest: null },
      { action: 'virtualDelete' },
    ],
  ])('%s', (_name, input, expected) => {
    expect(attemptToDeleteDecision({ ...base, ...input })).toEqual(expected);
  });
});

describe('classifyOwnerReferences', () => {
  it.each<[string, OwnerLookup, 'solid' | 'dangling' | 'waitingForDependentsDeletion' | 'invalid']>([
    ['an owner the server does not have is dangling', absent, 'dangling'],
    ['a live owner is solid', alive, 'solid'],
    [
      'an owner deleting in the foreground is waiting for its dependents',
      waiting,
      'waitingForDependentsDeletion',
    ],
    [
      'an owner being deleted with other finalizers is solid',
      { state: 'present', beingDeleted: true, finalizers: ['x/y'] },
      'solid',
    ],
    [
      'an owner with foregroundDeletion not yet being deleted is solid',
      { state: 'present', beingDeleted: false, finalizers: ['foregroundDeletion'] },
      'solid',
    ],
    ['a namespaced owner of a cluster-scoped item is invalid', { state: 'invalid' }, 'invalid'],
  ])('%s', (_name, lookup, kind) => {
    const c = classifyOwnerReferences([rc('1')], [lookup]);
    expect(c[kind]).toEqual([rc('1')]);
    const total =
      c.solid.length + c.dangling.length + c.waitingForDependentsDeletion.length + c.invalid.length;
    expect(total).toBe(1);
  });
});
