// Properties of OwnerGraph: for any order of adds, updates and deletes (informer or virtual), owners and dependents agree, and every virtual node created is queued for verification.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type GraphEvent,
  OwnerGraph,
} from '../../../../operators/controller/garbage-collector/owner-graph.ts';

const uid = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const event: fc.Arbitrary<GraphEvent> = fc
  .record({
    type: fc.constantFrom('add' as const, 'update' as const, 'delete' as const),
    uid,
    owners: fc.uniqueArray(fc.record({ uid, block: fc.boolean(), kind: fc.constantFrom('Pod', 'Secret') }), {
      maxLength: 3,
      selector: (o) => o.uid,
    }),
    beingDeleted: fc.boolean(),
    finalizer: fc.constantFrom(undefined, 'orphan', 'foregroundDeletion'),
    virtual: fc.boolean(),
  })
  .map((e) => ({
    type: e.type,
    identity: { apiVersion: 'v1', kind: 'Pod', name: `n${e.uid}`, uid: e.uid, namespace: 'ns' },
    owners: e.owners
      .filter((o) => o.uid !== e.uid)
      .map((o) => ({
        apiVersion: 'v1',
        kind: o.kind,
        name: `n${o.uid}`,
        uid: o.uid,
        blockOwnerDeletion: o.block,
      })),
    beingDeleted: e.beingDeleted,
    finalizers: e.finalizer ? [e.finalizer] : [],
    ...(e.type === 'delete' && e.virtual ? { virtual: true } : {}),
  }));

describe('OwnerGraph properties', () => {
  it('owners and dependents always agree', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const graph = new OwnerGraph();
        for (const e of events) {
          graph.process(e);
          for (const node of graph.nodes()) {
            for (const d of node.dependents)
              expect(graph.node(d)?.owners.some((o) => o.uid === node.identity.uid)).toBe(true);
            for (const o of node.owners) {
              const owner = graph.node(o.uid);
              if (owner) expect(owner.dependents.has(node.identity.uid)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every virtual node is queued for verification when it is created', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const graph = new OwnerGraph();
        for (const e of events) {
          const before = new Set([...graph.nodes()].map((n) => n.identity.uid));
          const out = graph.process(e);
          for (const node of graph.nodes())
            if (node.virtual && !before.has(node.identity.uid))
              expect(out.attemptToDelete).toContain(node.identity.uid);
        }
      }),
      { numRuns: 300 },
    );
  });
});
