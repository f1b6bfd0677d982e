// celRulesFor: a CRD version's rules compiled once per uid, generation and version.
import { describe, expect, it } from 'vitest';
import { celRulesFor } from '../../../../../src/apiserver/crd/cel/cel-rules-cache.ts';
import type { CustomResourceDefinition } from '../../../../../src/apiserver/crd/custom-resource-definition.ts';
import { I, objectOf, withRules } from './cel-harness.ts';

const SCHEMA = withRules(objectOf({ n: I }), { rule: 'self.n > 0' });
const crd = (uid: string | undefined, generation: number) =>
  ({ metadata: { name: 'x.example.com', uid, generation }, spec: {} }) as CustomResourceDefinition;

describe('celRulesFor', () => {
  it('compiles once per uid, generation and version', () => {
    const first = celRulesFor(crd('u1', 1), 'v1', SCHEMA);
    expect(first.root?.rules).toHaveLength(1);
    expect(celRulesFor(crd('u1', 1), 'v1', SCHEMA)).toBe(first);
    expect(celRulesFor(crd('u1', 2), 'v1', SCHEMA)).not.toBe(first);
    expect(celRulesFor(crd('u1', 1), 'v2', SCHEMA)).not.toBe(first);
    expect(celRulesFor(crd('u2', 1), 'v1', SCHEMA)).not.toBe(first);
  });

  it('compiles a CRD that has no uid yet each time', () => {
    expect(celRulesFor(crd(undefined, 1), 'v1', SCHEMA)).not.toBe(
      celRulesFor(crd(undefined, 1), 'v1', SCHEMA),
    );
  });

  it('keeps at most 256 entries, dropping the oldest', () => {
    const kept = celRulesFor(crd('old', 1), 'v1', SCHEMA);
    for (let i = 0; i < 256; i++) celRulesFor(crd(`fill-${i}`, 1), 'v1', SCHEMA);
    expect(celRulesFor(crd('old', 1), 'v1', SCHEMA)).not.toBe(kept);
  });
});
