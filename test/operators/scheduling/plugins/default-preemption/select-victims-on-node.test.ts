// selectVictimsOnNode and the dry run: cases from upstream's TestDryRunPreemption/TestSelectNodesForPreemption and the PDB cases, in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import type { PodDisruptionBudget } from '../../../../../operators/scheduling/framework/interface.ts';
import { newPodInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import {
  dryRunPreemption,
  nodesWherePreemptionMightHelp,
  numCandidates,
} from '../../../../../operators/scheduling/plugins/default-preemption/dry-run-preemption.ts';
import { filterPodsWithPdbViolation } from '../../../../../operators/scheduling/plugins/default-preemption/pdb-violation.ts';
import { selectVictimsOnNode } from '../../../../../operators/scheduling/plugins/default-preemption/select-victims-on-node.ts';
import { makeNode, makePod } from './cluster.ts';
import { pdb, preemptionBench } from './preemption-cluster.ts';

const at = (year: number) => `${year}-01-01T00:00:00Z`;
const pod = (
  name: string,
  node: string,
  cpu: string,
  priority: number,
  o: Parameters<typeof makePod>[1] = {},
) => makePod(name, { node, cpu, priority, startTime: at(2020), ...o });

function victimsOn(
  nodeName: string,
  pods: Pod[],
  preemptor: Pod,
  pdbs: PodDisruptionBudget[] = [],
  withPodPlugins = false,
) {
  const bench = preemptionBench({
    nodes: [makeNode(nodeName)],
    pods,
    known: [preemptor],
    pdbs,
    withPodPlugins,
  });
  const { state } = bench.filterAll(preemptor);
  const nodeInfo = bench.snapshot.get(nodeName)!.clone();
  return selectVictimsOnNode(bench.framework, state, preemptor, nodeInfo, pdbs, 0);
}

describe('selectVictimsOnNode', () => {
  it.each<{ name: string; pods: Pod[]; preemptor: Pod; victims: string[] | string; pdbViolations?: number }>([
    {
      name: 'one lower-priority pod in the way is the victim',
      pods: [pod('p1', 'n', '4', 1)],
      preemptor: makePod('x', { cpu: '2', priority: 10 }),
      victims: ['p1'],
    },
    {
      name: 'the medium-priority pod goes; the small low-priority one stays',
      pods: [pod('small-low', 'n', '1', 0), pod('big-mid', 'n', '3', 5)],
      preemptor: makePod('x', { cpu: '3', priority: 10 }),
      victims: ['big-mid'],
    },
    {
      name: 'mixed priorities: the most important lower pods are reprieved first',
      pods: [pod('p1', 'n', '1', 1), pod('p2', 'n', '1', 5), pod('p3', 'n', '1', 20), pod('p4', 'n', '1', 2)],
      preemptor: makePod('x', { cpu: '2', priority: 10 }),
      victims: ['p4', 'p1'],
    },
    {
      name: 'equal priorities: the later-started pod is the victim',
      pods: [
        pod('older', 'n', '2', 1, { startTime: at(2020) }),
        pod('newer', 'n', '2', 1, { startTime: at(2021) }),
      ],
      preemptor: makePod('x', { cpu: '2', priority: 10 }),
      victims: ['newer'],
    },
    {
      name: 'only pods of equal or higher priority: no victims',
      pods: [pod('same', 'n', '2', 10), pod('more', 'n', '2', 11)],
      preemptor: makePod('x', { cpu: '2', priority: 10 }),
      victims: 'UnschedulableAndUnresolvable: No preemption victims found for incoming pod',
    },
    {
      name: 'still no fit after removing every lower pod: the filter status',
      pods: [pod('low', 'n', '1', 1), pod('vip', 'n', '3', 50)],
      preemptor: makePod('x', { cpu: '2', priority: 10 }),
      victims: 'Unschedulable: Insufficient cpu',
    },
  ])('$name', ({ pods, preemptor, victims }) => {
    const out = victimsOn('n', pods, preemptor);
    if (typeof victims === 'string') {
      expect(out.ok).toBe(false);
      if (!out.ok) expect(`${out.status.code}: ${out.status.reasons.join(', ')}`).toBe(victims);
      return;
    }
    expect(out.ok).toBe(true);
    if (out.ok) expect(out.victims.map((p) => p.metadata.name)).toEqual(victims);
  });

  it.each<{ name: string; pods: Pod[]; pdbs: PodDisruptionBudget[]; victims: string[]; violations: number }>([
    {
      name: 'both pods of one PDB allowing 1 disruption: one violation',
      pods: [
        pod('p1', 'n', '2', 1, { labels: { app: 'foo' } }),
        pod('p2', 'n', '2', 1, { labels: { app: 'foo' } }),
      ],
      pdbs: [pdb('pdb', { app: 'foo' }, 1)],
      victims: ['p1', 'p2'],
      violations: 1,
    },
    {
      name: 'a pod already in the PDB’s disruptedPods does not spend the budget',
      pods: [
        pod('p1', 'n', '2', 1, { labels: { app: 'foo' } }),
        pod('p2', 'n', '2', 1, { labels: { app: 'foo' } }),
      ],
      pdbs: [pdb('pdb', { app: 'foo' }, 1, { disrupted: ['p2'] })],
      victims: ['p1', 'p2'],
      violations: 0,
    },
    {
      name: 'a PDB of another namespace or another label does not count',
      pods: [
        pod('p1', 'n', '2', 1, { labels: { app: 'foo' } }),
        pod('p2', 'n', '2', 1, { labels: { app: 'bar' } }),
      ],
      pdbs: [pdb('other-ns', { app: 'foo' }, 0, { ns: 'elsewhere' }), pdb('other-label', { app: 'baz' }, 0)],
      victims: ['p1', 'p2'],
      violations: 0,
    },
    {
      name: 'two PDBs, one with no budget left: one violation',
      pods: [
        pod('p1', 'n', '2', 1, { labels: { app: 'foo' } }),
        pod('p2', 'n', '2', 1, { labels: { app: 'bar' } }),
      ],
      pdbs: [pdb('foo', { app: 'foo' }, 1), pdb('bar', { app: 'bar' }, 0)],
      victims: ['p1', 'p2'],
      violations: 1,
    },
    {
      name: 'the violating pod is reprieved first when one victim is enough',
      pods: [
        pod('p1', 'n', '2', 1, { labels: { app: 'foo' } }),
        pod('p2', 'n', '2', 1, { labels: { app: 'bar' } }),
      ],
      pdbs: [pdb('bar', { app: 'bar' }, 0)],
      victims: ['p1'],
      violations: 0,
    },
  ])('PDB: $name', ({ pods, pdbs, victims, violations }) => {
    const preemptor = makePod('x', { cpu: victims.length === 1 ? '2' : '4', priority: 10 });
    const out = victimsOn('n', pods, preemptor, pdbs);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.victims.map((p) => p.metadata.name).sort()).toEqual([...victims].sort());
    expect(out.numPdbViolations).toBe(violations);
  });

  it('works on its own copies: the snapshot NodeInfo and the cycle state are unchanged', () => {
    const pods = [pod('p1', 'n', '4', 1)];
    const preemptor = makePod('x', { cpu: '2', priority: 10 });
    const bench = preemptionBench({ nodes: [makeNode('n')], pods, known: [preemptor] });
    const { state } = bench.filterAll(preemptor);
    const original = bench.snapshot.get('n')!;
    const out = selectVictimsOnNode(bench.framework, state.clone(), preemptor, original.clone(), [], 0);
    expect(out.ok).toBe(true);
    expect(original.pods.map((p) => p.pod.metadata.name)).toEqual(['p1']);
    expect(original.requested.milliCPU).toBe(4000);
  });
});

