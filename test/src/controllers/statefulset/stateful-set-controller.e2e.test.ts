// The statefulset controller end to end: the embedded API server, scheduler, simulated kubelets, kube-rx controller-manager (statefulset) and kubectl — ordered start, rollout status, set env, history and undo.
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { PODS } from '../../../../streams/resources.ts';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const MANIFEST = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    replicas: 3,
    serviceName: 'web',
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] },
    },
  },
});

const isReady = (p: Pod) =>
  p.status?.phase === 'Running' &&
  (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

describe.skipIf(!KUBECTL)('statefulset controller end to end', { timeout: 120_000 }, () => {
  const plane = useControlPlane({
    controllerManager: ['--controllers', 'statefulset', '--kube-api-qps', '1000', '--kube-api-burst', '1000'],
  });
  const ok = plane.ok;
  const json = async (args: string[]) => JSON.parse(await ok([...args, '-o', 'json']));
  /** What the watch saw, in order: `added web-1 (ready: web-0)` names the pods ready when a pod appeared. */
  const seen: string[] = [];
  const ready = new Set<string>();
  let watch: Subscription | undefined;

  beforeAll(() => {
    watch = plane.client.watch<Pod>(PODS, { namespace: 'default' }).subscribe((e) => {
      const name = e.object.metadata?.name ?? '';
      if (e.type === 'ADDED') seen.push(`added ${name} (ready: ${[...ready].sort().join(',')})`);
      if (e.type === 'DELETED') ready.delete(name);
      else if (isReady(e.object as Pod)) ready.add(name);
      else ready.delete(name);
    });
  });
  afterAll(() => watch?.unsubscribe());

  const rolloutStatus = async () => {
    const r = await plane.kubectl(['rollout', 'status', 'statefulset/web', '--timeout=60s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };
  const envOfPods = async () => {
    const list = await json(['get', 'pods', '-l', 'app=web']);
    return list.items
      .filter((p: Pod) => !p.metadata.deletionTimestamp)
      .map((p: Pod) => (p.spec.containers[0]?.env ?? []).map((e) => `${e.name}=${e.value}`).join(','));
  };

  it('brings up web-0, web-1, web-2 in order, each after the one before is Ready', async () => {
    expect(plane.manager!.started.controllers).toEqual(['statefulset-controller']);
    await ok(['apply', '-f', '-'], MANIFEST);
    expect(await rolloutStatus()).toContain('partitioned roll out complete: 3 new pods have been updated');
    expect(seen).toEqual([
      'added web-0 (ready: )',
      'added web-1 (ready: web-0)',
      'added web-2 (ready: web-0,web-1)',
    ]);
    const pod = await json(['get', 'pod', 'web-1']);
    expect(pod.metadata.labels).toMatchObject({
      'statefulset.kubernetes.io/pod-name': 'web-1',
      'apps.kubernetes.io/pod-index': '1',
    });
    expect(pod.metadata.labels['controller-revision-hash']).toMatch(/^web-\w+$/);
    expect(pod.spec).toMatchObject({ hostname: 'web-1', subdomain: 'web' });
    const sts = await json(['get', 'sts', 'web']);
    expect(sts.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      observedGeneration: sts.metadata.generation,
    });
    expect(sts.status.currentRevision).toBe(sts.status.updateRevision);
  });

  it('rolls `kubectl set env` out from the highest ordinal down and `kubectl rollout undo` goes back', async () => {
    const first = (await json(['get', 'sts', 'web'])).status.currentRevision;
    await ok(['set', 'env', 'statefulset/web', 'A=1']);
    await rolloutStatus();
    await waitFor(async () => expect(await envOfPods()).toEqual(['A=1', 'A=1', 'A=1']), 30_000);
    const second = (await json(['get', 'sts', 'web'])).status.currentRevision;
    expect(second).not.toBe(first);
    const deletions = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.kind=StatefulSet,involvedObject.name=web,reason=SuccessfulDelete',
      '-o',
      'jsonpath={range .items[*]}{.message}{"\\n"}{end}',
    ]);
    expect(deletions).toContain('delete Pod web-2 in StatefulSet web successful');
    const history = await ok(['rollout', 'history', 'statefulset/web']);
    expect(history).toMatch(/^1\s/m);
    expect(history).toMatch(/^2\s/m);

    await ok(['rollout', 'undo', 'statefulset/web']);
    await rolloutStatus();
    await waitFor(async () => expect(await envOfPods()).toEqual(['', '', '']), 30_000);
    const after = await json(['get', 'sts', 'web']);
    expect(after.status.currentRevision).toBe(first);
    const revisions = await json(['get', 'controllerrevisions', '-l', 'app=web']);
    const numbers = Object.fromEntries(
      revisions.items.map((r: { metadata: { name: string }; revision: number }) => [
        r.metadata.name,
        r.revision,
      ]),
    );
    expect(numbers).toEqual({ [first]: 3, [second]: 2 });
  });

  it('scales down from the highest ordinal', async () => {
    await ok(['scale', 'statefulset/web', '--replicas=1']);
    await waitFor(async () => {
      const names = (await json(['get', 'pods', '-l', 'app=web'])).items.map((p: Pod) => p.metadata.name);
      expect(names).toEqual(['web-0']);
    }, 30_000);
  });
});
