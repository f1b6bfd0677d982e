// Properties of the token manager: it never hands out an expired token, fails only with nothing valid cached, and asks the server again only when a refresh is due.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  requiresRefresh,
  type TokenRequest,
  tokenManager,
} from '../../../../src/kubelet/token/token-manager.ts';

const MIN = 60_000;
const arbOp = fc.oneof(
  fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 40 * MIN }) }),
  fc.record({
    type: fc.constant('get' as const),
    fail: fc.boolean(),
    lifetimeMin: fc.constantFrom(10, 60, 2880),
  }),
);

describe('tokenManager properties', () => {
  it('never returns an expired token, and only fails when no valid token is cached', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbOp, { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        async (ops, jitter) => {
          let now = Date.UTC(2026, 0, 1);
          let fail = false;
          let lifetime = 60;
          let calls = 0;
          const manager = tokenManager({
            getToken: async (_ns, _name, request) => {
              calls++;
              if (fail) throw new Error('unavailable');
              return {
                ...request,
                spec: { ...request.spec, expirationSeconds: lifetime * 60 },
                status: {
                  token: `t${calls}`,
                  expirationTimestamp: new Date(now + lifetime * MIN).toISOString(),
                },
              };
            },
            now: () => now,
            random: () => jitter,
          });
          let last: TokenRequest | undefined;
          for (const op of ops) {
            if (op.type === 'advance') {
              now += op.ms;
              continue;
            }
            fail = op.fail;
            lifetime = op.lifetimeMin;
            const before = calls;
            const cachedValid =
              last !== undefined && now <= Date.parse(last.status?.expirationTimestamp ?? '');
            const due =
              last === undefined || requiresRefresh(last, now, 0) || requiresRefresh(last, now, jitter * 10);
            try {
              const tr = await manager.getServiceAccountToken('ns', 'sa', {
                spec: { expirationSeconds: 3600 },
              });
              expect(now).toBeLessThanOrEqual(Date.parse(tr.status?.expirationTimestamp ?? ''));
              last = tr;
            } catch {
              expect(cachedValid && !due).toBe(false);
              expect(fail).toBe(true);
              expect(cachedValid).toBe(false);
            }
            // the server is asked at most once per call, and not at all while the token is fresh
            expect(calls - before).toBeLessThanOrEqual(1);
            if (!due) expect(calls).toBe(before);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
