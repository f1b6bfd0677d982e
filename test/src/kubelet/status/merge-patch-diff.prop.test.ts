// Property: applying the merge patch computed from one status to another turns the first into the second.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../../../src/apiserver/merge-patch.ts';
import { mergePatchDiff } from '../../../../src/kubelet/status/merge-patch-diff.ts';

// JSON objects without nulls (a merge patch cannot express a null value) and without empty objects at
// the leaves being replaced by nothing.
const leaf = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
);
const keys = fc.constantFrom('phase', 'message', 'reason', 'podIP', 'state', 'running', 'terminated');
const { tree } = fc.letrec((tie) => ({
  tree: fc.dictionary(keys, fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('tree')), {
    maxKeys: 4,
  }),
}));

describe('mergePatchDiff (property)', () => {
  it('mergePatch(from, mergePatchDiff(from, to)) equals to; no diff means equal', () => {
    fc.assert(
      fc.property(tree, tree, (from, to) => {
        const diff = mergePatchDiff(from as Record<string, unknown>, to as Record<string, unknown>);
        const applied = diff === undefined ? from : mergePatch(structuredClone(from), diff);
        expect(applied).toEqual(to);
        if (diff === undefined) expect(from).toEqual(to);
      }),
    );
  });
});
