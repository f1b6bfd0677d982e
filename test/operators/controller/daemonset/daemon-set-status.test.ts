// Tests of daemonSetStatus: upstream's status cases in our words — desired, current, misscheduled, ready, available (minReadySeconds), updated, observedGeneration.
import { describe, expect, it } from 'vitest';
import {
  daemonSetStatus,
  daemonSetStatusUpToDate,
} from '../../../../operators/controller/daemonset/daemon-set-status.ts';
import { DaemonSetWorld, daemonSet, node, setReady } from './daemon-set-world.ts';

const world = () => {
  const w = new DaemonSetWorld(
    daemonSet({
      minReadySeconds: 10,
      template: {
        metadata: { labels: { name: 'simple-daemon' } },
        spec: { containers: [{ name: 'c', image: 'x' }], nodeSelector: { role: 'agent' } },
      },
    }),
  );
  w.nodes = ['a', 'b', 'c', 'd'].map((n) => node(n, { labels: { role: 'agent' } }));
  w.sync();
  return w;
};
const statusOf = (w: DaemonSetWorld, observe = true) =>
  daemonSetStatus(w.ds, w.nodes, w.pods, w.hash, w.now, observe);

describe('daemonSetStatus', () => {
  it('counts the pods of the nodes that should run one', () => {
    const w = world();
    setReady(w.podsOn('a')[0]!, true, w.now - 60_000); // available
    setReady(w.podsOn('b')[0]!, true, w.now - 5_000); // ready, not yet available
    w.nodes[3] = node('d'); // its pod is misscheduled now
    w.nodes.push(node('e', { labels: { role: 'agent' } })); // wants one, has none
    expect(statusOf(w)).toEqual({
      desiredNumberScheduled: 4,
      currentNumberScheduled: 3,
      numberMisscheduled: 1,
      numberReady: 2,
      numberAvailable: 1,
      numberUnavailable: 3,
      updatedNumberScheduled: 3,
      observedGeneration: 1,
    });
  });

  it('counts updated pods by the current revision', () => {
    const w = world();
    w.update((ds) => {
      ds.spec.template!.spec!.containers[0]!.image = 'y';
    });
    w.pods.shift();
    w.sync();
    expect(statusOf(w).updatedNumberScheduled).toBe(1);
  });

  it('leaves observedGeneration as it was while creations and deletions are unobserved', () => {
    const w = world();
    w.ds.status = { ...statusOf(w), observedGeneration: 1 };
    w.update(() => {});
    expect(statusOf(w, false).observedGeneration).toBe(1);
    expect(statusOf(w, true).observedGeneration).toBe(2);
  });

  it('is up to date only when every count and the generation are unchanged', () => {
    const w = world();
    const s = statusOf(w);
    expect(daemonSetStatusUpToDate(w.ds, s)).toBe(false);
    w.ds.status = s;
    expect(daemonSetStatusUpToDate(w.ds, statusOf(w))).toBe(true);
    setReady(w.pods[0]!, true, w.now);
    expect(daemonSetStatusUpToDate(w.ds, statusOf(w))).toBe(false);
  });
});
