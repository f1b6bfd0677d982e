// `kube-rx scheduler` end to end with kubectl: VolumeZone places pods by their volumes' zones, a pod waiting for its claim is scheduled when the claim appears, a ReadWriteOncePod claim in use keeps a second pod pending, CSINode limits (NodeVolumeLimits).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { KUBECTL, kubectl, type SchedulerProcess, startSchedulerProcess } from './scheduler-process.ts';
import { waitFor } from './wait-for.ts';

const ZONE = 'topology.kubernetes.io/zone';

const DRIVER = 'csi.example.com';

const node = (name: string, zone: string, extra = '') => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels: {kubernetes.io/hostname: ${name}, ${ZONE}: ${zone}}
status:
  allocatable: {cpu: "4", memory: 16Gi, pods: "110"${extra}}
---
`;

/** A CSINode allowing `count` volumes of the test driver on `name`. */
const csiNode = (name: string, count: number) => `apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: ${name}}
spec:
  drivers: [{name: ${DRIVER}, nodeID: ${name}, allocatable: {count: ${count}}}]
---
`;

/** A CSI PersistentVolume of the test driver, pre-bound to `claim`. */
const csiVolume = (name: string, claim: string) => `apiVersion: v1
kind: PersistentVolume
metadata: {name: ${name}}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: ${DRIVER}, volumeHandle: ${name}-handle}
  claimRef: {namespace: default, name: ${claim}}
---
`;

/** A PersistentVolume pre-bound to claim `claim` (a static volume), in `zone` when given. */
const volume = (name: string, claim: string, zone?: string, mode = 'ReadWriteOnce') => `apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${name}
  labels: {${zone ? `${ZONE}: ${zone}` : ''}}
spec:
  capacity: {storage: 1Gi}
  accessModes: [${mode}]
  hostPath: {path: /tmp/${name}}
  claimRef: {namespace: default, name: ${claim}}
---
`;

/** A claim bound to `pv` by name. */
const claim = (name: string, pv: string, mode = 'ReadWriteOnce') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}, namespace: default}
spec:
  accessModes: [${mode}]
  resources: {requests: {storage: 1Gi}}
  volumeName: ${pv}
---
`;

const pod = (name: string, claimName: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
  terminationGracePeriodSeconds: 0
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: ${claimName}}}]
---
`;

describe.skipIf(!KUBECTL)('kube-rx scheduler: the volume plugins', { timeout: 60_000 }, () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  let scheduler: SchedulerProcess;

  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(kubeconfig, args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };
  const nodeOf = (name: string) => ok(['get', 'pod', name, '-o', 'jsonpath={.spec.nodeName}']);
  const bound = (name: string) =>
    waitFor(async () => {
      const n = await nodeOf(name);
      expect(n, `pod ${name} bound`).not.toBe('');
      return n;
    });
  /** The pod's PodScheduled condition as `status reason message`, once the scheduler has set it False. */
  const pending = (name: string) =>
    waitFor(async () => {
      const c = await ok([
        'get',
        'pod',
        name,
        '-o',
        'jsonpath={.status.conditions[?(@.type=="PodScheduled")].status} {.status.conditions[?(@.type=="PodScheduled")].reason} {.status.conditions[?(@.type=="PodScheduled")].message}',
      ]);
      expect(c).toMatch(/^False /);
      return c;
    });

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-volumes-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    await ok(['apply', '-f', '-'], node('n-a', 'zone-a') + node('n-b', 'zone-b'));
    scheduler = await startSchedulerProcess([
      '--kubeconfig',
      kubeconfig,
      '--leader-elect=false',
      '--secure-port',
      '0',
    ]);
  });

  afterAll(async () => {
    expect(await scheduler?.stop()).toBe(0);
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('places each pod in the zone of its claim bound volume (VolumeZone)', async () => {
    await ok(
      ['apply', '-f', '-'],
      volume('pv-a', 'data-a', 'zone-a') +
        claim('data-a', 'pv-a') +
        volume('pv-b', 'data-b', 'zone-b') +
        claim('data-b', 'pv-b'),
    );
    await ok(['apply', '-f', '-'], pod('in-a', 'data-a') + pod('in-b', 'data-b'));
    expect(await bound('in-a')).toBe('n-a');
    expect(await bound('in-b')).toBe('n-b');
  });

  it('keeps a pod whose claim does not exist pending, then schedules it when the claim appears', async () => {
    await ok(['apply', '-f', '-'], volume('pv-late', 'late', 'zone-b'));
    await ok(['apply', '-f', '-'], pod('waits', 'late'));
    const before = await pending('waits');
    expect(before).toContain('persistentvolumeclaim "late" not found');
    // The claim's Add event moves the pod at once (its backoff is 1 s; without the handler it would wait
    // for the 5-minute unschedulable flush).
    await ok(['apply', '-f', '-'], claim('late', 'pv-late'));
    expect(await bound('waits')).toBe('n-b');
  });

  it('keeps a second user of a ReadWriteOncePod claim Unschedulable (VolumeRestrictions)', async () => {
    await ok(
      ['apply', '-f', '-'],
      volume('pv-solo', 'solo', undefined, 'ReadWriteOncePod') + claim('solo', 'pv-solo', 'ReadWriteOncePod'),
    );
    await ok(['apply', '-f', '-'], pod('solo-1', 'solo'));
    await bound('solo-1');
    await ok(['apply', '-f', '-'], pod('solo-2', 'solo'));
    const condition = await pending('solo-2');
    expect(condition).toMatch(
      /^False Unschedulable 0\/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\./,
    );
    expect(await nodeOf('solo-2')).toBe('');
  });

  it('counts CSI volumes against the CSINode limits, and retries a pod when a CSINode appears (NodeVolumeLimits)', async () => {
    await ok(['apply', '-f', '-'], csiNode('n-a', 1) + csiNode('n-b', 0));
    await ok(
      ['apply', '-f', '-'],
      csiVolume('pv-csi-1', 'csi-1') +
        claim('csi-1', 'pv-csi-1') +
        csiVolume('pv-csi-2', 'csi-2') +
        claim('csi-2', 'pv-csi-2'),
    );
    await ok(['apply', '-f', '-'], pod('csi-user-1', 'csi-1'));
    expect(await bound('csi-user-1')).toBe('n-a');
    // A third node whose Node object allows no volume of the driver: nowhere is left for a second volume.
    await ok(['apply', '-f', '-'], node('n-c', 'zone-c', `, attachable-volumes-csi-${DRIVER}: "0"`));
    await ok(['apply', '-f', '-'], pod('csi-user-2', 'csi-2'));
    expect(await pending('csi-user-2')).toMatch(
      /^False Unschedulable 0\/3 nodes are available: 3 node\(s\) exceed max volume count\./,
    );
    // n-c's CSINode (its limits win over the Node's) is a CSINodeAdd: the pod is retried at once.
    await ok(['apply', '-f', '-'], csiNode('n-c', 2));
    expect(await bound('csi-user-2')).toBe('n-c');
  });
});
