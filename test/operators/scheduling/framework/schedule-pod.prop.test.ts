// Properties of the scheduling algorithm with the default plugins, over random clusters and pods.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Taint, Toleration } from '../../../../operators/api/core-v1.ts';
import { newDiagnosis } from '../../../../operators/scheduling/framework/fit-error.ts';
import {
  type Framework,
  newFramework,
  type PluginRef,
} from '../../../../operators/scheduling/framework/framework.ts';
import {
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  type NodeScore,
} from '../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo } from '../../../../operators/scheduling/framework/node-info.ts';
import {
  findNodesThatPassFilters,
  newSchedulingAlgorithmState,
  numFeasibleNodesToFind,
  schedulePod,
  selectHost,
} from '../../../../operators/scheduling/framework/schedule-pod.ts';
import { inTreeRegistry } from '../../../../operators/scheduling/plugins/registry.ts';
import { seededRandom } from '../../../../src/testing/fault-random.ts';
import { container, fakeDeps, makePod, newState } from './fixtures.ts';

// ── arbitraries ────────────────────────────────────────────────────────────────────────────────

const zone = fc.constantFrom('a', 'b', 'c');
const taintArb: fc.Arbitrary<Taint> = fc.record({
  key: fc.constantFrom('dedicated', 'gpu', 'spot'),
  value: fc.constantFrom('x', 'y'),
  effect: fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute'),
});
const tolerationArb: fc.Arbitrary<Toleration> = fc.oneof(
  fc.record({ key: fc.constantFrom('dedicated', 'gpu', 'spot'), operator: fc.constant('Exists') }),
  fc.record({
    key: fc.constantFrom('dedicated', 'gpu', 'spot'),
    operator: fc.constant('Equal'),
    value: fc.constantFrom('x', 'y'),
    effect: fc.constantFrom('NoSchedule', 'PreferNoSchedule', ''),
  }),
);
const requests = fc.record(
  {
    cpu: fc.integer({ min: 0, max: 3000 }).map((m) => `${m}m`),
    memory: fc.integer({ min: 0, max: 4096 }).map((m) => `${m}Mi`),
  },
  { requiredKeys: [] },
);
const imageArb = fc.constantFrom('nginx', 'redis', 'busybox', 'app:v1');

interface NodeSpecArb {
  cpu: number;
  memoryGi: number;
  pods: number;
  zone: string;
  disk: string;
  taints: Taint[];
  images: string[];
  existing: { cpu?: string; memory?: string }[];
}
const nodeArb: fc.Arbitrary<NodeSpecArb> = fc.record({
  cpu: fc.integer({ min: 1, max: 8 }),
  memoryGi: fc.integer({ min: 1, max: 16 }),
  pods: fc.integer({ min: 1, max: 6 }),
  zone,
  disk: fc.constantFrom('ssd', 'hdd'),
  taints: fc.array(taintArb, { maxLength: 2 }),
  images: fc.uniqueArray(imageArb, { maxLength: 3 }),
  existing: fc.array(requests, { maxLength: 4 }),
});

interface PodSpecArb {
  requests: { cpu?: string; memory?: string }[];
  tolerations: Toleration[];
  nodeSelector?: { zone?: string };
  preferDisk?: string;
  image: string;
  unschedulableOk: boolean;
}
const podArb: fc.Arbitrary<PodSpecArb> = fc.record(
  {
    requests: fc.array(requests, { minLength: 1, maxLength: 3 }),
    tolerations: fc.array(tolerationArb, { maxLength: 2 }),
    nodeSelector: fc.record({ zone }, { requiredKeys: [] }),
    preferDisk: fc.constantFrom('ssd', 'hdd'),
    image: imageArb,
    unschedulableOk: fc.boolean(),
  },
  { requiredKeys: ['requests', 'tolerations', 'image', 'unschedulableOk'] },
);
const clusterArb = fc.record({
  // The boolean cordons the node (spec.unschedulable) for every third node.
  nodes: fc.array(fc.tuple(nodeArb, fc.boolean()), { minLength: 1, maxLength: 25 }),
  pod: podArb,
});

