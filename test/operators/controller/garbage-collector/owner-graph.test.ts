// OwnerGraph: upstream's TestProcessEvent scenarios (graph invariants after every event), the graph builder's transitions and the virtual-node identity cases, in our words.
import { describe, expect, it } from 'vitest';
import {
  type GraphEvent,
  type ObjectIdentity,
  OwnerGraph,
  ownerReferenceDiff,
} from '../../../../operators/controller/garbage-collector/owner-graph.ts';
import type { OwnerReference } from '../../../../operators/types.ts';

const id = (uid: string, more: Partial<ObjectIdentity> = {}): ObjectIdentity => ({
  apiVersion: 'v1',
  kind: 'Pod',
  name: `n${uid}`,
  uid,
  namespace: 'ns1',
  ...more,
});
const ref = (uid: string, more: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'Pod',
  name: `n${uid}`,
  uid,
  ...more,
});
const ev = (
  type: GraphEvent['type'],
  uid: string,
  owners: string[] | OwnerReference[],
  more: Partial<GraphEvent> = {},
): GraphEvent => ({
  type,
  identity: id(uid),
  owners: owners.map((o) => (typeof o === 'string' ? ref(o) : o)),
  beingDeleted: false,
  finalizers: [],
  ...more,
});

/** Every dependent lists the node as an owner and every observed owner lists the node as a dependent. */
function expectInvariants(graph: OwnerGraph): void {
  for (const node of graph.nodes()) {
    for (const d of node.dependents) {
      expect(
        graph.node(d)?.owners.some((o) => o.uid === node.identity.uid),
        `${d} owned by ${node.identity.uid}`,
      ).toBe(true);
    }
    for (const o of node.owners) {
      const owner = graph.node(o.uid);
      if (owner)
        expect(owner.dependents.has(node.identity.uid), `${o.uid} lists ${node.identity.uid}`).toBe(true);
    }
  }
}

describe('OwnerGraph: TestProcessEvent scenarios keep the graph consistent', () => {
  it.each<[string, GraphEvent[]]>([
    [
      'test1: a chain and a node with two owners',
      [ev('add', '1', []), ev('add', '2', ['1']), ev('add', '3', ['1', '2'])],
    ],
    [
      'test2: an owner in the middle deleted',
      [
        ev('add', '1', []),
        ev('add', '2', ['1']),
        ev('add', '3', ['1', '2']),
        ev('add', '4', ['2']),
        ev('delete', '2', []),
      ],
    ],
    [
      'test3: an update gives a node a new owner',
      [
        ev('add', '1', []),
        ev('add', '2', ['1']),
        ev('add', '3', ['1', '2']),
        ev('add', '4', ['3']),
        ev('update', '2', ['4']),
      ],
    ],
    [
      'reverse test2: dependents seen before their owners',
      [
        ev('add', '4', ['2']),
        ev('add', '3', ['1', '2']),
        ev('add', '2', ['1']),
        ev('add', '1', []),
        ev('delete', '2', []),
      ],
    ],
  ])('%s', (_name, events) => {
    const graph = new OwnerGraph();
    for (const e of events) {
      graph.process(e);
      expectInvariants(graph);
    }
  });
});

