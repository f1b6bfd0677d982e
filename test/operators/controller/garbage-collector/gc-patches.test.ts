// gcPatches: upstream's TestDeleteOwnerRefPatch and TestUnblockOwnerReference, as merge patches guarded by resourceVersion.
import { describe, expect, it } from 'vitest';
import { gcPatches } from '../../../../operators/controller/garbage-collector/gc-patches.ts';

describe('gcPatches', () => {
  it('removes the references to the given owners and keeps the others (TestDeleteOwnerRefPatch)', () => {
    const latest = {
      uid: '100',
      resourceVersion: '7',
      ownerReferences: ['1', '2', '3'].map((uid) => ({ apiVersion: 'v1', kind: 'Pod', name: uid, uid })),
    };
    expect(gcPatches.removeOwnerReferences(latest, ['2', '3'])).toEqual({
      metadata: {
        resourceVersion: '7',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: '1', uid: '1' }],
      },
    });
  });

  it('changes nothing when no reference names the owners', () => {
    expect(gcPatches.removeOwnerReferences({ uid: '100', ownerReferences: [] }, ['2'])).toBeUndefined();
  });

  it('sets blockOwnerDeletion to false where it was true, leaves the rest (TestUnblockOwnerReference)', () => {
    const ref = (uid: string, block?: boolean) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      name: uid,
      uid,
      ...(block === undefined ? {} : { blockOwnerDeletion: block }),
    });
    const latest = {
      uid: '100',
      resourceVersion: '3',
      ownerReferences: [ref('1', true), ref('2', false), ref('3')],
    };
    expect(gcPatches.unblockOwnerReferences(latest)).toEqual({
      metadata: { resourceVersion: '3', ownerReferences: [ref('1', false), ref('2', false), ref('3')] },
    });
    expect(gcPatches.unblockOwnerReferences({ ownerReferences: [ref('2', false)] })).toBeUndefined();
  });

  it.each([
    ['orphan', ['orphan'], []],
    ['foregroundDeletion', ['example.com/keep', 'foregroundDeletion'], ['example.com/keep']],
  ])('removes the %s finalizer only', (finalizer, before, after) => {
    expect(gcPatches.removeFinalizer({ resourceVersion: '9', finalizers: before }, finalizer)).toEqual({
      metadata: { resourceVersion: '9', finalizers: after },
    });
    expect(gcPatches.removeFinalizer({ finalizers: ['other'] }, finalizer)).toBeUndefined();
  });
});