// ── building ───────────────────────────────────────────────────────────────────────────────────

function buildNodes(specs: [NodeSpecArb, boolean][]): NodeInfo[] {
  const imageCount = new Map<string, number>();
  for (const [s] of specs) for (const i of s.images) imageCount.set(i, (imageCount.get(i) ?? 0) + 1);
  return specs.map(([s, cordoned], i) => {
    const name = `node-${i}`;
    const node: Node = {
      metadata: { name, labels: { zone: s.zone, disk: s.disk } },
      spec: { taints: s.taints, unschedulable: cordoned && i % 3 === 0 },
      status: { allocatable: { cpu: String(s.cpu), memory: `${s.memoryGi}Gi`, pods: String(s.pods) } },
    };
    const pods = s.existing.map((r, j) =>
      makePod(`${name}-p${j}`, { containers: [container(r)], nodeName: name }),
    );
    const ni = new NodeInfo(node, pods);
    for (const img of s.images) {
      const full = img.includes(':') ? img : `${img}:latest`;
      ni.imageStates[full] = { size: 300 * 1024 * 1024, numNodes: imageCount.get(img)! };
    }
    return ni;
  });
}

function buildPod(s: PodSpecArb): Pod {
  const tolerations = s.unschedulableOk
    ? [
        ...s.tolerations,
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      ]
    : s.tolerations;
  return makePod('incoming', {
    containers: s.requests.map((r, i) => container(r, i === 0 ? { image: s.image } : {})),
    spec: {
      tolerations,
      ...(s.nodeSelector?.zone ? { nodeSelector: { zone: s.nodeSelector.zone } } : {}),
      ...(s.preferDisk
        ? {
            affinity: {
              nodeAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 7,
                    preference: {
                      matchExpressions: [{ key: 'disk', operator: 'In', values: [s.preferDisk] }],
                    },
                  },
                ],
              },
            },
          }
        : {}),
    },
  });
}

const refs = (...names: string[]): PluginRef[] => names.map((name) => ({ name }));
const SCORE: PluginRef[] = [
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
];

function defaultFramework(nodes: NodeInfo[]): Framework {
  const { deps } = fakeDeps({ nodes });
  return newFramework(
    {
      schedulerName: 'default-scheduler',
      plugins: {
        preFilter: refs('NodeAffinity', 'NodePorts', 'NodeResourcesFit'),
        filter: refs(
          'NodeUnschedulable',
          'NodeName',
          'TaintToleration',
          'NodeAffinity',
          'NodePorts',
          'NodeResourcesFit',
        ),
        preScore: refs(
          'TaintToleration',
          'NodeAffinity',
          'NodeResourcesFit',
          'NodeResourcesBalancedAllocation',
        ),
        score: SCORE,
      },
      pluginArgs: {},
    },
    inTreeRegistry,
    deps,
  );
}

/** Each node's verdict computed independently of schedulePod: PreFilter, then every filter. */
function independentVerdicts(f: Framework, pod: Pod, nodes: NodeInfo[]) {
  const state = newState();
  const pre = f.runPreFilterPlugins(state, pod);
  return { state, pre, verdicts: nodes.map((n) => f.runFilterPlugins(state, pod, n)) };
}

// ── properties ─────────────────────────────────────────────────────────────────────────────────

