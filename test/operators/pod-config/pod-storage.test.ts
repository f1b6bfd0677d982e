// PodStorage: the cases of the kubelet's config_test.go, as tables and sequences of source updates.
import { describe, expect, it } from 'vitest';
import { PodStorage } from '../../../operators/pod-config/pod-storage.ts';
import {
  CONFIG_SEEN_ANNOTATION,
  CONFIG_SOURCE_ANNOTATION,
  type Pod,
  type PodConfigMode,
  type PodOperation,
  type PodUpdate,
} from '../../../operators/pod-config/types.ts';
import { expectPodUpdates, podUpdate, validPod } from './pod-builders.ts';

const TEST = 'test';

function storage(mode: PodConfigMode = 'Incremental', now = () => 1_700_000_000_000) {
  return new PodStorage({ mode, now });
}

function send(s: PodStorage, op: PodOperation, ...pods: Pod[]): PodUpdate[] {
  return s.merge({ source: TEST, op, pods });
}

function withContainer(pod: Pod, name: string, image = 'test'): Pod {
  return {
    ...pod,
    spec: {
      ...pod.spec,
      containers: [{ name, image, imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }],
    },
  };
}

describe('PodStorage (config_test.go)', () => {
  it.each([
    ['a new pod in a named namespace', 'new'],
    ['a new pod with no namespace', ''],
    ['a new pod in the default namespace', 'default'],
  ])('reports %s as ADD, and Sync reports it under *', (_desc, namespace) => {
    const s = storage();
    expectPodUpdates(send(s, 'ADD', validPod('foo', namespace)), [
      podUpdate('ADD', TEST, validPod('foo', namespace)),
    ]);
    expectPodUpdates([s.sync()], [podUpdate('SET', '*', validPod('foo', namespace))]);
  });

  it('keeps pods of the same name in different namespaces apart', () => {
    const s = storage();
    expectPodUpdates(send(s, 'ADD', validPod('foo', 'default')), [
      podUpdate('ADD', TEST, validPod('foo', 'default')),
    ]);
    expectPodUpdates(send(s, 'ADD', validPod('foo', 'new')), [
      podUpdate('ADD', TEST, validPod('foo', 'new')),
    ]);
    expectPodUpdates([s.sync()], [podUpdate('SET', '*', validPod('foo', 'default'), validPod('foo', 'new'))]);
  });

  it('ignores an identical pod added again', () => {
    const s = storage();
    send(s, 'ADD', validPod('foo', 'new'));
    expect(send(s, 'ADD', validPod('foo', 'new'))).toEqual([]);
  });

  it.each([
    ['SnapshotAndUpdates', 'UPDATE'],
    ['Snapshot', 'SET'],
  ] as const)('in %s mode reports the first add as SET and a container change as %s', (mode, changeOp) => {
    const s = storage(mode);
    expectPodUpdates(send(s, 'ADD', validPod('foo', 'new')), [
      podUpdate('SET', TEST, validPod('foo', 'new')),
    ]);
    expectPodUpdates([s.sync()], [podUpdate('SET', '*', validPod('foo', 'new'))]);
    const changed = withContainer(validPod('foo', 'new'), 'bar');
    expectPodUpdates(send(s, 'ADD', changed), [podUpdate(changeOp, TEST, changed)]);
  });

  it('turns a changed ADD into UPDATE and a REMOVE into the stored pod', () => {
    const s = storage();
    expectPodUpdates(send(s, 'ADD', validPod('foo', 'new')), [
      podUpdate('ADD', TEST, validPod('foo', 'new')),
    ]);
    const changed = withContainer(validPod('foo', 'new'), 'bar');
    expectPodUpdates(send(s, 'ADD', changed), [podUpdate('UPDATE', TEST, changed)]);
    expectPodUpdates(send(s, 'REMOVE', validPod('foo', 'new')), [podUpdate('REMOVE', TEST, changed)]);
  });

  it('reports a pod given a deletionTimestamp as DELETE of the stored pod', () => {
    const s = storage();
    send(s, 'ADD', validPod('foo', 'new'));
    const deleted = validPod('foo', 'new');
    deleted.metadata!.deletionTimestamp = '2024-01-01T00:00:00Z';
    const out = send(s, 'DELETE', deleted);
    expectPodUpdates(out, [podUpdate('DELETE', TEST, deleted)]);
    expect(out[0]!.pods[0]!.metadata?.deletionTimestamp).toBe('2024-01-01T00:00:00Z');
  });

  it('diffs a SET into REMOVE, ADD and UPDATE, in that order', () => {
    const s = storage();
    expectPodUpdates(
      send(s, 'ADD', validPod('foo', 'new'), validPod('foo2', 'new'), validPod('foo3', 'new')),
      [podUpdate('ADD', TEST, validPod('foo', 'new'), validPod('foo2', 'new'), validPod('foo3', 'new'))],
    );
    const foo2 = withContainer(validPod('foo2', 'new'), 'bar');
    expectPodUpdates(send(s, 'SET', foo2, validPod('foo3', 'new'), validPod('foo4', 'new')), [
      podUpdate('REMOVE', TEST, validPod('foo', 'new')),
      podUpdate('ADD', TEST, validPod('foo4', 'new')),
      podUpdate('UPDATE', TEST, foo2),
    ]);
  });

  it.each(['ADD', 'SET'] as const)(
    'with %s reports status-only changes as RECONCILE, and spec changes as UPDATE',
    (op) => {
      const pods = (status?: string, spec?: string) => {
        const list = [
          validPod('changeable-pod-0', 'new'),
          validPod('constant-pod-1', 'new'),
          validPod('constant-pod-2', 'new'),
        ];
        if (status) list[0]!.status = { message: status };
        if (spec) list[0]!.spec!.containers![0]!.name = spec;
        return list;
      };
      const s = storage();
      expectPodUpdates(send(s, 'SET', ...pods()), [podUpdate('ADD', TEST, ...pods())]);
      expect(send(s, op, ...pods())).toEqual([]);
      const statusChanged = pods('s1');
      expectPodUpdates(send(s, op, ...statusChanged), [podUpdate('RECONCILE', TEST, statusChanged[0]!)]);
      const bothChanged = pods('s2', 'renamed');
      expectPodUpdates(send(s, op, ...bothChanged), [podUpdate('UPDATE', TEST, bothChanged[0]!)]);
    },
  );

  it.each([
    ['Incremental', 'ADD'],
    ['Snapshot', 'SET'],
    ['SnapshotAndUpdates', 'SET'],
  ] as const)('in %s mode an initial empty SET is reported once as an empty %s', (mode, op) => {
    const s = storage(mode);
    expectPodUpdates(send(s, 'SET'), [podUpdate(op, TEST)]);
    expect(send(s, 'SET')).toEqual([]);
    expectPodUpdates(send(s, 'ADD', validPod('foo', 'new')), [podUpdate(op, TEST, validPod('foo', 'new'))]);
  });

  it('reports changed, added and removed annotations as UPDATE', () => {
    const s = storage();
    const pod = validPod('foo2', 'new');
    pod.metadata!.annotations = { 'kubernetes.io/blah': 'blah' };
    const set = (p: Pod) =>
      send(s, 'SET', validPod('foo1', 'new'), structuredClone(p), validPod('foo3', 'new'));
    expectPodUpdates(set(pod), [
      podUpdate('ADD', TEST, validPod('foo1', 'new'), pod, validPod('foo3', 'new')),
    ]);
    pod.metadata!.annotations['kubernetes.io/blah'] = 'superblah';
    expectPodUpdates(set(pod), [podUpdate('UPDATE', TEST, pod)]);
    pod.metadata!.annotations['kubernetes.io/otherblah'] = 'doh';
    expectPodUpdates(set(pod), [podUpdate('UPDATE', TEST, pod)]);
    delete pod.metadata!.annotations['kubernetes.io/blah'];
    expectPodUpdates(set(pod), [podUpdate('UPDATE', TEST, pod)]);
  });

  it('reports a label change as UPDATE', () => {
    const s = storage();
    const pod = validPod('foo2', 'new');
    pod.metadata!.labels = { key: 'value' };
    expectPodUpdates(send(s, 'SET', structuredClone(pod)), [podUpdate('ADD', TEST, pod)]);
    pod.metadata!.labels.key = 'newValue';
    expectPodUpdates(send(s, 'SET', structuredClone(pod)), [podUpdate('UPDATE', TEST, pod)]);
  });

  it('ignores changes to the local config annotations only', () => {
    const s = storage();
    send(s, 'SET', validPod('foo', 'new'));
    const pod = validPod('foo', 'new');
    pod.metadata!.annotations = {
      [CONFIG_SEEN_ANNOTATION]: 'yesterday',
      [CONFIG_SOURCE_ANNOTATION]: 'elsewhere',
    };
    expect(send(s, 'SET', pod)).toEqual([]);
  });

  it('drops a later pod repeating a full name within one update, keeping the first', () => {
    const s = storage();
    const first = validPod('foo', 'new');
    const second = {
      ...validPod('foo', 'new'),
      metadata: { ...validPod('foo', 'new').metadata, uid: 'other' },
    };
    const out = send(s, 'SET', first, second);
    expectPodUpdates(out, [podUpdate('ADD', TEST, first)]);
    expect(out[0]!.pods[0]!.metadata?.uid).toBe('foonew');
  });

  it('drops pods without a name or UID and keeps the rest', () => {
    const s = storage();
    const noUid = validPod('a', 'ns');
    delete noUid.metadata!.uid;
    const out = send(s, 'SET', noUid, { metadata: { uid: 'x' } }, validPod('b', 'ns'));
    expectPodUpdates(out, [podUpdate('ADD', TEST, validPod('b', 'ns'))]);
  });

  it('treats the same name with a new UID as REMOVE of the old and ADD of the new', () => {
    const s = storage();
    send(s, 'SET', validPod('foo', 'new'));
    const renewed = validPod('foo', 'new');
    renewed.metadata!.uid = 'fresh';
    const out = send(s, 'SET', renewed);
    expect(out.map((u) => [u.op, u.pods.map((p) => p.metadata?.uid)])).toEqual([
      ['REMOVE', ['foonew']],
      ['ADD', ['fresh']],
    ]);
  });

  it('stamps the source and first-seen annotations and keeps first-seen across updates', () => {
    let now = Date.UTC(2024, 0, 1);
    const s = storage('Incremental', () => now);
    const [add] = send(s, 'SET', validPod('foo', 'new'));
    expect(add!.pods[0]!.metadata?.annotations).toMatchObject({
      [CONFIG_SOURCE_ANNOTATION]: TEST,
      [CONFIG_SEEN_ANNOTATION]: '2024-01-01T00:00:00.000Z',
    });
    now += 60_000;
    const [update] = send(s, 'SET', withContainer(validPod('foo', 'new'), 'bar'));
    expect(update!.op).toBe('UPDATE');
    expect(update!.pods[0]!.metadata?.annotations?.[CONFIG_SEEN_ANNOTATION]).toBe('2024-01-01T00:00:00.000Z');
  });

  it('hands out copies: changing an emitted pod changes nothing stored', () => {
    const s = storage();
    const [add] = send(s, 'SET', validPod('foo', 'new'));
    add!.pods[0]!.spec!.containers![0]!.image = 'tampered';
    expect(s.mergedState()[0]!.spec!.containers![0]!.image).toBe('image');
    expect(send(s, 'SET', validPod('foo', 'new'))).toEqual([]);
  });

  it('does not change the pods it is given', () => {
    const s = storage();
    const pod = validPod('foo', 'new');
    const before = structuredClone(pod);
    send(s, 'SET', pod);
    expect(pod).toEqual(before);
  });

  it('keeps every source apart and knows which sources have sent a set', () => {
    const s = storage();
    s.merge({ source: 'a', pods: [validPod('foo', 'ns')] });
    expect(s.seenAllSources(['a', 'b'])).toBe(false);
    s.merge({ source: 'b', op: 'ADD', pods: [validPod('foo', 'ns')] });
    expect(s.seenAllSources(['a', 'b'])).toBe(false);
    s.merge({ source: 'b', pods: [validPod('foo', 'ns')] });
    expect(s.seenAllSources(['a', 'b'])).toBe(true);
    expect(s.mergedState()).toHaveLength(2);
    const out = s.merge({ source: 'a', pods: [] });
    expect(out.map((u) => [u.op, u.source])).toEqual([['REMOVE', 'a']]);
    expect(s.mergedState()).toHaveLength(1);
  });

  it('refuses an unknown mode', () => {
    expect(() => new PodStorage({ mode: 'Sometimes' as PodConfigMode })).toThrow(/mode/);
  });
});
