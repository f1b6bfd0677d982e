// Tests of status normalisation and the kubelet's equality (status_manager_test.go TestStatusEquality, TestStatusNormalizationEnforcesMaxBytes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, PodStatus } from '../../../../operators/api/core-v1.ts';
import {
  isPodStatusByKubeletEqual,
  MAX_POD_TERMINATION_MESSAGE_LENGTH,
  normalizePodStatus,
  rfc3339,
} from '../../../../src/kubelet/status/normalize-pod-status.ts';

const pod = (n: number): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: Array.from({ length: n }, (_, i) => ({ name: `c${i}` })) },
});

function cs(name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return { name, ready: false, restartCount: 0, image: '', imageID: '', ...extra };
}

describe('normalizePodStatus', () => {
  it('container status order does not matter (TestStatusEquality)', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(['a', 'b', 'c', 'd', 'e'], { minLength: 5, maxLength: 5 }), (order) => {
        const sorted: PodStatus = { containerStatuses: ['a', 'b', 'c', 'd', 'e'].map((n) => cs(n)) };
        const shuffled: PodStatus = { containerStatuses: order.map((n) => cs(n)) };
        const p = pod(0);
        expect(
          isPodStatusByKubeletEqual(normalizePodStatus(p, sorted), normalizePodStatus(p, shuffled)),
        ).toBe(true);
      }),
    );
  });

  it('cuts termination messages to their share of 12 KiB (TestStatusNormalizationEnforcesMaxBytes)', () => {
    const long = 'x'.repeat(MAX_POD_TERMINATION_MESSAGE_LENGTH);
    const status: PodStatus = {
      containerStatuses: [0, 1, 2, 3].map((i) =>
        cs(`c${i}`, {
          state: { terminated: { exitCode: 1, message: long } },
          lastState: { terminated: { exitCode: 1, message: long } },
        }),
      ),
    };
    const out = normalizePodStatus(pod(4), status);
    for (const c of out.containerStatuses ?? []) {
      expect(c.state?.terminated?.message?.length).toBe(MAX_POD_TERMINATION_MESSAGE_LENGTH / 4);
      expect(c.lastState?.terminated?.message?.length).toBe(MAX_POD_TERMINATION_MESSAGE_LENGTH / 4);
    }
    // the input is left alone
    expect(status.containerStatuses?.[0]?.state?.terminated?.message?.length).toBe(
      MAX_POD_TERMINATION_MESSAGE_LENGTH,
    );
  });

  it('truncates times to seconds and orders init container statuses as the spec does', () => {
    const p: Pod = {
      metadata: { name: 'p' },
      spec: { containers: [], initContainers: [{ name: 'z' }, { name: 'a' }] },
    };
    const out = normalizePodStatus(p, {
      startTime: '2026-11-24T10:00:00.123456Z',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-24T10:00:01.9Z' }],
      initContainerStatuses: [
        cs('a'),
        cs('z', { state: { running: { startedAt: '2026-11-24T10:00:02.5Z' } } }),
      ],
    });
    expect(out.startTime).toBe('2026-11-24T10:00:00Z');
    expect(out.conditions?.[0]?.lastTransitionTime).toBe('2026-11-24T10:00:01Z');
    expect(out.initContainerStatuses?.map((c) => c.name)).toEqual(['z', 'a']);
    expect(out.initContainerStatuses?.[0]?.state?.running?.startedAt).toBe('2026-11-24T10:00:02Z');
    expect(rfc3339(Date.parse('2026-11-24T10:00:00.999Z'))).toBe('2026-11-24T10:00:00Z');
  });
});

describe('isPodStatusByKubeletEqual', () => {
  it.each<[string, PodStatus, PodStatus, boolean]>([
    [
      'only a transition time differs',
      { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 'a' }] },
      { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 'b' }] },
      true,
    ],
    [
      'a kubelet condition changed status',
      { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
      false,
    ],
    [
      'a kubelet condition changed message',
      { conditions: [{ type: 'Ready', status: 'False', message: 'x' }] },
      { conditions: [{ type: 'Ready', status: 'False', message: 'y' }] },
      false,
    ],
    ['the phase changed', { phase: 'Pending' }, { phase: 'Running' }, false],
    [
      "another writer's condition is not the kubelet's business",
      { phase: 'Running', conditions: [{ type: 'example.com/x', status: 'True' }] },
      { phase: 'Running', conditions: [{ type: 'example.com/x', status: 'False' }] },
      true,
    ],
  ])('%s → %s', (_name, a, b, equal) => {
    expect(isPodStatusByKubeletEqual(a, b)).toBe(equal);
  });
});
