// Properties of signedClusterInfo: after signing, cluster-info holds exactly one valid signature per token and nothing else changes; signing again changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detachedTokenIsValid } from '../../../../operators/controller/bootstrap/detached-jws.ts';
import { signedClusterInfo } from '../../../../operators/controller/bootstrap/signed-cluster-info.ts';

const id = fc.stringMatching(/^[a-z0-9]{6}$/);
const tokens = fc.uniqueArray(fc.record({ id, secret: fc.stringMatching(/^[a-z0-9]{16}$/) }), {
  selector: (t) => t.id,
  maxLength: 5,
});
const data = fc.record({
  kubeconfig: fc.string(),
  other: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string(), { maxKeys: 3 }),
  stale: fc.dictionary(id, fc.string(), { maxKeys: 3 }),
});

describe('signedClusterInfo', () => {
  it('signs every token once, drops the rest, keeps other keys, and is idempotent', () => {
    fc.assert(
      fc.property(data, tokens, (d, ts) => {
        const before: Record<string, string> = { ...d.other, kubeconfig: d.kubeconfig };
        for (const [k, v] of Object.entries(d.stale)) before[`jws-kubeconfig-${k}`] = v;
        const after = signedClusterInfo(before, ts) ?? before;
        const sigs = Object.keys(after).filter((k) => k.startsWith('jws-kubeconfig-'));
        expect(sigs.sort()).toEqual(ts.map((t) => `jws-kubeconfig-${t.id}`).sort());
        for (const t of ts)
          expect(detachedTokenIsValid(after[`jws-kubeconfig-${t.id}`]!, d.kubeconfig, t.id, t.secret)).toBe(
            true,
          );
        for (const [k, v] of Object.entries(d.other))
          expect(after[k]).toBe(k === 'kubeconfig' ? d.kubeconfig : v);
        expect(after.kubeconfig).toBe(d.kubeconfig);
        expect(signedClusterInfo(after, ts)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});
