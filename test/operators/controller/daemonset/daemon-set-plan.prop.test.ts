// Property of the daemon set's plan: after any interleaving of node adds, label changes, taints, template changes and partial syncs, converging leaves exactly one pod on every eligible node and none where one may not run; without surge no node ever holds two.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Taint } from '../../../../operators/api/core-v1.ts';
import { DaemonSetWorld, daemonSet, node, type DaemonSetWorld as World } from './daemon-set-world.ts';

/** The naive model of one node: its labels and taints. */
interface ModelNode {
  labels: Record<string, string>;
  taints: Taint[];
}
type Model = Map<string, ModelNode>;

/** The model's eligibility: the selector role=agent matches and no untolerated NoSchedule/NoExecute taint (the automatic ones are tolerated). */
const AUTO = new Set([
  'node.kubernetes.io/not-ready:NoExecute',
  'node.kubernetes.io/unreachable:NoExecute',
  'node.kubernetes.io/unschedulable:NoSchedule',
]);
const untolerated = (t: Taint) => !AUTO.has(`${t.key}:${t.effect}`) && t.key !== 'tolerated';
const eligible = (n: ModelNode) =>
  n.labels.role === 'agent' && !n.taints.some((t) => untolerated(t) && t.effect !== 'PreferNoSchedule');
/** A pod already there may stay unless the selector fails or an untolerated NoExecute taint is there. */
const mayStay = (n: ModelNode) =>
  n.labels.role === 'agent' && !n.taints.some((t) => untolerated(t) && t.effect === 'NoExecute');

const push = (w: World, m: Model) => {
  w.nodes = [...m].map(([name, n]) => node(name, { labels: n.labels, taints: n.taints }));
};

type Cmd = fc.Command<Model, World>;
const cmd = (name: string, check: (m: Model) => boolean, run: (m: Model, w: World) => void): Cmd => ({
  check,
  run: (m, w) => {
    run(m, w);
    push(w, m);
  },
  toString: () => name,
});

const nodeName = fc.constantFrom('n0', 'n1', 'n2', 'n3', 'n4');
const taint = fc.record({
  key: fc.constantFrom(
    'dedicated',
    'tolerated',
    'node.kubernetes.io/not-ready',
    'node.kubernetes.io/unschedulable',
  ),
  effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
});
const commands = [
  fc.tuple(nodeName, fc.boolean()).map(([n, agent]) =>
    cmd(
      `add ${n} agent=${agent}`,
      (m) => !m.has(n),
      (m) => {
        m.set(n, { labels: agent ? { role: 'agent' } : {}, taints: [] });
      },
    ),
  ),
  fc.tuple(nodeName, fc.constantFrom('agent', 'other')).map(([n, role]) =>
    cmd(
      `label ${n} role=${role}`,
      (m) => m.has(n),
      (m) => {
        m.get(n)!.labels = { role };
      },
    ),
  ),
  fc.tuple(nodeName, taint).map(([n, t]) =>
    cmd(
      `taint ${n} ${t.key}:${t.effect}`,
      (m) => m.has(n),
      (m) => {
        const x = m.get(n)!;
        x.taints = [...x.taints.filter((y) => y.key !== t.key || y.effect !== t.effect), t];
      },
    ),
  ),
  nodeName.map((n) =>
    cmd(
      `untaint ${n}`,
      (m) => m.has(n),
      (m) => {
        m.get(n)!.taints = [];
      },
    ),
  ),
  fc.constantFrom('img:2', 'img:3').map((image) =>
    cmd(
      `image ${image}`,
      () => true,
      (_m, w) => {
        w.update((ds) => {
          ds.spec.template!.spec!.containers[0]!.image = image;
        });
      },
    ),
  ),
  fc.constant(
    cmd(
      'sync once',
      () => true,
      (_m, w) => {
        w.sync();
        // without surge a node never holds two pods, even mid-update
        if (w.ds.spec.updateStrategy?.rollingUpdate?.maxSurge) return;
        for (const n of w.nodes) expect(w.podsOn(n.metadata.name ?? '').length).toBeLessThanOrEqual(1);
      },
    ),
  ),
  fc.constant(
    cmd(
      'pods ready',
      () => true,
      (_m, w) => w.markReady((p) => p.status?.conditions === undefined),
    ),
  ),
];

describe('daemonSetPlan, model-based', () => {
  it.each([
    ['maxUnavailable 1', { maxUnavailable: 1 }],
    ['maxSurge 1', { maxUnavailable: 0, maxSurge: 1 }],
  ])('exactly one pod per eligible node after any interleaving (%s)', (_name, rollingUpdate) => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 30 }), (cmds) => {
        const ds = daemonSet({
          updateStrategy: { type: 'RollingUpdate', rollingUpdate },
          template: {
            metadata: { labels: { name: 'simple-daemon' } },
            spec: {
              containers: [{ name: 'c', image: 'img:1' }],
              nodeSelector: { role: 'agent' },
              tolerations: [{ key: 'tolerated', operator: 'Exists' }],
            },
          },
        });
        const model: Model = new Map();
        const world = new DaemonSetWorld(ds);
        fc.modelRun(() => ({ model, real: world }), cmds);
        // converge: sync, pods become ready, until nothing changes (bounded)
        for (let i = 0; i < 30; i++) {
          const unready = world.pods.filter((p) => p.status?.conditions === undefined).length;
          world.markReady((p) => p.status?.conditions === undefined);
          const r = world.sync();
          if (unready === 0 && r.created === 0 && r.deleted === 0) break;
        }
        for (const [name, n] of model) {
          const pods = world.podsOn(name);
          if (eligible(n)) {
            expect(pods, `${name} is eligible`).toHaveLength(1);
            expect(pods[0]!.metadata.labels?.['controller-revision-hash']).toBe(world.hash);
          } else if (!mayStay(n)) expect(pods, `${name} may not run one`).toHaveLength(0);
          else expect(pods.length, `${name} keeps at most one`).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 150 },
    );
  });
});
