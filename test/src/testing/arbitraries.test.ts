// Tests of the test kit's arbitraries: generated objects, writes and plans stay within their key space and are valid.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../operators/errors.ts';
import { arbFaultPlan, arbObject, arbWriteSequence } from '../../../src/testing/arbitraries.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';

const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const labelKey = /^([a-z0-9.-]+\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

describe('arbitraries', () => {
  it('arbObject draws names and namespaces from the key space, with valid labels', () => {
    fc.assert(
      fc.property(arbObject({ names: ['x', 'y'], namespaces: ['', 'ns'] }), (obj) => {
        expect(['x', 'y']).toContain(obj.metadata?.name);
        expect([undefined, 'ns']).toContain(obj.metadata?.namespace);
        for (const [k, v] of Object.entries(obj.metadata?.labels ?? {})) {
          expect(k).toMatch(labelKey);
          expect(v).toMatch(labelValue);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('arbWriteSequence applies cleanly to a fake server and respects maxLength', () => {
    fc.assert(
      fc.property(arbWriteSequence({ maxLength: 10 }), (writes) => {
        expect(writes.length).toBeLessThanOrEqual(10);
        const server = new FakeApiServer();
        for (const w of writes) server.write(w);
        expect(server.snapshot().size).toBeLessThanOrEqual(10);
      }),
      { numRuns: 100 },
    );
  });

  it('arbFaultPlan mixes writes, faults (with API errors) and pauses', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(arbFaultPlan({ maxLength: 20 }), (plan) => {
        for (const step of plan) {
          seen.add(step.type === 'fault' ? step.fault.type : step.type);
          if (step.type === 'fault' && step.fault.type === 'failNext')
            expect(step.fault.error).toBeInstanceOf(ApiError);
          if (step.type === 'advance') expect(step.ms).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 200 },
    );
    for (const kind of [
      'write',
      'advance',
      'dropWatches',
      'expireWatches',
      'compact',
      'failNext',
      'garbleNextEvent',
    ]) {
      expect(seen).toContain(kind);
    }
  });
});
