// CriticalPaths and PreFilterState: the two least-loaded domains kept up to date, the global minimum with minDomains, clones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSelectorFromSet } from '../../../../../operators/label-selector.ts';
import { CycleState } from '../../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo, newPodInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { newPodTopologySpread } from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import {
  CriticalPaths,
  PreFilterState,
} from '../../../../../operators/scheduling/plugins/pod-topology-spread/pre-filter-state.ts';
import { makeCluster, makeNode, makePod } from '../default-preemption/cluster.ts';

const constraint = (minDomains = 1) => ({
  maxSkew: 1,
  topologyKey: 'zone',
  selector: labelSelectorFromSet({ app: 'web' }),
  minDomains,
  nodeAffinityPolicy: 'Honor' as const,
  nodeTaintsPolicy: 'Ignore' as const,
});

describe('CriticalPaths', () => {
  it.each<{ name: string; updates: [string, number][]; min: [string, number] }>([
    { name: 'one domain', updates: [['z1', 3]], min: ['z1', 3] },
    {
      name: 'a smaller one takes the first slot',
      updates: [
        ['z1', 3],
        ['z2', 1],
      ],
      min: ['z2', 1],
    },
    {
      name: 'a known domain growing swaps the slots',
      updates: [
        ['z1', 1],
        ['z2', 2],
        ['z1', 5],
      ],
      min: ['z2', 2],
    },
    {
      name: 'a known domain shrinking stays first',
      updates: [
        ['z1', 2],
        ['z2', 3],
        ['z1', 0],
      ],
      min: ['z1', 0],
    },
    {
      name: 'a larger unknown domain does not displace',
      updates: [
        ['z1', 1],
        ['z2', 2],
        ['z3', 7],
      ],
      min: ['z1', 1],
    },
  ])('$name', ({ updates, min }) => {
    const p = new CriticalPaths();
    for (const [v, n] of updates) p.update(v, n);
    expect([p.paths[0].value, p.paths[0].count]).toEqual(min);
  });

  it('after a full initial view, the first path stays the minimum under any changes confined to one domain (what one node’s what-ifs can do)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(5), { minLength: 1, maxLength: 5 }),
        fc.nat(4),
        fc.array(fc.constantFrom(1, -1), { maxLength: 20 }),
        (initial, which, deltas) => {
          const counts = new Map(initial.map((n, i) => [`z${i}`, n]));
          const state = new PreFilterState([constraint()], [new Map(counts)]);
          expect(state.minMatchNum(0)).toBe(Math.min(...counts.values()));
          const key = `z${which % initial.length}`;
          for (const delta of deltas) {
            if (counts.get(key)! + delta < 0) continue;
            counts.set(key, counts.get(key)! + delta);
            state.add(0, key, delta);
            expect(state.minMatchNum(0)).toBe(Math.min(...counts.values()));
          }
        },
      ),
    );
  });
});

describe('PreFilterState', () => {
  it('fewer eligible domains than minDomains makes the global minimum 0', () => {
    const s = new PreFilterState(
      [constraint(3)],
      [
        new Map([
          ['z1', 2],
          ['z2', 4],
        ]),
      ],
    );
    expect(s.minMatchNum(0)).toBe(0);
    const t = new PreFilterState(
      [constraint(2)],
      [
        new Map([
          ['z1', 2],
          ['z2', 4],
        ]),
      ],
    );
    expect(t.minMatchNum(0)).toBe(2);
  });

  it('a clone has its own counts and paths', () => {
    const s = new PreFilterState(
      [constraint()],
      [
        new Map([
          ['z1', 1],
          ['z2', 1],
        ]),
      ],
    );
    const c = s.clone();
    c.add(0, 'z1', 5);
    c.add(0, 'z2', 5);
    expect(c.minMatchNum(0)).toBe(6);
    expect(s.minMatchNum(0)).toBe(1);
    expect(s.counts[0]!.get('z1')).toBe(1);
  });
});

describe('Filter and extensions without PreFilter', () => {
  it('are Error statuses naming the missing state', () => {
    const { framework } = makeCluster({ nodes: [], registry: {} });
    const plugin = newPodTopologySpread({}, framework);
    const pod = makePod('p');
    const nodeInfo = new NodeInfo(makeNode('n'));
    expect(plugin.filter(new CycleState(), pod, nodeInfo)?.code).toBe('Error');
    expect(plugin.filter(new CycleState(), pod, nodeInfo)?.reasons[0]).toContain(
      'PreFilterPodTopologySpread',
    );
    expect(plugin.addPod(new CycleState(), pod, newPodInfo(pod), nodeInfo)?.code).toBe('Error');
    expect(plugin.score(new CycleState(), pod, nodeInfo)).toMatchObject({ code: 'Error' });
  });
});
