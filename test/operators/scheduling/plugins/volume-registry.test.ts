// volumeRegistry: the three volume plugins over one set of lookups; without lookups they leave claims alone, with them a missing claim is unresolvable.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { CycleState, type PreFilterPlugin } from '../../../../operators/scheduling/framework/interface.ts';
import { volumeRegistry } from '../../../../operators/scheduling/plugins/volume-registry.ts';
import { fakeDeps } from '../framework/fixtures.ts';

const pod: Pod = {
  metadata: { name: 'p', namespace: 'default', uid: 'p' },
  spec: {
    containers: [{ name: 'c', image: 'pause' }],
    volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
  },
};
const names = ['VolumeRestrictions', 'NodeVolumeLimits', 'VolumeZone'];

function preFilters(registry: ReturnType<typeof volumeRegistry>) {
  const { deps } = fakeDeps();
  return names.map((n) => {
    const plugin = registry[n]!(undefined, deps as never) as PreFilterPlugin;
    return [n, plugin.preFilter(new CycleState(), pod, [])?.status?.code ?? 'Success'];
  });
}

describe('volumeRegistry', () => {
  it('registers the three volume plugins under their upstream names', () => {
    expect(Object.keys(volumeRegistry()).sort()).toEqual([...names].sort());
  });

  it('without lookups every plugin skips a pod with a claim', () => {
    expect(preFilters(volumeRegistry())).toEqual(names.map((n) => [n, 'Skip']));
  });

  it('with lookups a claim that does not exist makes the pod unresolvable where upstream says so', () => {
    const lookups = {
      persistentVolumeClaim: () => undefined,
      persistentVolume: () => undefined,
      storageClass: () => undefined,
      csiNode: () => undefined,
    };
    expect(preFilters(volumeRegistry(lookups))).toEqual([
      ['VolumeRestrictions', 'UnschedulableAndUnresolvable'],
      // NodeVolumeLimits reports the missing claim at Filter, per node
      ['NodeVolumeLimits', 'Success'],
      ['VolumeZone', 'UnschedulableAndUnresolvable'],
    ]);
  });
});
