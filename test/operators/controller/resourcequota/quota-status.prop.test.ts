// Properties of quotaStatus: complementary scopes (Terminating/NotTerminating, BestEffort/NotBestEffort) split an unscoped quota's pod usage exactly, and terminal pods never count.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotaStatus } from '../../../../operators/controller/resourcequota/quota-status.ts';
import { thousandths } from '../../../../operators/controller/resourcequota/resource-usage.ts';
import type { KubeObject } from '../../../../operators/types.ts';

const HARD = { pods: '100', 'requests.cpu': '100', 'limits.memory': '100Gi', 'count/pods': '100' };

const arbPod = fc
  .record({
    deadline: fc.option(fc.nat(600), { nil: undefined }),
    cpu: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }),
    memoryMi: fc.option(fc.integer({ min: 1, max: 4096 }), { nil: undefined }),
    phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed'),
  })
  .map(
    (p): KubeObject => ({
      metadata: { namespace: 'ns' },
      spec: {
        ...(p.deadline !== undefined ? { activeDeadlineSeconds: p.deadline } : {}),
        containers: [
          {
            name: 'c',
            resources: {
              ...(p.cpu ? { requests: { cpu: `${p.cpu}m` } } : {}),
              ...(p.memoryMi ? { limits: { memory: `${p.memoryMi}Mi` } } : {}),
            },
          },
        ],
      },
      status: { phase: p.phase },
    }),
  );

const used = (pods: KubeObject[], scopes?: string[]) => {
  const q: KubeObject = {
    metadata: { name: 'q', namespace: 'ns' },
    spec: { hard: HARD, ...(scopes ? { scopes } : {}) },
  };
  const status = quotaStatus(q, { serves: (id) => id === 'pods', list: () => pods });
  return Object.fromEntries(Object.entries(status.used).map(([k, v]) => [k, thousandths(v)]));
};

describe('quotaStatus properties', () => {
  it.each([
    ['Terminating', 'NotTerminating'],
    ['BestEffort', 'NotBestEffort'],
  ])('%s and %s split the unscoped usage', (a, b) => {
    fc.assert(
      fc.property(fc.array(arbPod, { maxLength: 15 }), (pods) => {
        const all = used(pods);
        const one = used(pods, [a]);
        const other = used(pods, [b]);
        for (const name of Object.keys(HARD)) expect(one[name]! + other[name]!).toBe(all[name]);
      }),
      { numRuns: 200 },
    );
  });

  it('terminal pods never count', () => {
    fc.assert(
      fc.property(fc.array(arbPod, { maxLength: 15 }), (pods) => {
        const live = pods.filter(
          (p) => !['Succeeded', 'Failed'].includes((p.status as { phase: string }).phase),
        );
        expect(used(pods)).toEqual(used(live));
        expect(used(pods).pods).toBe(live.length * 1000);
      }),
      { numRuns: 200 },
    );
  });
});
