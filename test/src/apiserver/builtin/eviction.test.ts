// pods/eviction: PodDisruptionBudgets allow or refuse with 429, and record the disruption, as kube-apiserver's eviction REST does.
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../../../../src/apiserver/api-status.ts';
import { EVICTION_REFUSED } from '../../../../src/apiserver/builtin/eviction.ts';
import { pod, registryFixture } from '../admission/registry-fixture.ts';

const PDB = 'policy/poddisruptionbudgets';

function setup(
  budgetStatus: Record<string, unknown> | undefined,
  phase = 'Running',
  selector: object = { matchLabels: { app: 'web' } },
  { ready = true, unhealthyPodEvictionPolicy }: { ready?: boolean; unhealthyPodEvictionPolicy?: string } = {},
) {
  const f = registryFixture();
  const p = pod('web-0');
  p.metadata!.labels = { app: 'web' };
  f.create('pods', 'default', p);
  const stored = f.get('pods', 'default', 'web-0');
  const conditions = [{ type: 'Ready', status: ready ? 'True' : 'False' }];
  f.registry.update(
    f.def('pods'),
    'default',
    'web-0',
    { ...stored, status: { phase, conditions } },
    'status',
  );
  if (budgetStatus) {
    f.create(PDB, 'default', {
      metadata: { name: 'web' },
      spec: {
        minAvailable: 1,
        selector,
        ...(unhealthyPodEvictionPolicy ? { unhealthyPodEvictionPolicy } : {}),
      },
    });
    const b = f.get(PDB, 'default', 'web');
    f.registry.update(
      f.def(PDB),
      'default',
      'web',
      { ...b, status: { observedGeneration: 1, ...budgetStatus } },
      'status',
    );
  }
  const evict = () =>
    f.registry.postSubresource(f.def('pods'), 'default', 'web-0', 'eviction', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'web-0' },
    });
  const exists = () => {
    try {
      f.get('pods', 'default', 'web-0');
      return true;
    } catch {
      return false;
    }
  };
  return { ...f, evict, exists };
}

async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error instanceof ApiStatusError ? error.status : error;
  }
}

describe('pods/eviction', () => {
  it('refuses with 429 TooManyRequests when the budget allows no disruption', async () => {
    const { evict, exists } = setup({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 });
    expect(await refusal(evict)).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: EVICTION_REFUSED,
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget web needs 1 healthy pods and has 1 currently',
          },
        ],
      },
    });
    expect(exists()).toBe(true);
  });

  it('evicts when the budget allows it, recording the pod in disruptedPods and lowering disruptionsAllowed', async () => {
    const { evict, exists, get } = setup({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 });
    expect(await evict()).toEqual({
      code: 201,
      body: expect.objectContaining({ kind: 'Status', status: 'Success' }),
    });
    expect(exists()).toBe(false);
    expect(get(PDB, 'default', 'web').status).toMatchObject({
      disruptionsAllowed: 0,
      disruptedPods: { 'web-0': '2026-01-01T00:00:00Z' },
    });
  });

  it.each([
    ['no budget', undefined, 'Running'],
    ['a pending pod', { disruptionsAllowed: 0 }, 'Pending'],
    ['a succeeded pod', { disruptionsAllowed: 0 }, 'Succeeded'],
    ['a failed pod', { disruptionsAllowed: 0 }, 'Failed'],
  ])('evicts at once with %s', async (_name, status, phase) => {
    const { evict, exists } = setup(status, phase);
    await evict();
    expect(exists()).toBe(false);
  });

  it('ignores a budget with an empty selector, as upstream does', async () => {
    const { evict, exists } = setup({ disruptionsAllowed: 0 }, 'Running', {});
    await evict();
    expect(exists()).toBe(false);
  });

  it.each([
    [
      'IfHealthyBudget (the default), the budget healthy',
      undefined,
      { currentHealthy: 2, desiredHealthy: 2 },
      true,
    ],
    [
      'IfHealthyBudget, the budget short of healthy pods',
      undefined,
      { currentHealthy: 1, desiredHealthy: 2 },
      false,
    ],
    [
      'AlwaysAllow, the budget short of healthy pods',
      'AlwaysAllow',
      { currentHealthy: 1, desiredHealthy: 2 },
      true,
    ],
  ])(
    'an unready pod under %s goes without spending a disruption: %s',
    async (_name, policy, health, goes) => {
      const f = setup({ disruptionsAllowed: 0, ...health }, 'Running', undefined, {
        ready: false,
        unhealthyPodEvictionPolicy: policy,
      });
      const refused = await refusal(f.evict);
      expect(f.exists()).toBe(!goes);
      if (goes) expect(f.get(PDB, 'default', 'web').status).not.toHaveProperty('disruptedPods');
      else expect(refused).toMatchObject({ code: 429 });
    },
  );

  it('refuses while the budget is still being processed', async () => {
    const { evict } = setup({ disruptionsAllowed: 1, observedGeneration: 0 });
    expect(await refusal(evict)).toMatchObject({
      code: 429,
      details: { causes: [{ message: 'The disruption budget web is still being processed by the server.' }] },
    });
  });

  it('refuses with 500 when two budgets select the pod', async () => {
    const f = setup({ disruptionsAllowed: 1 });
    f.create(PDB, 'default', {
      metadata: { name: 'web2' },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
    });
    expect(await refusal(f.evict)).toMatchObject({
      code: 500,
      message:
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    });
  });

  it('answers 404 for a missing pod', async () => {
    const f = registryFixture();
    expect(
      await refusal(() => f.registry.postSubresource(f.def('pods'), 'default', 'ghost', 'eviction', {})),
    ).toMatchObject({ code: 404 });
  });
});
