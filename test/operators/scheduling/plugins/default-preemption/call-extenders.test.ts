// callExtenders and DefaultPreemption with extenders: upstream's callExtenders rules and TestPreempt's extender cases, in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import type { Victims } from '../../../../../operators/scheduling/framework/extender.ts';
import { statusMessage } from '../../../../../operators/scheduling/framework/status.ts';
import { callExtenders } from '../../../../../operators/scheduling/plugins/default-preemption/call-extenders.ts';
import type { Candidate } from '../../../../../operators/scheduling/plugins/default-preemption/pick-one-node-for-preemption.ts';
import { FakeExtender, type FakeExtenderOptions } from '../../framework/fake-extender.ts';
import { FakeLister } from '../../framework/fixtures.ts';
import { makeNode, makePod } from './cluster.ts';
import { preemptionBench } from './preemption-cluster.ts';

const victim = (name: string) => makePod(name, { node: 'x', priority: 1 });
const cand = (name: string, ...victims: string[]): Candidate => ({
  name,
  victims: victims.map(victim),
  numPdbViolations: 0,
});
const only =
  (...nodes: string[]) =>
  (m: Map<string, Victims>) =>
    new Map([...m].filter(([n]) => nodes.includes(n)));
const empty: Victims = { pods: [], numPDBViolations: 0 };

describe('callExtenders', () => {
  const candidates = [cand('node1', 'a'), cand('node2', 'b'), cand('node3', 'c')];
  const lister = new FakeLister([]);
  it.each<{ name: string; extenders: FakeExtenderOptions[]; want?: string[]; error?: string }>([
    { name: 'no extenders: the candidates as they are', extenders: [], want: ['node1', 'node2', 'node3'] },
    {
      name: 'an extender that does not preempt is not asked',
      extenders: [{ predicates: [] }],
      want: ['node1', 'node2', 'node3'],
    },
    {
      name: 'an extender keeps node2 and node3',
      extenders: [{ preempt: only('node2', 'node3') }],
      want: ['node2', 'node3'],
    },
    {
      name: 'the next extender sees what the previous one kept',
      extenders: [{ preempt: only('node2', 'node3') }, { preempt: only('node1', 'node3') }],
      want: ['node3'],
    },
    {
      name: 'an uninterested extender is not asked',
      extenders: [{ preempt: only(), uninterested: true }],
      want: ['node1', 'node2', 'node3'],
    },
    {
      name: 'an extender failing fails preemption',
      extenders: [
        {
          preempt: () => {
            throw new Error('extender down');
          },
        },
      ],
      error: 'extender down',
    },
    {
      name: 'an ignorable extender failing is skipped',
      extenders: [
        {
          preempt: () => {
            throw new Error('extender down');
          },
          ignorable: true,
        },
        { preempt: only('node1') },
      ],
      want: ['node1'],
    },
    {
      name: 'a node answered without victims is an error',
      extenders: [{ preempt: (m) => new Map([...m].map(([n, v]) => [n, n === 'node2' ? empty : v])) }],
      error: 'expected at least one victim pod on node "node2"',
    },
    {
      name: 'an ignorable extender answering a node without victims drops the node',
      extenders: [
        { preempt: (m) => new Map([...m].map(([n, v]) => [n, n === 'node2' ? empty : v])), ignorable: true },
      ],
      want: ['node1', 'node3'],
    },
    {
      name: 'once no node is left the other extenders are not asked',
      extenders: [
        { preempt: only() },
        {
          preempt: () => {
            throw new Error('must not be asked');
          },
        },
      ],
      want: [],
    },
  ])('$name', async ({ extenders, want, error }) => {
    const out = await callExtenders(
      extenders.map((o) => new FakeExtender(o)),
      makePod('preemptor', { priority: 10 }),
      candidates,
      lister,
    );
    if (error) {
      expect(out.status?.code).toBe('Error');
      expect(statusMessage(out.status)).toBe(error);
      expect(out.candidates).toEqual([]);
      return;
    }
    expect(out.status).toBeUndefined();
    expect(out.candidates.map((c) => c.name)).toEqual(want);
  });

  it('passes each candidate’s victims and PDB violations, and takes the answer’s', async () => {
    let seen: [string, string[], number][] = [];
    const ext = new FakeExtender({
      preempt: (m) => {
        seen = [...m].map(([n, v]) => [n, v.pods.map((p) => p.metadata.name!), v.numPDBViolations]);
        return new Map([['node2', { pods: [victim('b2')], numPDBViolations: 3 }]]);
      },
    });
    const out = await callExtenders(
      [ext],
      makePod('preemptor'),
      [cand('node1', 'a', 'a2'), { ...cand('node2', 'b'), numPdbViolations: 1 }],
      lister,
    );
    expect(seen).toEqual([
      ['node1', ['a', 'a2'], 0],
      ['node2', ['b'], 1],
    ]);
    expect(
      out.candidates.map((c) => [c.name, c.victims.map((p) => p.metadata.name), c.numPdbViolations]),
    ).toEqual([['node2', ['b2'], 3]]);
  });
});

