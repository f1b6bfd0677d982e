// PodTopologySpreadArgs validation and defaults, and the plugin's queueing hints.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../../../operators/errors.ts';
import { ActionType } from '../../../../../operators/scheduling/framework/interface.ts';
import {
  newPodTopologySpread,
  podTopologySpreadFactory,
} from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import {
  defaultPodTopologySpreadArgs,
  type PodTopologySpreadArgs,
  validatePodTopologySpreadArgs,
} from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread-args.ts';
import { makeCluster, makeNode, makePod } from '../default-preemption/cluster.ts';

describe('validatePodTopologySpreadArgs', () => {
  it.each<{ name: string; args: PodTopologySpreadArgs; field?: string }>([
    { name: 'empty args (System defaulting)', args: {} },
    {
      name: 'List with valid constraints',
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' },
          { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
        ],
      },
    },
    {
      name: 'maxSkew less than zero',
      args: {
        defaultingType: 'List',
        defaultConstraints: [{ maxSkew: -1, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }],
      },
      field: 'profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew',
    },
    {
      name: 'empty topology key',
      args: {
        defaultingType: 'List',
        defaultConstraints: [{ maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'DoNotSchedule' }],
      },
      field: 'profiles[0].pluginConfig[0].args.defaultConstraints[0].topologyKey',
    },
    {
      name: 'whenUnsatisfiable is neither DoNotSchedule nor ScheduleAnyway',
      args: {
        defaultingType: 'List',
        defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'Sometimes' }],
      },
      field: 'profiles[0].pluginConfig[0].args.defaultConstraints[0].whenUnsatisfiable',
    },
    {
      name: 'duplicated constraints',
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
        ],
      },
      field: 'profiles[0].pluginConfig[0].args.defaultConstraints[1].{topologyKey, whenUnsatisfiable}',
    },
    {
      name: 'a constraint with a label selector',
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'node',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { a: 'b' } },
          },
        ],
      },
      field: 'profiles[0].pluginConfig[0].args.defaultConstraints[0].labelSelector',
    },
    {
      name: 'System defaulting with constraints',
      args: {
        defaultingType: 'System',
        defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }],
      },
      field: 'profiles[0].pluginConfig[0].args.defaultConstraints',
    },
    {
      name: 'an unknown defaulting type',
      args: { defaultingType: 'Other' as 'List' },
      field: 'profiles[0].pluginConfig[0].args.defaultingType',
    },
  ])('$name', ({ args, field }) => {
    const run = () => validatePodTopologySpreadArgs(args, 'profiles[0].pluginConfig[0].args');
    if (!field) {
      expect(run).not.toThrow();
      return;
    }
    expect(run).toThrow(InvalidConfigError);
    try {
      run();
    } catch (e) {
      expect((e as InvalidConfigError).field).toBe(field);
    }
  });

  it('defaults to System with no constraints', () => {
    expect(defaultPodTopologySpreadArgs()).toEqual({ defaultingType: 'System', defaultConstraints: [] });
  });

  it('the plugin factory rejects invalid args', () => {
    expect(() =>
      makeCluster({
        nodes: [],
        registry: { PodTopologySpread: podTopologySpreadFactory() },
        filter: ['PodTopologySpread'],
        pluginArgs: { PodTopologySpread: { defaultingType: 'Nope' } },
      }),
    ).toThrow(/defaultingType/);
  });
});

describe('PodTopologySpread queueing hints', () => {
  const { framework } = makeCluster({ nodes: [], registry: {} });
  const plugin = newPodTopologySpread({}, framework);
  const pod = makePod('p', {
    labels: { foo: '' },
    spread: [
      {
        maxSkew: 1,
        topologyKey: 'zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { foo: '' } },
        nodeTaintsPolicy: 'Honor',
      },
    ],
  });
  const assigned = (labels: Record<string, string>, o: Parameters<typeof makePod>[1] = {}) =>
    makePod('q', { labels, node: 'n1', ...o });
  const zoneNode = (zone: string | undefined, taints?: Node['spec']) =>
    ({ ...makeNode('n1', zone ? { zone } : {}), spec: taints ?? {} }) as Node;

  it('registers pod add/label/toleration-update/delete and node add/delete/label/taint events', () => {
    const events = plugin.eventsToRegister().map((e) => e.event);
    expect(events).toEqual([
      {
        resource: 'Pod',
        action:
          ActionType.Add | ActionType.UpdatePodLabel | ActionType.UpdatePodToleration | ActionType.Delete,
      },
      {
        resource: 'Node',
        action: ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
      },
    ]);
  });

  it.each<{ name: string; old?: Pod; now?: Pod; want: string }>([
    { name: 'an added matching assigned pod', now: assigned({ foo: '' }), want: 'Queue' },
    { name: 'an added non-matching pod', now: assigned({ bar: '' }), want: 'QueueSkip' },
    { name: 'an added unassigned pod', now: makePod('q', { labels: { foo: '' } }), want: 'QueueSkip' },
    { name: 'a pod in another namespace', now: assigned({ foo: '' }, { ns: 'other' }), want: 'QueueSkip' },
    { name: 'a deleted matching pod', old: assigned({ foo: '' }), want: 'Queue' },
    {
      name: 'a label change that flips the match',
      old: assigned({ foo: '' }),
      now: assigned({ bar: '' }),
      want: 'Queue',
    },
    {
      name: 'a label change that does not matter',
      old: assigned({ foo: '', a: '1' }),
      now: assigned({ foo: '', a: '2' }),
      want: 'QueueSkip',
    },
    {
      name: 'an update that leaves the labels alone',
      old: assigned({ foo: '' }),
      now: assigned({ foo: '' }, { deleting: true }),
      want: 'QueueSkip',
    },
    {
      name: 'the pod itself gains a toleration (nodeTaintsPolicy Honor)',
      old: makePod('p', { labels: { foo: '' } }),
      now: makePod('p', { labels: { foo: '' }, tolerations: [{ key: 'k', operator: 'Exists' }] }),
      want: 'Queue',
    },
  ])('pod event: $name → $want', ({ old, now, want }) => {
    expect(plugin.isSchedulableAfterPodChange(pod, old, now)).toBe(want);
  });

  it.each<{ name: string; old?: Node; now?: Node; want: string }>([
    { name: 'a node with the zone label added', now: zoneNode('z1'), want: 'Queue' },
    { name: 'a node without it added', now: zoneNode(undefined), want: 'QueueSkip' },
    { name: 'a node with the label deleted', old: zoneNode('z1'), want: 'Queue' },
    { name: 'the zone value changed', old: zoneNode('z1'), now: zoneNode('z2'), want: 'Queue' },
    {
      name: 'an unrelated label changed',
      old: zoneNode('z1'),
      now: { ...zoneNode('z1'), metadata: { name: 'n1', labels: { zone: 'z1', x: 'y' } } },
      want: 'QueueSkip',
    },
    {
      name: 'a taint removed',
      old: zoneNode('z1', { taints: [{ key: 'k', effect: 'NoSchedule' }] }),
      now: zoneNode('z1'),
      want: 'Queue',
    },
    { name: 'the zone label removed', old: zoneNode('z1'), now: zoneNode(undefined), want: 'Queue' },
    {
      name: 'a taint changed on a node without the key',
      old: zoneNode(undefined, { taints: [{ key: 'k', effect: 'NoSchedule' }] }),
      now: zoneNode(undefined),
      want: 'QueueSkip',
    },
  ])('node event: $name → $want', ({ old, now, want }) => {
    expect(plugin.isSchedulableAfterNodeChange(pod, old, now)).toBe(want);
  });
});
