// claimAction and the adopt/release patches: upstream's ClaimObject cases (controller_ref_manager_test.go) in our words.
import { describe, expect, it } from 'vitest';
import {
  adoptPatch,
  claimAction,
  getControllerOf,
  newControllerRef,
  releasePatch,
} from '../../../operators/controller/controller-ref.ts';
import type { KubeObject } from '../../../operators/types.ts';

const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };
const owner = (extra: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'rs-uid', ...extra },
});
const pod = (extra: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid', ...extra },
});
const mine = { ownerReferences: [{ ...RS, name: 'web', uid: 'rs-uid', controller: true }] };
const theirs = { ownerReferences: [{ ...RS, name: 'other', uid: 'other-uid', controller: true }] };
const notController = { ownerReferences: [{ ...RS, name: 'web', uid: 'rs-uid' }] };
const deleting = { deletionTimestamp: '2026-11-25T00:00:00Z' };

describe('claimAction', () => {
  it.each([
    ['owned by me, selector matches', owner(), pod(mine), true, 'keep'],
    ['owned by me, selector no longer matches', owner(), pod(mine), false, 'release'],
    ['owned by me, no match, I am being deleted', owner(deleting), pod(mine), false, 'ignore'],
    ['owned by me, match, I am being deleted', owner(deleting), pod(mine), true, 'keep'],
    ['owned by another controller', owner(), pod(theirs), true, 'ignore'],
    ['an orphan that matches', owner(), pod(), true, 'adopt'],
    ['an owner reference that is not a controller: an orphan', owner(), pod(notController), true, 'adopt'],
    ['an orphan that does not match', owner(), pod(), false, 'ignore'],
    ['an orphan while I am being deleted', owner(deleting), pod(), true, 'ignore'],
    ['an orphan being deleted', owner(), pod(deleting), true, 'ignore'],
    ['an orphan in another namespace', owner(), pod({ namespace: 'other' }), true, 'ignore'],
  ])('%s → %s', (_name, o, p, matches, action) => {
    expect(claimAction(o, p, matches)).toBe(action);
  });
});

describe('controller references and patches', () => {
  it('finds the controller reference among owner references', () => {
    expect(getControllerOf(pod(mine))?.uid).toBe('rs-uid');
    expect(getControllerOf(pod(notController))).toBeUndefined();
  });

  it('adopts with a controller reference that blocks owner deletion, guarded by the object uid', () => {
    expect(newControllerRef(owner(), RS)).toEqual({
      ...RS,
      name: 'web',
      uid: 'rs-uid',
      controller: true,
      blockOwnerDeletion: true,
    });
    expect(adoptPatch(owner(), RS, pod(), { finalizers: ['batch.kubernetes.io/job-tracking'] })).toEqual({
      metadata: {
        ownerReferences: [newControllerRef(owner(), RS)],
        uid: 'pod-uid',
        finalizers: ['batch.kubernetes.io/job-tracking'],
      },
    });
  });

  it('releases by deleting its own reference by uid', () => {
    expect(releasePatch(owner(), pod(mine))).toEqual({
      metadata: { ownerReferences: [{ $patch: 'delete', uid: 'rs-uid' }], uid: 'pod-uid' },
    });
  });
});
