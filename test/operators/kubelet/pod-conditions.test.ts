// The kubelet's pod conditions: cases ported from status/generate_test.go (ContainersReady, Ready, Initialized).
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, PodCondition } from '../../../operators/api/core-v1.ts';
import {
  containersReadyCondition,
  podInitializedCondition,
  podReadyCondition,
} from '../../../operators/kubelet/pod-conditions.ts';
import { pod, running, succeeded, waiting } from './builders.ts';

const ready = (name: string): ContainerStatus => ({ ...running(name), ready: true });
const unready = (name: string): ContainerStatus => ({ ...running(name), ready: false });

describe('containersReadyCondition', () => {
  it.each<[string, string[], ContainerStatus[] | undefined, string, Partial<PodCondition>]>([
    ['no statuses', ['1234'], undefined, 'Running', { status: 'False', reason: 'UnknownContainerStatuses' }],
    ['all ready', ['1234', '5678'], [ready('1234'), ready('5678')], 'Running', { status: 'True' }],
    [
      'one unknown',
      ['1234', '5678'],
      [ready('1234')],
      'Running',
      { status: 'False', reason: 'ContainersNotReady', message: 'containers with unknown status: [5678]' },
    ],
    [
      'unready and unknown',
      ['1234', '5678', '9012'],
      [unready('1234')],
      'Running',
      {
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unknown status: [5678 9012], containers with unready status: [1234]',
      },
    ],
    [
      'succeeded pod',
      ['1234'],
      [{ ...succeeded('1234') }],
      'Succeeded',
      { status: 'False', reason: 'PodCompleted' },
    ],
  ])('%s', (_name, names, statuses, phase, expected) => {
    expect(containersReadyCondition(pod(names), statuses, phase)).toEqual({
      type: 'ContainersReady',
      ...expected,
    });
  });
});

describe('podReadyCondition', () => {
  it.each<[string, ContainerStatus[], PodCondition[], string[], Partial<PodCondition>]>([
    ['ready without gates', [ready('a')], [], [], { status: 'True' }],
    [
      'unready container',
      [unready('a')],
      [],
      [],
      { status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [a]' },
    ],
    [
      'missing gate',
      [ready('a')],
      [],
      ['example.com/gate'],
      {
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: 'corresponding condition of pod readiness gate ["example.com/gate"] does not exist.',
      },
    ],
    [
      'gate true',
      [ready('a')],
      [{ type: 'example.com/gate', status: 'True' }],
      ['example.com/gate'],
      { status: 'True' },
    ],
  ])('%s', (_name, statuses, conditions, gates, expected) => {
    const p = pod(['a']);
    if (gates.length > 0) p.spec.readinessGates = gates.map((conditionType) => ({ conditionType }));
    expect(podReadyCondition(p, conditions, statuses, 'Running')).toEqual({ type: 'Ready', ...expected });
  });
});

describe('podInitializedCondition', () => {
  it.each<[string, string[], ContainerStatus[], ContainerStatus[], string, Partial<PodCondition>]>([
    ['no init containers', [], [], [], 'Pending', { status: 'True' }],
    [
      'all init containers succeeded',
      ['i1', 'i2'],
      [succeeded('i1'), succeeded('i2')],
      [],
      'Pending',
      { status: 'True' },
    ],
    [
      'one incomplete',
      ['i1', 'i2'],
      [succeeded('i1'), running('i2')],
      [],
      'Pending',
      {
        status: 'False',
        reason: 'ContainersNotInitialized',
        message: 'containers with incomplete status: [i2]',
      },
    ],
    [
      'unknown and incomplete',
      ['i1', 'i2'],
      [waiting('i1')],
      [],
      'Pending',
      {
        status: 'False',
        reason: 'ContainersNotInitialized',
        message: 'containers with unknown status: [i2], containers with incomplete status: [i1]',
      },
    ],
    ['app container started before', ['i1'], [waiting('i1')], [running('a')], 'Running', { status: 'True' }],
    ['succeeded pod', ['i1'], [succeeded('i1')], [], 'Succeeded', { status: 'True', reason: 'PodCompleted' }],
  ])('%s', (_name, inits, initStatuses, appStatuses, phase, expected) => {
    const p = pod(['a'], { inits });
    expect(podInitializedCondition(p, initStatuses, [...initStatuses, ...appStatuses], phase)).toEqual({
      type: 'Initialized',
      ...expected,
    });
  });
});