describe('filterPodsWithPdbViolation', () => {
  it('a pod without labels matches no PDB; a PDB with an empty selector matches nothing', () => {
    const bare = newPodInfo(makePod('bare'));
    const labelled = newPodInfo(makePod('l', { labels: { a: 'b' } }));
    const empty: PodDisruptionBudget = { ...pdb('empty', {}, 0), spec: { selector: {} } };
    const out = filterPodsWithPdbViolation([bare, labelled], [empty, pdb('a', { a: 'b' }, 0)]);
    expect(out.violating.map((p) => p.pod.metadata.name)).toEqual(['l']);
    expect(out.nonViolating.map((p) => p.pod.metadata.name)).toEqual(['bare']);
  });
});

describe('numCandidates', () => {
  it.each([
    { nodes: 0, pct: 10, abs: 100, want: 0 },
    { nodes: 10, pct: 10, abs: 100, want: 10 },
    { nodes: 1000, pct: 10, abs: 100, want: 100 },
    { nodes: 10000, pct: 10, abs: 100, want: 1000 },
    { nodes: 1000, pct: 40, abs: 100, want: 400 },
    { nodes: 1000, pct: 0, abs: 100, want: 100 },
    { nodes: 1000, pct: 0, abs: 1, want: 1 },
    { nodes: 1000, pct: 10, abs: 0, want: 100 },
    { nodes: 5000, pct: 10, abs: 0, want: 500 },
    { nodes: 5, pct: 100, abs: 0, want: 5 },
  ])('$nodes nodes, $pct%, at least $abs → $want', ({ nodes, pct, abs, want }) => {
    expect(numCandidates(nodes, pct, abs)).toBe(want);
  });
});

