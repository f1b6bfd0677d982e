// Benchmark of the kubelet pod config: 1,000 manifests to the first full set, write-to-update latency, 5,000-pod re-poll diff.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { filter, firstValueFrom, type Observable, Subject } from 'rxjs';
import { decodeStaticPods } from '../operators/pod-config/decode-static-pods.ts';
import { PodStorage } from '../operators/pod-config/pod-storage.ts';
import type { Pod, PodUpdate } from '../operators/pod-config/types.ts';
import { kubeletPodConfig } from '../src/kubelet/kubelet-pod-config.ts';
import { filePodSource } from '../streams/pod-sources/file.ts';

const NODE = 'bench-node';
const manifest = (i: number, image = 'registry.example/app:1') =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'bench', labels: { app: `a${i % 10}` } },
    spec: { containers: [{ name: 'app', image, args: ['--port', String(8000 + (i % 100))] }] },
  });

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function loadThousand(dir: string): Promise<void> {
  await Promise.all(
    Array.from({ length: 1000 }, (_, i) => writeFile(join(dir, `pod-${i}.json`), manifest(i))),
  );
  const start = performance.now();
  const first = await firstValueFrom(filePodSource({ path: dir, nodeName: NODE }));
  const sourceMs = performance.now() - start;
  const start2 = performance.now();
  const { updates$ } = kubeletPodConfig({ nodeName: NODE, podManifestPath: dir });
  const add = await firstValueFrom(updates$);
  const muxMs = performance.now() - start2;
  console.log(
    `load 1,000 manifests: first full set ${ms(sourceMs)} (${first.length} pods); through the mux to the first ADD ${ms(muxMs)} (${add.pods.length} pods)`,
  );
}

async function editLatency(dir: string): Promise<void> {
  const { updates$ } = kubeletPodConfig({
    nodeName: NODE,
    podManifestPath: dir,
    fileCheckFrequencyMs: 3_600_000,
  });
  const updates = new Subject<PodUpdate>();
  const sub = updates$.subscribe(updates);
  await firstValueFrom(updates as Observable<PodUpdate>);
  const latencies: number[] = [];
  for (let n = 0; n < 100; n++) {
    const image = `registry.example/app:edit-${n}`;
    const seen = firstValueFrom(
      updates.pipe(
        filter((u) => u.op === 'ADD' && u.pods.some((p) => p.spec?.containers?.[0]?.image === image)),
      ),
    );
    const start = performance.now();
    await writeFile(join(dir, 'pod-7.json'), manifest(7, image));
    await seen;
    latencies.push(performance.now() - start);
  }
  sub.unsubscribe();
  console.log(
    `write one manifest → its update (1,000 manifests watched, 100 edits): median ${ms(quantile(latencies, 0.5))}, p99 ${ms(quantile(latencies, 0.99))}`,
  );
}

function repollDiff(): void {
  const list = (changed: number) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'PodList',
      items: Array.from({ length: 5000 }, (_, i) => ({
        metadata: { name: `pod-${i}`, uid: `uid-${i}` },
        spec: {
          containers: [
            { name: 'app', image: i === changed ? 'registry.example/app:2' : 'registry.example/app:1' },
          ],
        },
      })),
    });
  const decode = (text: string) => {
    const r = decodeStaticPods(text, {
      source: 'http://bench/pods',
      kind: 'url',
      nodeName: NODE,
      allowList: true,
    });
    if (!r.ok) throw r.error;
    return r.pods;
  };
  const storage = new PodStorage({ now: () => 0 });
  storage.merge({ source: 'http', pods: decode(list(-1)) });
  const decodeTimes: number[] = [];
  const diffTimes: number[] = [];
  for (let round = 0; round < 20; round++) {
    const text = list(round % 2 === 0 ? 42 : -1);
    const t0 = performance.now();
    const pods: Pod[] = decode(text);
    const t1 = performance.now();
    const out = storage.merge({ source: 'http', pods });
    const t2 = performance.now();
    if (out.length !== 1 || out[0]!.pods.length !== 1)
      throw new Error(`expected one UPDATE, got ${out.map((u) => u.op)}`);
    decodeTimes.push(t1 - t0);
    diffTimes.push(t2 - t1);
  }
  console.log(
    `5,000-pod PodList re-poll with one change: diff median ${ms(quantile(diffTimes, 0.5))} (p99 ${ms(quantile(diffTimes, 0.99))}); decode+defaults+validate median ${ms(quantile(decodeTimes, 0.5))}`,
  );
}

const dir = await mkdtemp(join(tmpdir(), 'kube-rx-bench-pod-config-'));
try {
  await loadThousand(dir);
  await editLatency(dir);
  repollDiff();
} finally {
  await rm(dir, { recursive: true, force: true });
}
