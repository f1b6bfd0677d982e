// prepareCandidate and preemptVictim: DisruptionTarget then delete, the Preempted event in upstream's words, victims already going or gone.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import { silentLogger } from '../../../../../operators/logger.ts';
import type {
  FrameworkHandle,
  SchedulerApi,
} from '../../../../../operators/scheduling/framework/interface.ts';
import {
  preemptedMessage,
  preemptVictim,
  prepareCandidate,
} from '../../../../../operators/scheduling/plugins/default-preemption/prepare-candidate.ts';
import { type ApiCall, makePod, recordingApi } from './cluster.ts';

const notFound = () => Object.assign(new Error('pods "v" not found'), { statusCode: 404 });

function handleWith(api: SchedulerApi, waiting: string[] = []): FrameworkHandle {
  return {
    api,
    logger: silentLogger,
    scheduler: { now: () => Date.UTC(2026, 0, 2, 3, 4, 5, 678) },
    rejectWaitingPod: (uid: string) => waiting.includes(uid),
    nominatedPodsForNode: () => [],
  } as unknown as FrameworkHandle;
}

const preemptor = makePod('vip', { uid: 'uid-vip', priority: 100, cpu: '1' });
const victim = (name: string, o: Parameters<typeof makePod>[1] = {}) =>
  makePod(name, { node: 'node1', priority: 1, cpu: '1', ...o });
const lines = (calls: ApiCall[]) => calls.map((c) => `${c.verb} ${c.pod}`);

describe('preemptVictim', () => {
  it('patches DisruptionTarget, deletes, then records Preempted on the victim', async () => {
    const calls: ApiCall[] = [];
    await preemptVictim(
      handleWith(recordingApi(calls)),
      'DefaultPreemption',
      preemptor,
      victim('v'),
      'node1',
    );
    expect(lines(calls)).toEqual(['patchPodCondition v', 'deletePod v', 'recordEvent v']);
    expect(calls[0]!.arg).toEqual({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
      lastTransitionTime: '2026-01-02T03:04:05Z',
    });
    expect(calls[2]!.arg).toEqual({
      type: 'Normal',
      reason: 'Preempted',
      action: 'Preempting',
      message: 'Preempted by pod uid-vip on node node1',
      reportingController: 'default-scheduler',
    });
  });

  it("is reported by the preemptor's scheduler", async () => {
    const calls: ApiCall[] = [];
    const other: Pod = { ...preemptor, spec: { ...preemptor.spec, schedulerName: 'bin-packing' } };
    await preemptVictim(handleWith(recordingApi(calls)), 'DefaultPreemption', other, victim('v'), 'node1');
    expect((calls[0]!.arg as { message: string }).message).toBe(
      'bin-packing: preempting to accommodate a higher priority pod',
    );
    expect((calls[2]!.arg as { reportingController: string }).reportingController).toBe('bin-packing');
  });

  it.each<[string, 'patchPodCondition' | 'deletePod']>([
    ['the condition patch', 'patchPodCondition'],
    ['the delete', 'deletePod'],
  ])('a victim already gone at %s is done, without an event', async (_name, failing) => {
    const calls: ApiCall[] = [];
    const api = recordingApi(calls);
    api[failing] = async () => {
      throw notFound();
    };
    await expect(
      preemptVictim(handleWith(api), 'DefaultPreemption', preemptor, victim('v'), 'node1'),
    ).resolves.toBeUndefined();
    expect(calls.filter((c) => c.verb === 'recordEvent')).toEqual([]);
  });

  it('another failure of the delete is the error, without an event', async () => {
    const calls: ApiCall[] = [];
    await expect(
      preemptVictim(
        handleWith(recordingApi(calls, 'v')),
        'DefaultPreemption',
        preemptor,
        victim('v'),
        'node1',
      ),
    ).rejects.toThrow('deleting v: boom');
    expect(lines(calls)).toEqual(['patchPodCondition v']);
  });

  it('an API without recordEvent writes no event and still preempts', async () => {
    const calls: ApiCall[] = [];
    const { recordEvent: _drop, ...api } = recordingApi(calls);
    await preemptVictim(
      handleWith(api as SchedulerApi),
      'DefaultPreemption',
      preemptor,
      victim('v'),
      'node1',
    );
    expect(lines(calls)).toEqual(['patchPodCondition v', 'deletePod v']);
  });

  it('the message is upstream’s', () => {
    expect(preemptedMessage(preemptor, 'n7')).toBe('Preempted by pod uid-vip on node n7');
  });
});

describe('prepareCandidate', () => {
  it('skips victims already being deleted and names the candidate node in the event', async () => {
    const calls: ApiCall[] = [];
    const status = await prepareCandidate(
      handleWith(recordingApi(calls)),
      'DefaultPreemption',
      { name: 'node1', victims: [victim('going', { deleting: true }), victim('stays')], numPdbViolations: 0 },
      preemptor,
    );
    expect(status).toBeUndefined();
    expect(lines(calls)).toEqual(['patchPodCondition stays', 'deletePod stays', 'recordEvent stays']);
    expect((calls[2]!.arg as { message: string }).message).toBe('Preempted by pod uid-vip on node node1');
  });

  it('a waiting victim is rejected, not deleted, and still gets the event', async () => {
    const calls: ApiCall[] = [];
    await prepareCandidate(
      handleWith(recordingApi(calls), ['waiter']),
      'DefaultPreemption',
      { name: 'node1', victims: [victim('waiter')], numPdbViolations: 0 },
      preemptor,
    );
    expect(lines(calls)).toEqual(['recordEvent waiter']);
  });

  it('a failed eviction is an Error status', async () => {
    const calls: ApiCall[] = [];
    const status = await prepareCandidate(
      handleWith(recordingApi(calls, 'v')),
      'DefaultPreemption',
      { name: 'node1', victims: [victim('v')], numPdbViolations: 0 },
      preemptor,
    );
    expect(status?.code).toBe('Error');
  });
});