describe('schedulePod with the default plugins', () => {
  it('the chosen node is feasible and has the maximum weighted total; a FitError means no node fits', async () => {
    await fc.assert(
      fc.asyncProperty(clusterArb, fc.integer(), async ({ nodes: specs, pod: podSpec }, seed) => {
        const nodes = buildNodes(specs);
        const pod = buildPod(podSpec);
        const f = defaultFramework(nodes);
        const out = await schedulePod({
          framework: f,
          state: newState(),
          pod,
          algorithm: newSchedulingAlgorithmState(),
          random: seededRandom(seed),
        });
        const { state, pre, verdicts } = independentVerdicts(f, pod, nodes);
        const feasible = pre.status ? [] : nodes.filter((_, i) => verdicts[i] === undefined);
        if (out.type === 'FitError') {
          expect(feasible).toEqual([]);
          return;
        }
        expect(out.type).toBe('Scheduled');
        if (out.type !== 'Scheduled') return;
        expect(feasible.map((n) => n.name)).toContain(out.suggestedHost);
        expect(out.feasibleNodes).toBe(feasible.length);
        expect(out.evaluatedNodes).toBe(nodes.length);
        if (feasible.length > 1) {
          expect(f.runPreScorePlugins(state, pod, feasible)).toBeUndefined();
          const scored = f.runScorePlugins(state, pod, feasible);
          const best = Math.max(...scored.scores.map((s) => s.totalScore));
          expect(scored.scores.find((s) => s.name === out.suggestedHost)!.totalScore).toBe(best);
        }
      }),
      { numRuns: 150, seed: 1234 },
    );
  });

  it('every node that is not feasible carries a rejection status with a reason and a plugin', () => {
    fc.assert(
      fc.property(clusterArb, ({ nodes: specs, pod: podSpec }) => {
        const nodes = buildNodes(specs);
        const pod = buildPod(podSpec);
        const f = defaultFramework(nodes);
        const state = newState();
        const pre = f.runPreFilterPlugins(state, pod);
        fc.pre(pre.status === undefined);
        const diagnosis = newDiagnosis();
        const { feasible } = findNodesThatPassFilters(f, state, pod, diagnosis, nodes, 0);
        // No score plugins matter here: with score plugins and < 100 nodes every node is evaluated.
        expect(feasible.length + diagnosis.nodeToStatus.statuses.size).toBe(nodes.length);
        for (const n of nodes) {
          if (feasible.includes(n)) continue;
          const s = diagnosis.nodeToStatus.statuses.get(n.name);
          expect(s).toBeDefined();
          expect(['Unschedulable', 'UnschedulableAndUnresolvable']).toContain(s!.code);
          expect(s!.reasons.length).toBeGreaterThan(0);
          expect(s!.plugin).toBeDefined();
          expect(diagnosis.unschedulablePlugins.has(s!.plugin!)).toBe(true);
        }
      }),
      { numRuns: 150, seed: 99 },
    );
  });

  it('the FitError histogram adds up: one count per reason per rejected node', async () => {
    await fc.assert(
      fc.asyncProperty(clusterArb, async ({ nodes: specs, pod: podSpec }) => {
        const nodes = buildNodes(specs);
        const pod = buildPod(podSpec);
        const out = await schedulePod({
          framework: defaultFramework(nodes),
          state: newState(),
          pod,
          algorithm: newSchedulingAlgorithmState(),
        });
        fc.pre(out.type === 'FitError');
        if (out.type !== 'FitError') return;
        const msg = out.error.message;
        const prefix = `0/${nodes.length} nodes are available: `;
        expect(msg.startsWith(prefix)).toBe(true);
        const statuses = [...out.error.diagnosis.nodeToStatus.statuses.values()];
        const body = msg.slice(prefix.length, -1);
        const counts = body.split(', ').map((part) => Number.parseInt(part, 10));
        const total = counts.reduce((a, b) => a + b, 0);
        if (out.error.diagnosis.preFilterMsg) return;
        expect(statuses.length).toBe(nodes.length);
        expect(total).toBe(statuses.reduce((a, s) => a + s.reasons.length, 0));
        expect(total).toBeGreaterThanOrEqual(nodes.length);
        // The histogram is sorted as strings.
        const parts = body.split(', ');
        expect([...parts].sort()).toEqual(parts);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('with single-reason filters only, the histogram counts add up to the node count', async () => {
    await fc.assert(
      fc.asyncProperty(clusterArb, async ({ nodes: specs, pod: podSpec }) => {
        const nodes = buildNodes(specs);
        const pod = buildPod(podSpec);
        const { deps } = fakeDeps({ nodes });
        const f = newFramework(
          {
            schedulerName: 's',
            plugins: {
              preFilter: refs('NodeAffinity'),
              filter: refs('NodeUnschedulable', 'TaintToleration', 'NodeAffinity'),
              score: SCORE.slice(0, 2),
            },
            pluginArgs: {},
          },
          inTreeRegistry,
          deps,
        );
        const out = await schedulePod({
          framework: f,
          state: newState(),
          pod,
          algorithm: newSchedulingAlgorithmState(),
        });
        fc.pre(out.type === 'FitError');
        if (out.type !== 'FitError') return;
        const body = out.error.message.slice(`0/${nodes.length} nodes are available: `.length, -1);
        const total = body.split(', ').reduce((a, part) => a + Number.parseInt(part, 10), 0);
        expect(total).toBe(nodes.length);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('every score plugin’s normalized scores are in [0, 100]', () => {
    fc.assert(
      fc.property(clusterArb, ({ nodes: specs, pod: podSpec }) => {
        const nodes = buildNodes(specs);
        const pod = buildPod(podSpec);
        const f = defaultFramework(nodes);
        const state = newState();
        f.runPreFilterPlugins(state, pod);
        expect(f.runPreScorePlugins(state, pod, nodes)).toBeUndefined();
        for (const ref of SCORE) {
          if (state.skipScorePlugins.has(ref.name)) continue;
          const plugin = f.plugin(ref.name) as unknown as {
            score: (s: typeof state, p: Pod, n: NodeInfo) => number;
            normalizeScore?: (s: typeof state, p: Pod, scores: NodeScore[]) => unknown;
          };
          const scores = nodes.map((n) => ({ name: n.name, score: plugin.score(state, pod, n) }));
          plugin.normalizeScore?.(state, pod, scores);
          for (const s of scores) {
            expect(Number.isInteger(s.score)).toBe(true);
            expect(s.score).toBeGreaterThanOrEqual(MIN_NODE_SCORE);
            expect(s.score).toBeLessThanOrEqual(MAX_NODE_SCORE);
          }
        }
      }),
      { numRuns: 200, seed: 5 },
    );
  });
});

describe('numFeasibleNodesToFind', () => {
  it('is every node below 100, else between 100 (or 5% adaptive) and the node count', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 50_000 }),
        (profile, global, n) => {
          const k = numFeasibleNodesToFind(profile, global, n);
          if (n < 100) {
            expect(k).toBe(n);
            return;
          }
          expect(k).toBeGreaterThanOrEqual(100);
          expect(k).toBeLessThanOrEqual(n);
          if ((profile ?? global) === 0)
            expect(k).toBeGreaterThanOrEqual(Math.min(n, Math.trunc((n * 5) / 100)));
        },
      ),
      { seed: 17 },
    );
  });
});

describe('selectHost', () => {
  it('picks each of k tied nodes with roughly equal frequency (fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer(),
        (k, lower, seed) => {
          const list = [
            ...Array.from({ length: lower }, (_, i) => ({ name: `low-${i}`, scores: [], totalScore: 10 })),
            ...Array.from({ length: k }, (_, i) => ({ name: `top-${i}`, scores: [], totalScore: 50 })),
          ];
          // Shuffle deterministically so the tied nodes are interleaved with the others.
          const r = seededRandom(seed);
          list.sort(() => r() - 0.5);
          const draws = 4000 * k;
          const counts = new Map<string, number>();
          const random = seededRandom(seed ^ 0x5bd1e995);
          for (let i = 0; i < draws; i++) {
            const h = selectHost(list, random)!;
            counts.set(h, (counts.get(h) ?? 0) + 1);
          }
          expect([...counts.keys()].every((n) => n.startsWith('top-'))).toBe(true);
          for (let i = 0; i < k; i++) {
            const c = counts.get(`top-${i}`) ?? 0;
            // Expected 4000 each; 6 standard deviations is about ±380.
            expect(Math.abs(c - 4000)).toBeLessThan(600);
          }
        },
      ),
      { numRuns: 25, seed: 42 },
    );
  });
});
