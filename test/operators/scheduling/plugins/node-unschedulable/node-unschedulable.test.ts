// NodeUnschedulable tests ported in our own words from node_unschedulable_test.go.
import { describe, expect, it } from 'vitest';
import type { Node, Toleration } from '../../../../../operators/api/core-v1.ts';
import {
  ERR_REASON_UNSCHEDULABLE,
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodTolerationChange,
  NodeUnschedulable,
} from '../../../../../operators/scheduling/plugins/node-unschedulable/node-unschedulable.ts';
import { makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

const cordoned = (unschedulable: boolean) => makeNode('n', { spec: { unschedulable } });

describe('NodeUnschedulable', () => {
  it.each<[string, boolean, Toleration[], boolean]>([
    ['a schedulable node', false, [], true],
    ['an unschedulable node', true, [], false],
    [
      'an unschedulable node, the pod tolerates the unschedulable taint',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      true,
    ],
    ['an Exists toleration of every taint', true, [{ operator: 'Exists' }], true],
    [
      'a toleration with another effect',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoExecute' }],
      false,
    ],
  ])('%s', (_name, unschedulable, tolerations, fits) => {
    const s = new NodeUnschedulable().filter(
      newState(),
      makePod('p', { spec: { tolerations } }),
      nodeInfo(cordoned(unschedulable)),
    );
    if (fits) expect(s).toBeUndefined();
    else expect(s).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_UNSCHEDULABLE] });
  });

  it.each<[string, Node | undefined, Node, string]>([
    ['a schedulable node added', undefined, cordoned(false), 'Queue'],
    ['an unschedulable node added', undefined, cordoned(true), 'QueueSkip'],
    ['a node uncordoned', cordoned(true), cordoned(false), 'Queue'],
    ['a node cordoned', cordoned(false), cordoned(true), 'QueueSkip'],
    ['a schedulable node updated', cordoned(false), cordoned(false), 'QueueSkip'],
  ])('hint: %s', (_name, oldObj, newObj, want) => {
    expect(isSchedulableAfterNodeChange(makePod('p'), oldObj, newObj)).toBe(want);
  });

  it('queues when the pod itself gains the toleration', () => {
    const pod = makePod('p');
    const tolerant = makePod('p', {
      spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] },
    });
    expect(isSchedulableAfterPodTolerationChange(pod, pod, tolerant)).toBe('Queue');
    expect(isSchedulableAfterPodTolerationChange(pod, pod, makePod('p'))).toBe('QueueSkip');
    expect(
      isSchedulableAfterPodTolerationChange(pod, undefined, {
        ...tolerant,
        metadata: { ...tolerant.metadata, uid: 'other' },
      }),
    ).toBe('QueueSkip');
  });
});
