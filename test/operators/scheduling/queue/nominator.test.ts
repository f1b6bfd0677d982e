// Nominator tables, after kube-scheduler's nominator tests: add/override/clear, lister checks, update keeping a held nomination.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { Nominator } from '../../../../operators/scheduling/queue/nominator.ts';
import { pod } from './fixtures.ts';

const names = (n: Nominator, node: string) => n.podsForNode(node).map((r) => r.name);

describe('Nominator', () => {
  it.each([
    {
      name: 'from status.nominatedNodeName',
      p: pod('a', { nominatedNodeName: 'n1' }),
      info: undefined,
      want: 'n1',
    },
    {
      name: 'Override wins over the status',
      p: pod('a', { nominatedNodeName: 'n1' }),
      info: { nominatedNodeName: 'n2', mode: 'Override' as const },
      want: 'n2',
    },
    {
      name: 'Override with an empty node clears',
      p: pod('a', { nominatedNodeName: 'n1' }),
      info: { nominatedNodeName: '', mode: 'Override' as const },
      want: undefined,
    },
    {
      name: 'Noop uses the status',
      p: pod('a', { nominatedNodeName: 'n1' }),
      info: { nominatedNodeName: 'n2', mode: 'Noop' as const },
      want: 'n1',
    },
    { name: 'no nomination anywhere', p: pod('a'), info: undefined, want: undefined },
  ])('add: $name', ({ p, info, want }) => {
    const n = new Nominator();
    n.add(p, info);
    expect(n.nominatedNodeFor('a')).toBe(want);
    expect(n.size).toBe(want ? 1 : 0);
  });

  it('keeps nomination order per node and moves a re-nominated pod', () => {
    const n = new Nominator();
    n.add(pod('a', { nominatedNodeName: 'n1' }));
    n.add(pod('b', { nominatedNodeName: 'n1' }));
    n.add(pod('a', { nominatedNodeName: 'n1' }));
    expect(names(n, 'n1')).toEqual(['b', 'a']);
    n.add(pod('b', { nominatedNodeName: 'n2' }));
    expect(names(n, 'n1')).toEqual(['a']);
    expect(names(n, 'n2')).toEqual(['b']);
    n.delete(pod('a'));
    expect(names(n, 'n1')).toEqual([]);
  });

  it('ignores pods the lister says are gone or already bound', () => {
    const live = new Map<string, Pod>([['bound', pod('bound', { nodeName: 'x' })]]);
    const n = new Nominator((_ns, name) => live.get(name));
    n.add(pod('gone', { nominatedNodeName: 'n1' }));
    n.add(pod('bound', { nominatedNodeName: 'n1' }));
    expect(n.size).toBe(0);
  });

  it('update keeps a nomination held from a cycle when neither version carries one', () => {
    const n = new Nominator();
    n.add(pod('a'), { nominatedNodeName: 'n1', mode: 'Override' });
    n.update(pod('a'), pod('a', { labels: { x: 'y' } }));
    expect(n.nominatedNodeFor('a')).toBe('n1');
    n.update(pod('a'), pod('a', { nominatedNodeName: 'n2' }));
    expect(n.nominatedNodeFor('a')).toBe('n2');
    n.update(pod('a', { nominatedNodeName: 'n2' }), pod('a'));
    expect(n.nominatedNodeFor('a')).toBeUndefined();
  });
});