describe('dryRunPreemption', () => {
  const five = ['n0', 'n1', 'n2', 'n3', 'n4'];
  const preemptor = makePod('x', { cpu: '2', priority: 10 });
  const bench = preemptionBench({
    nodes: five.map((n) => makeNode(n)),
    pods: five.map((n) => pod(`victim-${n}`, n, '4', 1)),
    known: [preemptor],
  });

  it('starts at the offset, wraps round and stops once enough candidates are found', () => {
    const { state, statuses } = bench.filterAll(preemptor);
    const { potential } = nodesWherePreemptionMightHelp(bench.snapshot.list(), statuses);
    const run = dryRunPreemption(bench.framework, state, preemptor, potential, [], 3, 3, 0);
    expect(run.candidates.map((c) => c.name)).toEqual(['n3', 'n4', 'n0']);
    expect(run.candidates.every((c) => c.victims.length === 1 && c.numPdbViolations === 0)).toBe(true);
  });

  it('keeps searching while every candidate found violates a PDB, and lists non-violating ones first', () => {
    const pdbs = [pdb('strict', { tier: 'gold' }, 0)];
    const goldFirst = preemptionBench({
      nodes: five.map((n) => makeNode(n)),
      pods: five.map((n, i) => pod(`v-${n}`, n, '4', 1, i < 2 ? { labels: { tier: 'gold' } } : {})),
      known: [preemptor],
      pdbs,
    });
    const { state, statuses } = goldFirst.filterAll(preemptor);
    const { potential } = nodesWherePreemptionMightHelp(goldFirst.snapshot.list(), statuses);
    const run = dryRunPreemption(goldFirst.framework, state, preemptor, potential, pdbs, 0, 2, 0);
    expect(run.candidates.map((c) => `${c.name}:${c.numPdbViolations}`)).toEqual(['n2:0', 'n0:1', 'n1:1']);
  });

  it('the plugin’s random offset picks where the search starts', async () => {
    const seeded = preemptionBench({
      nodes: five.map((n) => makeNode(n)),
      pods: five.map((n) => pod(`victim-${n}`, n, '4', 1)),
      known: [preemptor],
      args: { minCandidateNodesAbsolute: 1, minCandidateNodesPercentage: 0 },
      random: (n) => n - 1,
    });
    const out = await seeded.postFilter(preemptor);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('n4');
  });
});
