// Test builders for pod-config tests: valid pods and a comparison that ignores the kubelet's local annotations.
import { expect } from 'vitest';
import { podsDifferSemantically } from '../../../operators/pod-config/pod-storage.ts';
import type { Pod, PodOperation, PodUpdate } from '../../../operators/pod-config/types.ts';

/** A valid pod whose UID is name + namespace, with one container. */
export function validPod(name: string, namespace: string): Pod {
  return {
    metadata: { uid: name + namespace, name, namespace },
    spec: {
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      containers: [
        { name: 'ctr', image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' },
      ],
    },
  };
}

/** A PodUpdate literal. */
export function podUpdate(op: PodOperation, source: string, ...pods: Pod[]): PodUpdate {
  return { op, source, pods };
}

const byNamespaceThenName = (a: Pod, b: Pod) =>
  `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(
    `${b.metadata?.namespace}/${b.metadata?.name}`,
  );

/**
 * Asserts the updates match: same op and source, and pods (sorted, as the Go tests sort them) that
 * do not differ semantically and have equal status.
 */
export function expectPodUpdates(actual: PodUpdate[], expected: PodUpdate[]): void {
  expect(actual.map((u) => [u.op, u.source, u.pods.length])).toEqual(
    expected.map((u) => [u.op, u.source, u.pods.length]),
  );
  actual.forEach((u, i) => {
    const got = [...u.pods].sort(byNamespaceThenName);
    const want = [...expected[i]!.pods].sort(byNamespaceThenName);
    got.forEach((pod, j) => {
      const w = want[j]!;
      expect(pod.metadata?.uid).toBe(w.metadata?.uid);
      expect(podsDifferSemantically(pod, w), `pod ${j} of update ${i} differs`).toBe(false);
      expect(pod.status).toEqual(w.status);
    });
  });
}
