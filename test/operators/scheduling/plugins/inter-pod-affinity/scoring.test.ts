// InterPodAffinity PreScore/Score/NormalizeScore: cases from upstream's scoring_test.go, in our own words; args and hints.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, PodAffinityTerm } from '../../../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../../../operators/errors.ts';
import { ActionType } from '../../../../../operators/scheduling/framework/interface.ts';
import {
  interPodAffinityFactory,
  newInterPodAffinity,
} from '../../../../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity.ts';
import {
  defaultInterPodAffinityArgs,
  validateInterPodAffinityArgs,
} from '../../../../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity-args.ts';
import { bareNode, makeCluster, makePod } from '../default-preemption/cluster.ts';

const term = (key: string, values: string[], topologyKey: string): PodAffinityTerm => ({
  labelSelector: { matchExpressions: [{ key, operator: 'In', values }] },
  topologyKey,
});
const preferred = (weight: number, t: PodAffinityTerm) => [{ weight, podAffinityTerm: t }];

const nodes = [
  bareNode('machine1', { region: 'China' }),
  bareNode('machine2', { region: 'India' }),
  bareNode('machine3', { region: 'China' }),
  bareNode('machine4', { region: 'Europe' }),
];

function score(pod: Pod, pods: Pod[], args?: unknown, on: Node[] = nodes) {
  const { framework, snapshot, newState } = makeCluster({
    nodes: on,
    pods,
    registry: { InterPodAffinity: interPodAffinityFactory() },
    preScore: ['InterPodAffinity'],
    score: [{ name: 'InterPodAffinity', weight: 1 }],
    pluginArgs: args ? { InterPodAffinity: args } : {},
  });
  const state = newState();
  framework.runPreScorePlugins(state, pod, snapshot.list());
  if (state.skipScorePlugins.has('InterPodAffinity')) return 'Skip';
  const out = framework.runScorePlugins(state, pod, snapshot.list());
  return Object.fromEntries(out.scores.map((n) => [n.name, n.scores[0]?.score]));
}

const s1 = (name: string, node: string) => makePod(name, { labels: { security: 'S1' }, node });
const s2 = (name: string, node: string) => makePod(name, { labels: { security: 'S2' }, node });

describe('InterPodAffinity scoring', () => {
  it.each<{ name: string; pod: Pod; pods: Pod[]; args?: unknown; want: Record<string, number> | 'Skip' }>([
    {
      name: 'nobody has pod affinity: Skip',
      pod: makePod('p', { labels: { security: 'S1' } }),
      pods: [s1('a', 'machine1'), s2('b', 'machine2')],
      want: 'Skip',
    },
    {
      name: 'preferred affinity to S1 by region: both China nodes win',
      pod: makePod('p', {
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: preferred(5, term('security', ['S1'], 'region')),
          },
        },
      }),
      pods: [s1('a', 'machine1'), s2('b', 'machine2')],
      want: { machine1: 100, machine2: 0, machine3: 100, machine4: 0 },
    },
    {
      name: 'preferred affinity weights add up per pod: China 10, India 5, Europe 0',
      pod: makePod('p', {
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: preferred(5, term('security', ['S1'], 'region')),
          },
        },
      }),
      pods: [s1('a', 'machine1'), s1('b', 'machine3'), s1('c', 'machine2')],
      want: { machine1: 100, machine2: 50, machine3: 100, machine4: 0 },
    },
    {
      name: 'preferred anti-affinity to S1 by region: China loses',
      pod: makePod('p', {
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: preferred(5, term('security', ['S1'], 'region')),
          },
        },
      }),
      pods: [s1('a', 'machine1'), s2('b', 'machine2')],
      want: { machine1: 0, machine2: 100, machine3: 0, machine4: 100 },
    },
    {
      name: 'affinity to S1 and anti-affinity to S2: China best, India worst',
      pod: makePod('p', {
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: preferred(5, term('security', ['S1'], 'region')),
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: preferred(5, term('security', ['S2'], 'region')),
          },
        },
      }),
      pods: [s1('a', 'machine1'), s2('b', 'machine2')],
      want: { machine1: 100, machine2: 0, machine3: 100, machine4: 50 },
    },
    {
      name: 'an existing pod’s required affinity to the incoming pod counts hardPodAffinityWeight (symmetry)',
      pod: makePod('p', { labels: { security: 'S1' } }),
      pods: [
        makePod('e', {
          node: 'machine1',
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [term('security', ['S1'], 'region')],
            },
          },
        }),
      ],
      want: { machine1: 100, machine2: 0, machine3: 100, machine4: 0 },
    },
    {
      name: 'hardPodAffinityWeight 0 turns that symmetry off',
      pod: makePod('p', { labels: { security: 'S1' } }),
      pods: [
        makePod('e', {
          node: 'machine1',
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [term('security', ['S1'], 'region')],
            },
          },
        }),
      ],
      args: { hardPodAffinityWeight: 0 },
      want: 'Skip',
    },
    {
      name: 'an existing pod’s preferred anti-affinity to the incoming pod pushes it away',
      pod: makePod('p', { labels: { security: 'S1' } }),
      pods: [
        makePod('e', {
          node: 'machine2',
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: preferred(
                3,
                term('security', ['S1'], 'region'),
              ),
            },
          },
        }),
      ],
      want: { machine1: 100, machine2: 0, machine3: 100, machine4: 100 },
    },
    {
      name: 'ignorePreferredTermsOfExistingPods with an incoming pod without affinity: Skip',
      pod: makePod('p', { labels: { security: 'S1' } }),
      pods: [
        makePod('e', {
          node: 'machine2',
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: preferred(
                3,
                term('security', ['S1'], 'region'),
              ),
            },
          },
        }),
      ],
      args: { ignorePreferredTermsOfExistingPods: true },
      want: 'Skip',
    },
  ])('$name', ({ pod, pods, args, want }) => {
    expect(score(pod, pods, args)).toEqual(want);
  });
});

