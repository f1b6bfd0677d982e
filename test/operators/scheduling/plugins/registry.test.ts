// The in-tree registry: every default plugin of this part is registered under its upstream name and builds with default args.
import { describe, expect, it } from 'vitest';
import { implementsPoint } from '../../../../operators/scheduling/framework/interface.ts';
import { inTreeRegistry } from '../../../../operators/scheduling/plugins/registry.ts';
import { fakeDeps } from '../framework/fixtures.ts';

describe('inTreeRegistry', () => {
  it.each<[string, (keyof typeof implementsPoint)[]]>([
    ['SchedulingGates', ['preEnqueue', 'enqueueExtensions']],
    ['PrioritySort', ['queueSort']],
    ['NodeUnschedulable', ['filter', 'enqueueExtensions']],
    ['NodeName', ['filter', 'enqueueExtensions']],
    ['TaintToleration', ['filter', 'preScore', 'score', 'enqueueExtensions']],
    ['NodeAffinity', ['preFilter', 'filter', 'preScore', 'score', 'enqueueExtensions']],
    ['NodePorts', ['preFilter', 'filter', 'enqueueExtensions']],
    ['NodeResourcesFit', ['preFilter', 'filter', 'preScore', 'score', 'enqueueExtensions']],
    ['NodeResourcesBalancedAllocation', ['preScore', 'score']],
    ['ImageLocality', ['score']],
    ['DefaultBinder', ['bind']],
    ['VolumeRestrictions', ['preFilter', 'filter', 'enqueueExtensions']],
    ['NodeVolumeLimits', ['preFilter', 'filter', 'enqueueExtensions']],
    ['VolumeZone', ['preFilter', 'filter', 'enqueueExtensions']],
  ])('%s implements %j', (name, points) => {
    const { deps } = fakeDeps();
    const factory = inTreeRegistry[name];
    expect(factory).toBeDefined();
    const plugin = factory!(undefined, deps as never);
    expect(plugin.name).toBe(name);
    for (const p of points) expect(implementsPoint[p](plugin)).toBe(true);
  });
});
