// kubeletPodConfig: which sources the settings configure, custom sources, and readiness across them.
import { NEVER, of, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { sourcesReady } from '../../../operators/pod-config/sources-ready.ts';
import type { Pod, PodUpdate } from '../../../operators/pod-config/types.ts';
import { kubeletPodConfig } from '../../../src/kubelet/kubelet-pod-config.ts';

const pod = (name: string): Pod => ({ metadata: { name, namespace: 'ns', uid: name }, spec: {} });

describe('kubeletPodConfig', () => {
  it('names the sources its settings configure, in the kubelet order, then custom ones', () => {
    const { sources } = kubeletPodConfig({
      nodeName: 'n',
      podManifestPath: '/etc/kubernetes/manifests',
      manifestUrl: 'http://x/',
      apiserver: { listerWatcher: { list: () => NEVER, watch: () => NEVER }, listWatch: () => NEVER },
      custom: { mine: NEVER },
    });
    expect(sources).toEqual(['file', 'http', 'api', 'mine']);
  });

  it('merges a custom source under its own name', async () => {
    const { updates$, sources } = kubeletPodConfig({
      nodeName: 'n',
      custom: { mine: of([pod('a')], [pod('b')]) },
    });
    const seen: PodUpdate[] = [];
    await new Promise<void>((resolve) =>
      updates$.subscribe({ next: (u) => seen.push(u), complete: resolve }),
    );
    expect(sources).toEqual(['mine']);
    expect(seen.map((u) => `${u.op} ${u.source} ${u.pods.map((p) => p.metadata?.name)}`)).toEqual([
      'ADD mine a',
      'REMOVE mine a',
      'ADD mine b',
    ]);
  });

  it('signals readiness once every configured source has delivered its first set', () => {
    const one = new Subject<Pod[]>();
    const two = new Subject<Pod[]>();
    const { updates$, sources } = kubeletPodConfig({ nodeName: 'n', custom: { one, two } });
    const ready: boolean[] = [];
    updates$.pipe(sourcesReady(sources), toArray()).subscribe((v) => ready.push(...v));
    one.next([]);
    expect(ready).toEqual([]);
    two.next([pod('a')]);
    one.complete();
    two.complete();
    expect(ready).toEqual([true]);
  });

  it.each([
    [{ nodeName: '' }, 'nodeName'],
    [{ nodeName: 'n', custom: { file: NEVER } }, 'custom.file'],
  ])('refuses %j, naming the field', (options, field) => {
    expect(() => kubeletPodConfig(options)).toThrow(expect.objectContaining({ field }));
  });
});