describe('InterPodAffinityArgs', () => {
  it.each([
    { weight: 0, ok: true },
    { weight: 1, ok: true },
    { weight: 100, ok: true },
    { weight: -1, ok: false },
    { weight: 101, ok: false },
  ])('hardPodAffinityWeight $weight valid: $ok', ({ weight, ok }) => {
    const run = () =>
      validateInterPodAffinityArgs({ hardPodAffinityWeight: weight }, 'profiles[0].pluginConfig[0].args');
    if (ok) expect(run).not.toThrow();
    else {
      expect(run).toThrow(InvalidConfigError);
      expect(run).toThrow('profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value');
    }
  });

  it('defaults to weight 1 and existing pods’ preferred terms counted', () => {
    expect(defaultInterPodAffinityArgs()).toEqual({
      hardPodAffinityWeight: 1,
      ignorePreferredTermsOfExistingPods: false,
    });
  });
});

describe('InterPodAffinity queueing hints', () => {
  const { framework } = makeCluster({ nodes: [], registry: {} });
  const plugin = newInterPodAffinity({}, framework);
  const pod = makePod('p', {
    labels: { app: 'web' },
    affinity: {
      podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('app', ['db'], 'zone')] },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('app', ['web'], 'host')] },
    },
  });
  const assigned = (labels: Record<string, string>, o: Parameters<typeof makePod>[1] = {}) =>
    makePod('q', { labels, node: 'n1', ...o });

  it('registers pod add/label-update/delete and node add/label/taint events', () => {
    expect(plugin.eventsToRegister().map((e) => e.event)).toEqual([
      { resource: 'Pod', action: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
      { resource: 'Node', action: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint },
    ]);
  });

  it.each<{ name: string; old?: Pod; now?: Pod; want: string }>([
    { name: 'an added pod that satisfies the affinity', now: assigned({ app: 'db' }), want: 'Queue' },
    { name: 'an added pod that does not', now: assigned({ app: 'cache' }), want: 'QueueSkip' },
    { name: 'an unassigned pod', now: makePod('q', { labels: { app: 'db' } }), want: 'QueueSkip' },
    {
      name: 'a relabel that starts matching the affinity',
      old: assigned({ app: 'x' }),
      now: assigned({ app: 'db' }),
      want: 'Queue',
    },
    {
      name: 'a relabel that stops matching the anti-affinity',
      old: assigned({ app: 'web' }),
      now: assigned({ app: 'x' }),
      want: 'Queue',
    },
    {
      name: 'a relabel that changes nothing relevant',
      old: assigned({ app: 'x' }),
      now: assigned({ app: 'y' }),
      want: 'QueueSkip',
    },
    { name: 'a deleted pod the anti-affinity selected', old: assigned({ app: 'web' }), want: 'Queue' },
    {
      name: 'a deleted pod whose anti-affinity selected the pod',
      old: assigned(
        {},
        {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [term('app', ['web'], 'zone')],
            },
          },
        },
      ),
      want: 'Queue',
    },
    { name: 'a deleted unrelated pod', old: assigned({ app: 'x' }), want: 'QueueSkip' },
  ])('pod event: $name → $want', ({ old, now, want }) => {
    expect(plugin.isSchedulableAfterPodChange(pod, old, now)).toBe(want);
  });

  it.each<{ name: string; old?: Node; now?: Node; want: string }>([
    { name: 'a node added with the affinity’s key', now: bareNode('n', { zone: 'z' }), want: 'Queue' },
    { name: 'a node added without it', now: bareNode('n', { other: 'z' }), want: 'QueueSkip' },
    {
      name: 'the affinity key’s value changed',
      old: bareNode('n', { zone: 'a' }),
      now: bareNode('n', { zone: 'b' }),
      want: 'Queue',
    },
    {
      name: 'the anti-affinity key’s value changed',
      old: bareNode('n', { host: 'a' }),
      now: bareNode('n', { host: 'b' }),
      want: 'Queue',
    },
    {
      name: 'any update of a node with a term’s key (as upstream)',
      old: bareNode('n', { zone: 'a', x: '1' }),
      now: bareNode('n', { zone: 'a', x: '2' }),
      want: 'Queue',
    },
    {
      name: 'a node update without any term’s key',
      old: bareNode('n', { x: '1' }),
      now: bareNode('n', { x: '2' }),
      want: 'QueueSkip',
    },
  ])('node event: $name → $want (the hint reads only the new node)', ({ now, want }) => {
    expect(plugin.isSchedulableAfterNodeChange(pod, now)).toBe(want);
  });
});

