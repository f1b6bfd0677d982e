// DefaultBinder tests: the bind goes through the handle's API; a failure is an Error status.
import { describe, expect, it } from 'vitest';
import { newFramework } from '../../../../../operators/scheduling/framework/framework.ts';
import { inTreeRegistry } from '../../../../../operators/scheduling/plugins/registry.ts';
import { fakeDeps, makePod, newState } from '../../framework/fixtures.ts';

function setup() {
  const { deps, api } = fakeDeps();
  const fw = newFramework(
    { schedulerName: 's', plugins: { bind: [{ name: 'DefaultBinder' }] }, pluginArgs: {} },
    inTreeRegistry,
    deps,
  );
  return { fw, api };
}

describe('DefaultBinder', () => {
  it('binds the pod to the node through the API', async () => {
    const { fw, api } = setup();
    expect(
      await fw.runBindPlugins(newState(), makePod('p'), 'n1', new AbortController().signal),
    ).toBeUndefined();
    expect(api.bound).toEqual([{ pod: 'p', node: 'n1' }]);
  });

  it('a failed bind is an Error naming the binder', async () => {
    const { fw, api } = setup();
    api.bindError = new Error('pods "p" not found');
    const s = await fw.runBindPlugins(newState(), makePod('p'), 'n1', new AbortController().signal);
    expect(s?.code).toBe('Error');
    expect(s?.reasons).toEqual(['running Bind plugin "DefaultBinder": pods "p" not found']);
  });
});
