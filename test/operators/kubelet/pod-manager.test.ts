// PodManager: desired pods by UID and full name, static pods paired with their mirror pods, orphaned mirrors.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { isMirrorPodOf, PodManager } from '../../../operators/kubelet/pod-manager.ts';

const staticPod = (uid: string, name = 'web'): Pod => ({
  metadata: {
    uid,
    name,
    namespace: 'ns',
    annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': uid },
  },
  spec: { containers: [] },
});
const mirrorOf = (pod: Pod, uid = 'm1'): Pod => ({
  metadata: {
    uid,
    name: pod.metadata.name,
    namespace: 'ns',
    annotations: {
      'kubernetes.io/config.mirror': pod.metadata.annotations?.['kubernetes.io/config.hash'] ?? '',
    },
  },
  spec: { containers: [] },
});
const apiPod = (uid: string, name: string): Pod => ({
  metadata: { uid, name, namespace: 'ns' },
  spec: { containers: [] },
});

describe('PodManager', () => {
  it('keeps mirror pods out of the desired pods and pairs them by full name', () => {
    const m = new PodManager();
    const s = staticPod('s1');
    const mirror = mirrorOf(s);
    m.updatePod(s);
    m.updatePod(mirror);
    m.updatePod(apiPod('a1', 'api'));
    expect(m.getPods().map((p) => p.metadata.uid)).toEqual(['s1', 'a1']);
    expect(m.getMirrorPodByPod(s)).toBe(mirror);
    expect(m.getPodAndMirrorPod(mirror)).toEqual({ pod: s, mirror, wasMirror: true });
    expect(m.getPodAndMirrorPod(s)).toEqual({ pod: s, mirror, wasMirror: false });
    expect(m.getOrphanedMirrorPods()).toEqual([]);
  });

  it('reports a mirror pod whose static pod is gone as orphaned', () => {
    const m = new PodManager();
    const s = staticPod('s1');
    m.updatePod(s);
    m.updatePod(mirrorOf(s));
    m.removePod(s);
    expect(m.getOrphanedMirrorPods().map((p) => p.metadata.uid)).toEqual(['m1']);
    expect(m.getPodByUid('s1')).toBeUndefined();
  });

  it('removing an older pod of a full name keeps the newer one', () => {
    const m = new PodManager();
    m.updatePod(apiPod('old', 'x'));
    m.updatePod(apiPod('new', 'x'));
    m.removePod(apiPod('old', 'x'));
    expect(m.getPodByFullName('x_ns')?.metadata.uid).toBe('new');
  });

  it.each([
    ['same name and hash', mirrorOf(staticPod('s1')), true],
    ['another hash', mirrorOf(staticPod('s2')), false],
    [
      'another name',
      { ...mirrorOf(staticPod('s1')), metadata: { ...mirrorOf(staticPod('s1')).metadata, name: 'other' } },
      false,
    ],
    ['no mirror', undefined, false],
  ])('isMirrorPodOf: %s', (_name, mirror, expected) => {
    expect(isMirrorPodOf(mirror as Pod | undefined, staticPod('s1'))).toBe(expected);
  });
});
