// Tests: the body the namespace controller sends to `finalize` (upstream's TestFinalizeNamespaceFunc and TestFinalized).
import { describe, expect, it } from 'vitest';
import {
  finalizeNamespace,
  namespaceFinalized,
} from '../../../../operators/controller/namespace/finalize-namespace.ts';

describe('finalizeNamespace', () => {
  it('removes only its own token and keeps the other finalizers', () => {
    const ns = {
      metadata: { name: 'test', resourceVersion: '1' },
      spec: { finalizers: ['kubernetes', 'other'] },
    };
    const out = finalizeNamespace(ns, 'kubernetes');
    expect(out.spec.finalizers).toEqual(['other']);
    expect(out.metadata).toEqual(ns.metadata);
    expect(ns.spec.finalizers).toEqual(['kubernetes', 'other']);
  });

  it('keeps each remaining finalizer once, sorted, as upstream sets do', () => {
    expect(
      finalizeNamespace({ spec: { finalizers: ['z', 'kubernetes', 'a', 'z'] } }, 'kubernetes').spec
        .finalizers,
    ).toEqual(['a', 'z']);
  });

  it.each([
    [['a', 'b'], false],
    [[], true],
    [undefined, true],
  ])('namespaceFinalized with spec.finalizers %j is %s', (finalizers, want) => {
    expect(namespaceFinalized({ spec: finalizers === undefined ? {} : { finalizers } })).toBe(want);
  });
});
