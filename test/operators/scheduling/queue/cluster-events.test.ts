// Tables for cluster event matching and labels, after kube-scheduler's TestMatchClusterEvents and event labels.
import { describe, expect, it } from 'vitest';
import {
  ActionType,
  type ClusterEvent,
  FORCE_ACTIVATE,
  UNSCHEDULABLE_TIMEOUT,
} from '../../../../operators/scheduling/framework/interface.ts';
import {
  clusterEventIsWildCard,
  clusterEventLabel,
  EVENT_ASSIGNED_POD_DELETE,
  EVENT_NODE_ADD,
  EVENT_UNSCHEDULED_POD_ADD,
  matchAnyClusterEvent,
  matchClusterEvents,
} from '../../../../operators/scheduling/queue/cluster-events.ts';

const ev = (resource: ClusterEvent['resource'], action: number): ClusterEvent => ({ resource, action });

describe('matchClusterEvents', () => {
  it.each([
    {
      name: 'same resource and action',
      reg: ev('Node', ActionType.Add),
      inc: ev('Node', ActionType.Add),
      want: true,
    },
    {
      name: 'different action',
      reg: ev('Node', ActionType.Add),
      inc: ev('Node', ActionType.Delete),
      want: false,
    },
    {
      name: 'different resource',
      reg: ev('Node', ActionType.Add),
      inc: ev('PersistentVolume', ActionType.Add),
      want: false,
    },
    {
      name: 'registered All matches an add',
      reg: ev('Node', ActionType.All),
      inc: ev('Node', ActionType.Add),
      want: true,
    },
    {
      name: 'registered Update matches a specific label update',
      reg: ev('Node', ActionType.Update),
      inc: ev('Node', ActionType.UpdateNodeLabel),
      want: true,
    },
    {
      name: 'registered label update does not match a generic update',
      reg: ev('Node', ActionType.UpdateNodeLabel),
      inc: ev('Node', ActionType.Update),
      want: false,
    },
    {
      name: 'registered label update does not match a taint update',
      reg: ev('Node', ActionType.UpdateNodeLabel),
      inc: ev('Node', ActionType.UpdateNodeTaint),
      want: false,
    },
    {
      name: 'registered Pod matches an assigned pod event',
      reg: ev('Pod', ActionType.Delete),
      inc: EVENT_ASSIGNED_POD_DELETE,
      want: true,
    },
    {
      name: 'registered Pod matches an unscheduled pod event',
      reg: ev('Pod', ActionType.Add),
      inc: EVENT_UNSCHEDULED_POD_ADD,
      want: true,
    },
    {
      name: 'registered resource * matches any resource',
      reg: ev('*', ActionType.Add),
      inc: EVENT_NODE_ADD,
      want: true,
    },
    {
      name: 'registered wildcard matches everything',
      reg: ev('*', ActionType.All),
      inc: ev('PersistentVolume', ActionType.UpdateNodeLabel),
      want: true,
    },
    {
      name: 'incoming wildcard matches only a registered wildcard',
      reg: ev('Node', ActionType.All),
      inc: UNSCHEDULABLE_TIMEOUT,
      want: false,
    },
    {
      name: 'incoming wildcard vs registered wildcard',
      reg: ev('*', ActionType.All),
      inc: FORCE_ACTIVATE,
      want: true,
    },
  ])('$name', ({ reg, inc, want }) => {
    expect(matchClusterEvents(reg, inc)).toBe(want);
  });

  it('matchAnyClusterEvent looks through the registered list', () => {
    expect(
      matchAnyClusterEvent(EVENT_NODE_ADD, [ev('Pod', ActionType.All), ev('Node', ActionType.Add)]),
    ).toBe(true);
    expect(matchAnyClusterEvent(EVENT_NODE_ADD, [])).toBe(false);
  });
});

describe('clusterEventLabel and clusterEventIsWildCard', () => {
  it.each([
    { event: EVENT_NODE_ADD, label: 'NodeAdd' },
    { event: EVENT_UNSCHEDULED_POD_ADD, label: 'UnschedulablePodAdd' },
    { event: EVENT_ASSIGNED_POD_DELETE, label: 'AssignedPodDelete' },
    { event: ev('Node', ActionType.UpdateNodeLabel), label: 'NodeUpdateNodeLabel' },
    { event: ev('Pod', ActionType.Update), label: 'PodUpdate' },
    { event: ev('Node', ActionType.Add | ActionType.UpdateNodeTaint), label: 'NodeAdd|UpdateNodeTaint' },
    { event: UNSCHEDULABLE_TIMEOUT, label: 'UnschedulableTimeout' },
    { event: FORCE_ACTIVATE, label: 'ForceActivate' },
  ])('$label', ({ event, label }) => {
    expect(clusterEventLabel(event)).toBe(label);
  });

  it('only resource * with action All is a wildcard', () => {
    expect(clusterEventIsWildCard(UNSCHEDULABLE_TIMEOUT)).toBe(true);
    expect(clusterEventIsWildCard(ev('*', ActionType.Add))).toBe(false);
    expect(clusterEventIsWildCard(ev('Node', ActionType.All))).toBe(false);
  });
});
