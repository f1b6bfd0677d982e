// Tests of the FitError message, ported in our own words from framework/types_test.go's TestFitError_Error.
import { describe, expect, it } from 'vitest';
import {
  addPluginStatus,
  FitError,
  fitErrorMessage,
  newDiagnosis,
} from '../../../../operators/scheduling/framework/fit-error.ts';
import { asStatus, newStatus, type Status } from '../../../../operators/scheduling/framework/status.ts';
import { makePod } from './fixtures.ts';

function diagnosis(o: {
  statuses?: Record<string, Status>;
  absent?: Status;
  preFilterMsg?: string;
  postFilterMsg?: string;
}) {
  const d = newDiagnosis();
  for (const [n, s] of Object.entries(o.statuses ?? {})) d.nodeToStatus.statuses.set(n, s);
  if (o.absent) d.nodeToStatus.absent = o.absent;
  d.preFilterMsg = o.preFilterMsg ?? '';
  d.postFilterMsg = o.postFilterMsg ?? '';
  return d;
}

const u = (...reasons: string[]) => newStatus('Unschedulable', ...reasons);

describe('FitError message', () => {
  it.each<[string, number, Parameters<typeof diagnosis>[0], string]>([
    [
      'PreFilter rejected the pod: its message only, not the per-node statuses',
      3,
      {
        preFilterMsg: 'Node(s) failed PreFilter plugin FalsePreFilter',
        absent: u('Node(s) failed PreFilter plugin FalsePreFilter'),
      },
      '0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter.',
    ],
    [
      'PreFilter rejection with a PostFilter message',
      3,
      {
        preFilterMsg: 'Node(s) failed PreFilter plugin FalsePreFilter',
        postFilterMsg: 'Error running PostFilter plugin FailedPostFilter',
      },
      '0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running PostFilter plugin FailedPostFilter',
    ],
    [
      'one Filter plugin rejected every node',
      3,
      {
        statuses: {
          node1: u('Node(s) failed Filter plugin FalseFilter-1'),
          node2: u('Node(s) failed Filter plugin FalseFilter-1'),
          node3: u('Node(s) failed Filter plugin FalseFilter-1'),
        },
      },
      '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.',
    ],
    [
      'with a PostFilter message',
      3,
      {
        statuses: {
          node1: u('Node(s) failed Filter plugin FalseFilter-1'),
          node2: u('Node(s) failed Filter plugin FalseFilter-1'),
          node3: u('Node(s) failed Filter plugin FalseFilter-1'),
        },
        postFilterMsg: 'Error running PostFilter plugin FailedPostFilter',
      },
      '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter',
    ],
    [
      'two Filter plugins: the histogram is sorted as strings',
      3,
      {
        statuses: {
          node1: u('Node(s) failed Filter plugin FalseFilter-1'),
          node2: u('Node(s) failed Filter plugin FalseFilter-1'),
          node3: u('Node(s) failed Filter plugin FalseFilter-2'),
        },
      },
      '0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.',
    ],
    [
      'a node with two reasons counts both',
      2,
      { statuses: { node1: u('Insufficient cpu', 'Insufficient memory'), node2: u('Insufficient cpu') } },
      '0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.',
    ],
    [
      'Permit rejected on the one node',
      1,
      { statuses: { node1: u('Node failed Permit plugin Permit-1') } },
      '0/1 nodes are available: 1 Node failed Permit plugin Permit-1.',
    ],
    [
      'Reserve rejected on the one node',
      1,
      { statuses: { node1: u('Node failed Reserve plugin Reserve-1') } },
      '0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1.',
    ],
    [
      'absent nodes take the absent status, counted',
      3,
      {
        statuses: { node1: u('Node(s) failed Filter plugin FalseFilter-1') },
        absent: newStatus('UnschedulableAndUnresolvable', "node(s) didn't satisfy plugin(s) [FakePreFilter]"),
      },
      "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-1, 2 node(s) didn't satisfy plugin(s) [FakePreFilter].",
    ],
    [
      'the default absent status has no reason and adds nothing',
      5,
      { statuses: { node1: u('Insufficient cpu') } },
      '0/5 nodes are available: 1 Insufficient cpu.',
    ],
    ['no reasons at all', 2, {}, '0/2 nodes are available:'],
  ])('%s', (_name, numAllNodes, d, want) => {
    expect(fitErrorMessage(numAllNodes, diagnosis(d))).toBe(want);
    const err = new FitError(makePod('p'), numAllNodes, diagnosis(d));
    expect(err.message).toBe(want);
    expect(err.code).toBe('KUBE_RX_FIT_ERROR');
  });

  it('reads the PostFilter message set after construction, and rides in a Status', () => {
    const d = diagnosis({ statuses: { n1: u('Insufficient cpu') } });
    const err = new FitError(makePod('p'), 1, d);
    d.postFilterMsg = 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    expect(err.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
    expect(asStatus(err).reasons).toEqual([err.message]);
    expect(err).toBeInstanceOf(Error);
  });
});

describe('addPluginStatus', () => {
  it.each<[string, Status | undefined, string[], string[]]>([
    ['Unschedulable', { ...u('x'), plugin: 'A' }, ['A'], []],
    [
      'UnschedulableAndUnresolvable',
      { ...newStatus('UnschedulableAndUnresolvable'), plugin: 'A' },
      ['A'],
      [],
    ],
    ['Pending', { ...newStatus('Pending'), plugin: 'A' }, [], ['A']],
    ['an Error is not a rejection', { ...newStatus('Error'), plugin: 'A' }, [], []],
    ['no plugin named', u('x'), [], []],
    ['no status', undefined, [], []],
  ])('%s', (_name, status, unschedulable, pending) => {
    const d = newDiagnosis();
    addPluginStatus(d, status);
    expect([...d.unschedulablePlugins]).toEqual(unschedulable);
    expect([...d.pendingPlugins]).toEqual(pending);
  });
});
