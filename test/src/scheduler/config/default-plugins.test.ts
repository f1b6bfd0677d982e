// mergePluginSet / mergePlugins: cases in the spirit of upstream's default_plugins_test.go (TestMergePlugins).
import { describe, expect, it } from 'vitest';
import {
  defaultPlugins,
  mergePluginSet,
  mergePlugins,
} from '../../../../src/scheduler/config/default-plugins.ts';
import type { PluginSet } from '../../../../src/scheduler/config/types.ts';

const names = (set: PluginSet) =>
  (set.enabled ?? []).map((p) => (p.weight ? `${p.name}:${p.weight}` : p.name));

describe('mergePluginSet', () => {
  const defaults: PluginSet = { enabled: [{ name: 'A' }, { name: 'B', weight: 2 }, { name: 'C' }] };

  it.each([
    ['no custom set keeps the defaults', undefined, ['A', 'B:2', 'C'], []],
    ['a disabled default is dropped', { disabled: [{ name: 'B' }] }, ['A', 'C'], ['B']],
    [
      '`*` drops every default, custom plugins stay',
      { enabled: [{ name: 'X' }], disabled: [{ name: '*' }] },
      ['X'],
      ['*'],
    ],
    [
      'a re-enabled default is replaced in place with its new weight',
      { enabled: [{ name: 'B', weight: 5 }] },
      ['A', 'B:5', 'C'],
      [],
    ],
    [
      'new plugins are appended in their own order',
      { enabled: [{ name: 'Y' }, { name: 'X' }] },
      ['A', 'B:2', 'C', 'Y', 'X'],
      [],
    ],
    [
      'disable then re-enable moves a default to the end',
      { enabled: [{ name: 'A', weight: 3 }], disabled: [{ name: 'A' }] },
      ['B:2', 'C', 'A:3'],
      ['A'],
    ],
    [
      'a duplicated custom plugin is kept twice (the framework refuses it)',
      { enabled: [{ name: 'X' }, { name: 'X' }] },
      ['A', 'B:2', 'C', 'X', 'X'],
      [],
    ],
  ] as [string, PluginSet | undefined, string[], string[]][])('%s', (_name, custom, enabled, disabled) => {
    const merged = mergePluginSet(defaults, custom);
    expect(names(merged)).toEqual(enabled);
    expect((merged.disabled ?? []).map((p) => p.name)).toEqual(disabled);
  });

  it('carries the default set’s own disabled entries', () => {
    const merged = mergePluginSet(
      { enabled: [{ name: 'A' }], disabled: [{ name: 'Z' }] },
      { enabled: [{ name: 'B' }] },
    );
    expect(merged.disabled).toEqual([{ name: 'Z' }]);
  });
});

describe('defaultPlugins', () => {
  it('is the v1 MultiPoint list with the v1 weights (VolumeBinding not built)', () => {
    expect(names(defaultPlugins().multiPoint!)).toEqual([
      'SchedulingGates',
      'PrioritySort',
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration:3',
      'NodeAffinity:2',
      'NodePorts',
      'NodeResourcesFit:1',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeZone',
      'PodTopologySpread:2',
      'InterPodAffinity:2',
      'DefaultPreemption',
      'NodeResourcesBalancedAllocation:1',
      'ImageLocality:1',
      'DefaultBinder',
    ]);
  });

  it('leaves out defaults the registry lacks', () => {
    const only = new Set(['PrioritySort', 'DefaultBinder']);
    expect(names(defaultPlugins((n) => only.has(n)).multiPoint!)).toEqual(['PrioritySort', 'DefaultBinder']);
  });

  it('merges a profile point by point: a Score override and a disabled Filter plugin', () => {
    const merged = mergePlugins(defaultPlugins(), {
      score: { enabled: [{ name: 'NodeResourcesFit', weight: 7 }] },
      filter: { disabled: [{ name: 'TaintToleration' }] },
    });
    expect(names(merged.score!)).toEqual(['NodeResourcesFit:7']);
    expect(merged.filter!.disabled).toEqual([{ name: 'TaintToleration' }]);
    expect(names(merged.multiPoint!)).toContain('TaintToleration:3');
  });
});
