// The deployment controller end to end: the embedded API server, kube-rx scheduler, simulated kubelets, kube-rx controller-manager (replicaset + deployment) and kubectl — create, set env, rollout status/history/undo/pause/resume, scale.
import { describe, expect, it } from 'vitest';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { secureGet } from '../../../helpers/controller-manager.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

describe.skipIf(!KUBECTL)('deployment controller end to end', { timeout: 120_000 }, () => {
  const plane = useControlPlane({
    controllerManager: [
      '--controllers',
      'replicaset,deployment',
      '--kube-api-qps',
      '1000',
      '--kube-api-burst',
      '1000',
    ],
  });
  const ok = plane.ok;
  const json = async (args: string[]) => JSON.parse(await ok([...args, '-o', 'json']));
  const rolloutStatus = async () => {
    const r = await plane.kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('deployment "web" successfully rolled out');
  };
  /** The Deployment's sets: name → [revision, spec.replicas]. */
  const sets = async (): Promise<Record<string, [string, number]>> => {
    const list = await json(['get', 'rs', '-l', 'app=web']);
    return Object.fromEntries(
      list.items.map(
        (rs: {
          metadata: { name: string; annotations: Record<string, string> };
          spec: { replicas: number };
        }) => [
          rs.metadata.name,
          [rs.metadata.annotations['deployment.kubernetes.io/revision'], rs.spec.replicas],
        ],
      ),
    );
  };
  const envOfPods = async () => {
    const list = await json(['get', 'pods', '-l', 'app=web']);
    return list.items
      .filter((p: { metadata: { deletionTimestamp?: string } }) => !p.metadata.deletionTimestamp)
      .map((p: { spec: { containers: { env?: { name: string; value: string }[] }[] } }) =>
        (p.spec.containers[0]?.env ?? []).map((e) => `${e.name}=${e.value}`).join(','),
      );
  };

  it('creates a Deployment whose 3 replicas become ready', async () => {
    expect(plane.manager!.started.controllers).toEqual(['deployment-controller', 'replicaset-controller']);
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await rolloutStatus();
    const d = await json(['get', 'deployment', 'web']);
    expect(d.status).toMatchObject({
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    const types = Object.fromEntries(
      d.status.conditions.map((c: { type: string; reason: string }) => [c.type, c.reason]),
    );
    expect(types).toEqual({ Available: 'MinimumReplicasAvailable', Progressing: 'NewReplicaSetAvailable' });
    const rs = Object.entries(await sets());
    expect(rs).toHaveLength(1);
    expect(rs[0]![0]).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rs[0]![1]).toEqual(['1', 3]);
  });

  it('rolls out `kubectl set env` and `kubectl rollout history` lists both revisions', async () => {
    await ok(['set', 'env', 'deployment/web', 'A=1']);
    await rolloutStatus();
    const after = await sets();
    expect(Object.values(after).sort()).toEqual([
      ['1', 0],
      ['2', 3],
    ]);
    await waitFor(async () => expect(await envOfPods()).toEqual(['A=1', 'A=1', 'A=1']), 30_000);
    const history = await ok(['rollout', 'history', 'deployment/web']);
    expect(history).toMatch(/REVISION\s+CHANGE-CAUSE/);
    expect(history).toMatch(/^1\s/m);
    expect(history).toMatch(/^2\s/m);
    const events = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.kind=Deployment,involvedObject.name=web',
      '-o',
      'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
    ]);
    expect(events).toMatch(/ScalingReplicaSet: Scaled up replica set web-\w+ from 0 to \d/);
    expect(events).toMatch(/ScalingReplicaSet: Scaled down replica set web-\w+ from \d to \d/);
  });

  it('`kubectl rollout undo` goes back to the first template as revision 3', async () => {
    await ok(['rollout', 'undo', 'deployment/web']);
    await rolloutStatus();
    await waitFor(async () => {
      const d = await json(['get', 'deployment', 'web']);
      expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    }, 30_000);
    const after = await sets();
    // the first set is new again, its old revision kept in revision-history
    expect(Object.values(after).sort()).toEqual([
      ['2', 0],
      ['3', 3],
    ]);
    const first = (await json(['get', 'rs', '-l', 'app=web'])).items.find(
      (rs: { metadata: { annotations: Record<string, string> } }) =>
        rs.metadata.annotations['deployment.kubernetes.io/revision'] === '3',
    );
    expect(first.metadata.annotations['deployment.kubernetes.io/revision-history']).toBe('1');
    await waitFor(async () => expect(await envOfPods()).toEqual(['', '', '']), 30_000);
  });

  it('holds a paused rollout and continues it once resumed', async () => {
    await ok(['rollout', 'pause', 'deployment/web']);
    await ok(['set', 'env', 'deployment/web', 'B=2']);
    const paused = await waitFor(async () => {
      const d = await json(['get', 'deployment', 'web']);
      expect(d.status.observedGeneration).toBe(d.metadata.generation);
      const progressing = d.status.conditions.find((c: { type: string }) => c.type === 'Progressing');
      expect(progressing).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused' });
      return d;
    }, 30_000);
    expect(paused.status.updatedReplicas).toBe(0);
    // no new ReplicaSet for the paused template
    expect(Object.keys(await sets())).toHaveLength(2);
    await ok(['rollout', 'resume', 'deployment/web']);
    await rolloutStatus();
    expect(Object.values(await sets()).sort()).toEqual([
      ['2', 0],
      ['3', 0],
      ['4', 3],
    ]);
  });

  it('shows its work queue in /metrics and its check in /healthz', async () => {
    const token = plane.token;
    const base = `https://127.0.0.1:${plane.manager!.securePort}`;
    expect((await secureGet(`${base}/healthz/deployment-controller`, token)).body).toBe('ok');
    expect((await secureGet(`${base}/metrics`, token)).body).toMatch(
      /workqueue_adds_total\{name="deployment"\} [1-9]/,
    );
  });

  it('`kubectl scale` scales the current ReplicaSet', async () => {
    await ok(['scale', 'deployment/web', '--replicas=5']);
    await rolloutStatus();
    await waitFor(async () => {
      const d = await json(['get', 'deployment', 'web']);
      expect(d.status).toMatchObject({
        replicas: 5,
        updatedReplicas: 5,
        readyReplicas: 5,
        availableReplicas: 5,
      });
    }, 30_000);
    const current = Object.values(await sets()).find(([rev]) => rev === '4');
    expect(current).toEqual(['4', 5]);
  });

  it('`kubectl rollout restart` rolls new pods, and `kubectl describe` names the new ReplicaSet', async () => {
    const before = Object.keys(await sets());
    await ok(['rollout', 'restart', 'deployment/web']);
    await rolloutStatus();
    const after = await sets();
    const fresh = Object.keys(after).filter((n) => !before.includes(n));
    expect(fresh).toHaveLength(1);
    expect(after[fresh[0]!]).toEqual(['5', 5]);
    const described = await ok(['describe', 'deployment', 'web']);
    expect(described).toMatch(new RegExp(`NewReplicaSet:\\s+${fresh[0]} \\(5/5 replicas created\\)`));
    expect(described).toMatch(/Progressing\s+True\s+NewReplicaSetAvailable/);
  });

  it('`kubectl rollout status` fails once a rollout exceeds its progress deadline', async () => {
    await ok(
      ['create', '-f', '-'],
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: slow, namespace: default}
spec:
  replicas: 1
  progressDeadlineSeconds: 2
  selector: {matchLabels: {app: slow}}
  template:
    metadata:
      labels: {app: slow}
      annotations: {"kube-rx.io/simulated-exec-exit-code": "1"}
    spec:
      containers:
      - name: c
        image: nginx
        readinessProbe: {exec: {command: [check]}, periodSeconds: 1}
`,
    );
    const r = await plane.kubectl(['rollout', 'status', 'deployment/slow', '--timeout=60s']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('deployment "slow" exceeded its progress deadline');
    const d = await json(['get', 'deployment', 'slow']);
    expect(d.status.conditions.find((c: { type: string }) => c.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
    });
  });
});
