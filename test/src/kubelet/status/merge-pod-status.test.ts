// Tests of mergePodStatus and the generated Ready conditions: cases ported from status_manager_test.go TestMergePodStatus and generate_test.go.
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../../../../operators/api/core-v1.ts';
import { mergePodStatus } from '../../../../src/kubelet/status/merge-pod-status.ts';
import {
  generateContainersReadyCondition,
  generatePodReadyCondition,
} from '../../../../src/kubelet/status/pod-conditions.ts';

const NOW = '2026-11-24T10:00:00Z';
const T0 = '2026-11-24T09:00:00Z';

const cond = (
  type: string,
  status: PodCondition['status'],
  extra: Partial<PodCondition> = {},
): PodCondition => ({
  type,
  status,
  lastTransitionTime: T0,
  ...extra,
});

const running: PodStatus = {
  phase: 'Running',
  conditions: [cond('Ready', 'True'), cond('ContainersReady', 'True'), cond('PodScheduled', 'True')],
};

describe('mergePodStatus (TestMergePodStatus)', () => {
  it.each<[string, PodStatus, PodStatus, boolean, PodStatus]>([
    ['no change', running, running, false, running],
    [
      'a kubelet condition comes from the kubelet',
      { phase: 'Running', conditions: [cond('Ready', 'False')] },
      { phase: 'Running', conditions: [cond('Ready', 'True')] },
      false,
      { phase: 'Running', conditions: [cond('Ready', 'True')] },
    ],
    [
      "another writer's condition is kept, before the kubelet's",
      { phase: 'Running', conditions: [cond('example.com/feature', 'True'), cond('Ready', 'False')] },
      { phase: 'Running', conditions: [cond('Ready', 'True')] },
      false,
      { phase: 'Running', conditions: [cond('example.com/feature', 'True'), cond('Ready', 'True')] },
    ],
    [
      'a non-kubelet condition the kubelet sends is dropped',
      { phase: 'Running', conditions: [] },
      { phase: 'Running', conditions: [cond('example.com/feature', 'True'), cond('Ready', 'True')] },
      false,
      { phase: 'Running', conditions: [cond('Ready', 'True')] },
    ],
    [
      'a move to a terminal phase waits while containers could run',
      { phase: 'Running', conditions: [] },
      { phase: 'Failed', reason: 'Evicted', message: 'out of memory', conditions: [] },
      true,
      { phase: 'Running', conditions: [] },
    ],
    [
      'a terminal phase turns Ready and ContainersReady False',
      running,
      { ...running, phase: 'Succeeded' },
      false,
      {
        phase: 'Succeeded',
        conditions: [
          { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: NOW },
          { type: 'ContainersReady', status: 'False', reason: 'PodCompleted', lastTransitionTime: NOW },
          cond('PodScheduled', 'True'),
        ],
      },
    ],
    [
      'DisruptionTarget goes out with the move to a terminal phase',
      { phase: 'Running', conditions: [] },
      { phase: 'Failed', conditions: [cond('DisruptionTarget', 'True', { reason: 'TerminationByKubelet' })] },
      false,
      {
        phase: 'Failed',
        conditions: [
          cond('DisruptionTarget', 'True', { reason: 'TerminationByKubelet', lastTransitionTime: NOW }),
        ],
      },
    ],
    [
      'DisruptionTarget waits while the move is delayed',
      { phase: 'Running', conditions: [] },
      { phase: 'Failed', conditions: [cond('DisruptionTarget', 'True')] },
      true,
      { phase: 'Running', conditions: [] },
    ],
    [
      'a terminal phase on the server is never replaced by a non-terminal one',
      { phase: 'Succeeded', conditions: [] },
      { phase: 'Running', conditions: [] },
      false,
      { phase: 'Succeeded', conditions: [] },
    ],
  ])('%s', (_name, server, kubelet, delay, expected) => {
    expect(mergePodStatus(server, kubelet, delay, NOW)).toEqual(expected);
  });
});

function cs(name: string, ready: boolean): ContainerStatus {
  return { name, ready, restartCount: 0, image: '', imageID: '' };
}

const pod = (containers: string[], extra: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: containers.map((name) => ({ name })), ...extra },
});

describe('generateContainersReadyCondition (generate_test.go)', () => {
  it.each<[string, Pod, ContainerStatus[] | undefined, string, PodCondition]>([
    [
      'no statuses',
      pod(['a']),
      undefined,
      'Running',
      { type: 'ContainersReady', status: 'False', reason: 'UnknownContainerStatuses' },
    ],
    [
      'all ready',
      pod(['a', 'b']),
      [cs('a', true), cs('b', true)],
      'Running',
      { type: 'ContainersReady', status: 'True' },
    ],
    [
      'one unknown, one unready',
      pod(['a', 'b', 'c']),
      [cs('a', true), cs('b', false)],
      'Running',
      {
        type: 'ContainersReady',
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unknown status: [c], containers with unready status: [b]',
      },
    ],
    [
      'succeeded',
      pod(['a']),
      [cs('a', false)],
      'Succeeded',
      { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' },
    ],
    [
      'failed',
      pod(['a']),
      [cs('a', true)],
      'Failed',
      { type: 'ContainersReady', status: 'False', reason: 'PodFailed' },
    ],
    [
      'an unready sidecar counts',
      pod(['a'], { initContainers: [{ name: 's', restartPolicy: 'Always' }, { name: 'i' }] }),
      [cs('a', true), cs('s', false)],
      'Running',
      {
        type: 'ContainersReady',
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unready status: [s]',
      },
    ],
  ])('%s', (_name, p, statuses, phase, expected) => {
    expect(generateContainersReadyCondition(p, statuses, phase)).toEqual(expected);
  });
});

describe('generatePodReadyCondition (generate_test.go)', () => {
  const gated = pod(['a'], { readinessGates: [{ conditionType: 'example.com/gate' }] });
  it.each<[string, Pod, PodCondition[], PodCondition]>([
    ['no gates, containers ready', pod(['a']), [], { type: 'Ready', status: 'True' }],
    [
      'a missing gate condition',
      gated,
      [],
      {
        type: 'Ready',
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: 'corresponding condition of pod readiness gate "example.com/gate" does not exist.',
      },
    ],
    [
      'a gate that is False',
      gated,
      [{ type: 'example.com/gate', status: 'False' }],
      {
        type: 'Ready',
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: 'the status of pod readiness gate "example.com/gate" is not "True", but False',
      },
    ],
    [
      'a gate that is True',
      gated,
      [{ type: 'example.com/gate', status: 'True' }],
      { type: 'Ready', status: 'True' },
    ],
  ])('%s', (_name, p, conditions, expected) => {
    expect(generatePodReadyCondition(p, conditions, [cs('a', true)], 'Running')).toEqual(expected);
  });

  it('copies the ContainersReady verdict when containers are not ready', () => {
    expect(generatePodReadyCondition(pod(['a']), [], [cs('a', false)], 'Running')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [a]',
    });
  });
});
