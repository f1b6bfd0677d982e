// Probes and the status manager together, as the kubelet wires them: readiness results drive Ready and ContainersReady (TestUpdateReadiness).
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod, PodStatus } from '../../../../operators/api/core-v1.ts';
import type { ProbeResult } from '../../../../operators/kubelet/probe-worker-state.ts';
import { proberManager } from '../../../../src/kubelet/prober/prober-manager.ts';
import {
  generateContainersReadyCondition,
  generatePodReadyCondition,
} from '../../../../src/kubelet/status/pod-conditions.ts';
import { statusManager } from '../../../../src/kubelet/status/status-manager.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { FakePodApi } from '../status/fake-pod-api.ts';

describe('readiness probes into pod status', () => {
  it('Ready follows the readiness probe, through the status manager, to the API server', () => {
    const clock = new VirtualClock();
    clock.advance(Date.parse('2026-11-24T10:00:00Z'));
    const api = new FakePodApi();
    const pod: Pod = {
      metadata: { uid: 'u', name: 'web', namespace: 'ns' },
      spec: { containers: [{ name: 'c', readinessProbe: { periodSeconds: 1, failureThreshold: 1 } }] },
    };
    api.put(pod);
    const status = statusManager({ client: api.client, scheduler: clock.scheduler });
    let answer: ProbeResult = 'Success';
    const probes = proberManager({
      getPodStatus: (uid) => status.getPodStatus(uid),
      prober: () => of(answer),
      scheduler: clock.scheduler,
    });
    // the kubelet's sync loop: readiness results go to the status manager
    const wiring = probes.results$.subscribe((u) => {
      if (u.probeType === 'readiness')
        status.setContainerReadiness(u.podUid, u.containerId, u.result === 'Success');
    });
    const sync = status.run().subscribe();
    try {
      // the pod worker's first status: the container running, its readiness from the prober manager
      const first: PodStatus = {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'c',
            ready: false,
            restartCount: 0,
            image: '',
            imageID: '',
            containerID: 'process://c',
            state: { running: { startedAt: '2026-11-24T10:00:00Z' } },
          },
        ],
      };
      probes.updatePodStatus(pod, first);
      first.conditions = [
        generateContainersReadyCondition(pod, first.containerStatuses, first.phase),
        generatePodReadyCondition(pod, [], first.containerStatuses, first.phase),
      ];
      status.setPodStatus(pod, first);
      probes.addPod(pod);
      clock.advance(1000);
      const ready = () => api.pods.get('ns/web')?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
      expect(ready()).toBe('True');
      answer = 'Failure';
      clock.advance(1000);
      expect(ready()).toBe('False');
      expect(api.pods.get('ns/web')?.status?.containerStatuses?.[0]?.ready).toBe(false);
      answer = 'Success';
      clock.advance(1000);
      expect(ready()).toBe('True');
    } finally {
      wiring.unsubscribe();
      sync.unsubscribe();
      probes.stop();
    }
  });
});