describe('InterPodAffinity scoring with namespace selectors', () => {
  it("matches a preferred term by the existing pods' namespace labels, reading each namespace once", () => {
    const lookups: string[] = [];
    const namespaceLabels = (ns: string) => {
      lookups.push(ns);
      return { team: ns === 'team-a' ? 'a' : 'b' };
    };
    const pods = [
      makePod('a', { labels: { security: 'S1' }, node: 'machine1', ns: 'team-a' }),
      makePod('b', { labels: { security: 'S1' }, node: 'machine2', ns: 'team-b' }),
      makePod('c', { labels: { security: 'S1' }, node: 'machine4', ns: 'team-a' }),
    ];
    const { framework, snapshot, newState } = makeCluster({
      nodes,
      pods,
      registry: { InterPodAffinity: interPodAffinityFactory({ namespaceLabels }) },
      preScore: ['InterPodAffinity'],
      score: [{ name: 'InterPodAffinity', weight: 1 }],
    });
    const pod = makePod('p', {
      affinity: {
        podAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: preferred(5, {
            ...term('security', ['S1'], 'region'),
            namespaceSelector: { matchLabels: { team: 'a' } },
          }),
        },
      },
    });
    const state = newState();
    framework.runPreScorePlugins(state, pod, snapshot.list());
    const out = framework.runScorePlugins(state, pod, snapshot.list());
    const scores = Object.fromEntries(out.scores.map((n) => [n.name, n.scores[0]?.score]));
    // team-a's pods are in China (machine1) and Europe (machine4); team-b's pod in India does not count
    expect(scores).toEqual({ machine1: 100, machine2: 0, machine3: 100, machine4: 100 });
    expect(lookups.filter((ns) => ns !== 'default').sort()).toEqual(['team-a', 'team-b']);
  });
});
