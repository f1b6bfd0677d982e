// Tests of the node status loop in virtual time: writes on change or every report period, heartbeats in between, retries (kubelet_node_status_test.go).
import { defer, of, type Subscription, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Node } from '../../../../operators/api/core-v1.ts';
import { ApiError } from '../../../../operators/errors.ts';
import type { MachineInfo, NodeStatusConfig } from '../../../../operators/kubelet/node-status-setters.ts';
import { mergePatch } from '../../../../src/apiserver/merge-patch.ts';
import {
  type NodeStatusReport,
  nodeStatusUpdater,
} from '../../../../src/kubelet/node-status/node-status-updater.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient } from '../../../../streams/api-client.ts';

const subs: Subscription[] = [];
afterEach(() => {
  for (const s of subs.splice(0)) s.unsubscribe();
});

const machine: MachineInfo = {
  hostname: 'h',
  cpus: 2,
  memoryBytes: 4 * 1024 ** 3,
  memoryAvailableBytes: 2 * 1024 ** 3,
  addresses: [{ address: '10.0.0.5', family: 'IPv4' }],
  operatingSystem: 'linux',
  architecture: 'amd64',
  kernelVersion: 'k',
  osImage: 'os',
  machineID: 'm',
  systemUUID: 's',
  bootID: 'b',
};

function fakeNodes(initial: Node) {
  let node = structuredClone(initial);
  const patches: unknown[] = [];
  const getFaults: unknown[] = [];
  const notFaked = () => throwError(() => new Error('not faked'));
  const client = {
    get: () =>
      defer(() => (getFaults.length ? throwError(() => getFaults.shift()) : of(structuredClone(node)))),
    patch: (_r: unknown, _n: string, patch: unknown) =>
      defer(() => {
        patches.push(structuredClone(patch));
        const body = patch as { status: unknown };
        node = { ...node, status: mergePatch(node.status ?? {}, body.status) as Node['status'] };
        return of(structuredClone(node));
      }),
    list: notFaked,
    watch: notFaked,
    create: notFaked,
    update: notFaked,
    updateStatus: notFaked,
    delete: notFaked,
    bind: notFaked,
  } as unknown as ApiClient;
  return { client, patches, getFaults, current: () => node };
}

function setup(cfg: Partial<NodeStatusConfig> = {}, m = () => machine) {
  const clock = new VirtualClock();
  clock.advance(Date.parse('2026-11-24T10:00:00Z'));
  const api = fakeNodes({ metadata: { name: 'n1', uid: 'u1' }, status: {} });
  let settings: NodeStatusConfig = {
    nodeName: 'n1',
    kubeletVersion: 'v1.33.0-kube-rx',
    containerRuntimeVersion: 'process://1',
    ...cfg,
  };
  const reports: NodeStatusReport[] = [];
  subs.push(
    nodeStatusUpdater({
      client: api.client,
      statusConfig: () => settings,
      machineInfo: m,
      scheduler: clock.scheduler,
    }).subscribe((r) => reports.push(r)),
  );
  clock.advance(0);
  return {
    clock,
    api,
    reports,
    set: (next: Partial<NodeStatusConfig>) => (settings = { ...settings, ...next }),
  };
}

const outcomes = (reports: NodeStatusReport[]) => reports.map((r) => r.outcome);

describe('nodeStatusUpdater', () => {
  it('writes the full status at once, then only heartbeats in the node object every 10 s until a change or the 5 min report', () => {
    const { clock, api, reports } = setup();
    expect(outcomes(reports)).toEqual(['patched']);
    const ready = () => api.current().status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready()).toMatchObject({
      status: 'True',
      lastHeartbeatTime: '2026-11-24T10:00:00Z',
      lastTransitionTime: '2026-11-24T10:00:00Z',
    });
    clock.advance(10_000);
    clock.advance(10_000);
    expect(outcomes(reports)).toEqual(['patched', 'unchanged', 'unchanged']);
    clock.advance(280_000);
    expect(outcomes(reports).at(-1)).toBe('patched');
    expect(api.patches.length).toBe(2);
    expect(ready()).toMatchObject({
      lastHeartbeatTime: '2026-11-24T10:05:00Z',
      lastTransitionTime: '2026-11-24T10:00:00Z',
    });
  });

  it('writes as soon as a condition changes, moving its transition time', () => {
    const { clock, api, reports, set } = setup();
    clock.advance(10_000);
    set({ notReadyErrors: ['container runtime network not ready'] });
    clock.advance(10_000);
    expect(outcomes(reports)).toEqual(['patched', 'unchanged', 'patched']);
    expect(api.current().status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'container runtime network not ready',
      lastTransitionTime: '2026-11-24T10:00:20Z',
    });
    // the patch carries only what changed, and the change is an event to record
    expect(Object.keys((api.patches[1] as { status: object }).status)).toEqual(['conditions']);
    expect(reports[2]?.events).toEqual([
      { reason: 'NodeNotReady', message: 'Node n1 status is now: NodeNotReady' },
    ]);
    expect(reports[0]?.events?.map((e) => e.reason)).toEqual([
      'NodeHasSufficientMemory',
      'NodeHasNoDiskPressure',
      'NodeHasSufficientPID',
      'NodeReady',
    ]);
  });

  it('tries a round up to 5 times, then reports the failure and carries on', () => {
    const { clock, api, reports } = setup();
    const boom = new ApiError(500, { kind: 'Status', code: 500, message: 'boom' });
    api.getFaults.push(boom, boom, boom, boom);
    clock.advance(300_000 - 10_000);
    expect(reports.at(-1)?.outcome).not.toBe('failed');
    api.getFaults.push(boom, boom, boom, boom, boom);
    clock.advance(10_000);
    expect(reports.at(-1)?.outcome).toBe('failed');
    clock.advance(10_000);
    expect(reports.at(-1)?.outcome).toBe('patched');
  });

  it('writes capacity changes read from the host', () => {
    let cpus = 2;
    const { clock, api } = setup({}, () => ({ ...machine, cpus }));
    cpus = 6;
    clock.advance(10_000);
    expect(api.current().status?.capacity?.cpu).toBe('6');
  });

  it('stops on unsubscribe, leaving no timer', () => {
    const { clock } = setup();
    for (const s of subs.splice(0)) s.unsubscribe();
    expect(clock.pending).toBe(0);
  });
});
