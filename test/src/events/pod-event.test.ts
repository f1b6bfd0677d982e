// podEvent: the core/v1 Event the kubelet and the scheduler write about a pod.
import { describe, expect, it } from 'vitest';
import { podEvent } from '../../../src/events/pod-event.ts';

const pod = {
  metadata: { name: 'web', namespace: 'prod', uid: 'u1', resourceVersion: '7' },
  spec: { containers: [] },
};

describe('podEvent', () => {
  it("is about the pod, with the reporter's names and second-precision times", () => {
    const e = podEvent(
      pod,
      {
        type: 'Warning',
        reason: 'BackOff',
        message: 'back-off',
        component: 'kubelet',
        instance: 'n1',
        host: 'n1',
        fieldPath: 'spec.containers{c}',
      },
      Date.parse('2026-11-24T12:00:00.750Z'),
    );
    expect(e).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { namespace: 'prod' },
      involvedObject: {
        kind: 'Pod',
        namespace: 'prod',
        name: 'web',
        uid: 'u1',
        fieldPath: 'spec.containers{c}',
      },
      type: 'Warning',
      reason: 'BackOff',
      count: 1,
      firstTimestamp: '2026-11-24T12:00:00Z',
      lastTimestamp: '2026-11-24T12:00:00Z',
      source: { component: 'kubelet', host: 'n1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'n1',
    });
    expect(e.involvedObject as object).not.toHaveProperty('resourceVersion');
    expect(e.metadata?.name).toMatch(/^web\.[0-9a-f]+$/);
  });

  it('carries the scheduler action and the pod resourceVersion when asked; names never repeat', () => {
    const now = Date.now();
    const a = podEvent(
      pod,
      {
        type: 'Normal',
        reason: 'Scheduled',
        message: 'm',
        component: 'default-scheduler',
        action: 'Binding',
        withResourceVersion: true,
      },
      now,
    );
    const b = podEvent(
      pod,
      { type: 'Normal', reason: 'Scheduled', message: 'm', component: 'default-scheduler' },
      now,
    );
    expect(a).toMatchObject({
      action: 'Binding',
      involvedObject: { resourceVersion: '7' },
      reportingInstance: 'default-scheduler',
      source: { component: 'default-scheduler' },
    });
    expect(a.metadata?.name).not.toBe(b.metadata?.name);
  });
});