describe('DefaultPreemption with extenders (upstream TestPreempt)', () => {
  const low = (name: string, node: string) => makePod(name, { node, cpu: '4', priority: 1 });
  const setup = () => {
    const pod: Pod = makePod('preemptor', { cpu: '4', priority: 10 });
    const bench = preemptionBench({
      nodes: [makeNode('node1'), makeNode('node2'), makeNode('node3')],
      pods: [low('p1', 'node1'), low('p2', 'node2'), low('p3', 'node3')],
      known: [pod],
    });
    return { pod, bench };
  };
  const deleted = (bench: ReturnType<typeof setup>['bench']) =>
    bench.calls.filter((c) => c.verb === 'deletePod').map((c) => c.pod);

  it('an extender allowing only node2 makes node2 the nominated node', async () => {
    const { pod, bench } = setup();
    const out = await bench.postFilter(pod, undefined, [new FakeExtender({ preempt: only('node2') })]);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node2');
    expect(deleted(bench)).toEqual(['p2']);
  });

  it('two extenders: the common node wins', async () => {
    const { pod, bench } = setup();
    const out = await bench.postFilter(pod, undefined, [
      new FakeExtender({ preempt: only('node1', 'node3') }),
      new FakeExtender({ preempt: only('node3') }),
    ]);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node3');
    expect(deleted(bench)).toEqual(['p3']);
  });

  it('an extender allowing no node leaves "no candidate node for preemption" and evicts nobody', async () => {
    const { pod, bench } = setup();
    const out = await bench.postFilter(pod, undefined, [new FakeExtender({ preempt: only() })]);
    expect(out.status?.code).toBe('Unschedulable');
    expect(statusMessage(out.status)).toBe('preemption: no candidate node for preemption');
    expect(out.result).toBeUndefined();
    expect(deleted(bench)).toEqual([]);
  });

  it('an uninterested or non-preempting extender changes nothing', async () => {
    const { pod, bench } = setup();
    const out = await bench.postFilter(pod, undefined, [
      new FakeExtender({ preempt: only(), uninterested: true }),
      new FakeExtender({ predicates: [] }),
    ]);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toMatch(/^node[123]$/);
    expect(deleted(bench)).toHaveLength(1);
  });

  it('an ignorable extender that fails is skipped; the next one allowing only node1 decides', async () => {
    const { pod, bench } = setup();
    const out = await bench.postFilter(pod, undefined, [
      new FakeExtender({
        preempt: () => {
          throw new Error('extender down');
        },
        ignorable: true,
      }),
      new FakeExtender({ preempt: only('node1') }),
    ]);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node1');
    expect(deleted(bench)).toEqual(['p1']);
  });

  it('an extender allowing only node3 but not interested in the pod leaves the choice to the plugin', async () => {
    const { pod, bench } = setup();
    const out = await bench.postFilter(pod, undefined, [
      new FakeExtender({ preempt: only('node3'), uninterested: true }),
    ]);
    // the bench's random offset 0 and equal candidates: the plugin's own pick is the first node
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node1');
  });

  it('an extender changing the victims: only the victims it names are evicted', async () => {
    // both pods must go for the preemptor; the extender names only one of them
    const pod: Pod = makePod('preemptor', { cpu: '4', priority: 10 });
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [
        makePod('small-a', { node: 'node1', cpu: '2', priority: 1 }),
        makePod('small-b', { node: 'node1', cpu: '2', priority: 1 }),
      ],
      known: [pod],
    });
    const out = await bench.postFilter(pod, undefined, [
      new FakeExtender({
        preempt: (m) =>
          new Map(
            [...m].map(([n, v]) => [
              n,
              { pods: v.pods.filter((p) => p.metadata.name === 'small-b'), numPDBViolations: 0 },
            ]),
          ),
      }),
    ]);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node1');
    expect(deleted(bench)).toEqual(['small-b']);
  });

  it('a failing extender fails preemption with its error and evicts nobody', async () => {
    const { pod, bench } = setup();
    const out = await bench.postFilter(pod, undefined, [
      new FakeExtender({
        preempt: () => {
          throw new Error('extender down');
        },
      }),
    ]);
    expect(out.status?.code).toBe('Error');
    expect(statusMessage(out.status)).toBe('preemption: extender down');
    expect(deleted(bench)).toEqual([]);
  });
});