describe('OwnerGraph: what a change asks the collector to do', () => {
  it('an owner not yet seen becomes a virtual node queued for verification; its first sight makes it real', () => {
    const graph = new OwnerGraph();
    expect(graph.process(ev('add', 'pod', ['rs'])).attemptToDelete).toEqual(['rs']);
    expect(graph.node('rs')).toMatchObject({ virtual: true, identity: id('rs') });
    expect(graph.process(ev('add', 'rs', [])).attemptToDelete).toEqual([]);
    expect(graph.node('rs')?.virtual).toBe(false);
    expect([...(graph.node('rs')?.dependents ?? [])]).toEqual(['pod']);
  });

  it('an owner deleted queues its dependents and is remembered absent', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'rs', []));
    graph.process(ev('add', 'a', ['rs']));
    graph.process(ev('add', 'b', ['rs']));
    const out = graph.process(ev('delete', 'rs', []));
    expect(out.attemptToDelete).toEqual(['a', 'b']);
    expect(out.absentOwners).toEqual([id('rs')]);
    expect(graph.node('rs')).toBeUndefined();
  });

  it('a deletion starting with the orphan finalizer queues the owner to attemptToOrphan, once', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'rs', []));
    const deleting = { beingDeleted: true, finalizers: ['orphan'] };
    expect(
      graph.process(ev('update', 'rs', [], { ...deleting, old: { beingDeleted: false, finalizers: [] } }))
        .attemptToOrphan,
    ).toEqual(['rs']);
    expect(graph.process(ev('update', 'rs', [], { ...deleting, old: deleting })).attemptToOrphan).toEqual([]);
  });

  it('a deletion starting with foregroundDeletion marks the owner and queues its dependents and itself', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'rs', []));
    graph.process(ev('add', 'a', ['rs']));
    const out = graph.process(
      ev('update', 'rs', [], {
        beingDeleted: true,
        finalizers: ['foregroundDeletion'],
        old: { beingDeleted: false, finalizers: [] },
      }),
    );
    expect(out.attemptToDelete).toEqual(['a', 'rs']);
    expect(graph.node('rs')).toMatchObject({ beingDeleted: true, deletingDependents: true });
  });

  it('an object first seen already deleting in the foreground is marked so (a combined create and delete)', () => {
    const graph = new OwnerGraph();
    const out = graph.process(
      ev('add', 'rs', [], { beingDeleted: true, finalizers: ['foregroundDeletion'] }),
    );
    expect(out.attemptToDelete).toEqual(['rs']);
    expect(graph.node('rs')?.deletingDependents).toBe(true);
  });

  it('a blocking reference removed, or made non-blocking, queues the owner it named', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'o1', []));
    graph.process(ev('add', 'o2', []));
    graph.process(
      ev('add', 'd', [ref('o1', { blockOwnerDeletion: true }), ref('o2', { blockOwnerDeletion: true })]),
    );
    expect(graph.blockingDependentsOf('o1').map((n) => n.identity.uid)).toEqual(['d']);
    const out = graph.process(ev('update', 'd', [ref('o2', { blockOwnerDeletion: false })]));
    expect(out.attemptToDelete).toEqual(['o1', 'o2']);
    expect(graph.blockingDependentsOf('o2')).toEqual([]);
    expect(graph.dependentsOf('o1')).toEqual([]);
  });

  it('a dependent deleted queues its owner when that owner waits for its dependents', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'rs', [], { beingDeleted: true, finalizers: ['foregroundDeletion'] }));
    graph.process(ev('add', 'a', [ref('rs', { blockOwnerDeletion: true })]));
    expect(graph.process(ev('delete', 'a', [ref('rs')])).attemptToDelete).toEqual(['rs']);
    expect(graph.blockingDependentsOf('rs')).toEqual([]);
  });

  it('a dependent naming an observed owner in another namespace is reported and queued', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'owner', []));
    const e = ev('add', 'child', ['owner']);
    const out = graph.process({ ...e, identity: id('child', { namespace: 'ns2' }) });
    expect(out.invalidNamespaceReferences).toEqual([
      { dependent: id('child', { namespace: 'ns2' }), owner: ref('owner') },
    ]);
    expect(out.attemptToDelete).toEqual(['child']);
  });

  it('a dependent naming an observed owner by other coordinates is queued for verification', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'owner', []));
    expect(graph.process(ev('add', 'child', [ref('owner', { kind: 'Secret' })])).attemptToDelete).toEqual([
      'child',
    ]);
  });

  it('a virtual owner first seen with other coordinates queues the dependents that disagree', () => {
    const graph = new OwnerGraph();
    // the virtual node takes the coordinates of the first dependent that names it: the wrong ones
    graph.process(ev('add', 'bad', [ref('owner', { name: 'wrong' })]));
    expect(graph.process(ev('add', 'good', [ref('owner')])).attemptToDelete).toEqual(['good']);
    const out = graph.process(ev('add', 'owner', []));
    expect(out.attemptToDelete).toEqual(['bad']);
    expect(graph.node('owner')).toMatchObject({ virtual: false, identity: id('owner') });
  });

  it('a virtual delete of a virtual owner removes it and queues its dependents', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'child', ['ghost']));
    const out = graph.process({ ...ev('delete', 'ghost', []), virtual: true });
    expect(out.attemptToDelete).toEqual(['child']);
    expect(graph.node('ghost')).toBeUndefined();
  });

  it('a virtual delete of coordinates some dependents disagree on keeps the node under another identity (TestConflictingData)', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'a', [ref('owner')]));
    graph.process(ev('add', 'b', [ref('owner', { kind: 'Secret' })]));
    const out = graph.process({ ...ev('delete', 'owner', []), virtual: true });
    expect(out.attemptToDelete).toEqual(['a']);
    expect(out.absentOwners).toEqual([id('owner')]);
    expect(out.attemptToDeleteRateLimited).toEqual(['owner']);
    expect(graph.node('owner')?.identity).toEqual(id('owner', { kind: 'Secret' }));
  });

  it('a virtual delete never removes an observed node of other coordinates; matching dependents are queued', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'owner', []));
    graph.process(ev('add', 'bad', [ref('owner', { name: 'wrong' })]));
    const out = graph.process({
      ...ev('delete', 'owner', []),
      identity: id('owner', { name: 'wrong' }),
      virtual: true,
    });
    expect(out.attemptToDelete).toEqual(['bad']);
    expect(graph.node('owner')?.virtual).toBe(false);
  });

  it('a node made again for a deleted owner starts with every dependent still naming it (found by the property)', () => {
    const graph = new OwnerGraph();
    graph.process(ev('add', 'a', ['b']));
    graph.process(ev('delete', 'b', []));
    expect(graph.process(ev('add', 'c', ['b'])).attemptToDelete).toEqual(['b']);
    expect([...(graph.node('b')?.dependents ?? [])].sort()).toEqual(['a', 'c']);
  });

  it('a delete of an object the graph never had does nothing', () => {
    const out = new OwnerGraph().process(ev('delete', 'x', []));
    expect(out.attemptToDelete).toEqual([]);
  });
});

describe('ownerReferenceDiff (referencesDiffs)', () => {
  it.each<[string, OwnerReference[], OwnerReference[], string[], string[], string[]]>([
    ['one added, one removed', [ref('1'), ref('2')], [ref('2'), ref('3')], ['3'], ['1'], []],
    ['blockOwnerDeletion changed', [ref('1', { blockOwnerDeletion: true })], [ref('1')], [], [], ['1']],
    ['nothing changed', [ref('1')], [ref('1')], [], [], []],
  ])('%s', (_n, before, after, added, removed, changed) => {
    const d = ownerReferenceDiff(before, after);
    expect(d.added.map((r) => r.uid)).toEqual(added);
    expect(d.removed.map((r) => r.uid)).toEqual(removed);
    expect(d.changed.map((c) => c.after.uid)).toEqual(changed);
  });
});
