// nodeControllerTaints and swapNoExecuteTaint: upstream's tainting cases (TestApplyNoExecuteTaints, TestSwapUnreachableNotReadyTaints, TestTaintsNodeByCondition) in our own words.
import { describe, expect, it } from 'vitest';
import type { Node, NodeCondition, Taint } from '../../../../operators/api/core-v1.ts';
import {
  nodeControllerTaints,
  noExecuteTaintKey,
  swapNoExecuteTaint,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
} from '../../../../operators/controller/node-lifecycle/node-controller-taints.ts';

const NOW = Date.parse('2015-01-01T12:00:00Z');
const STAMP = '2015-01-01T12:00:00Z';
const OLD = '2014-01-01T00:00:00Z';
const cond = (type: string, status: NodeCondition['status']): NodeCondition => ({ type, status });
const node = (conditions: NodeCondition[], taints?: Taint[], unschedulable?: boolean): Node => ({
  metadata: { name: 'n' },
  spec: { ...(taints ? { taints } : {}), ...(unschedulable ? { unschedulable } : {}) },
  status: { conditions },
});
const t = (key: string, effect: string, timeAdded?: string): Taint => ({
  key: `node.kubernetes.io/${key}`,
  effect,
  ...(timeAdded ? { timeAdded } : {}),
});

describe('nodeControllerTaints', () => {
  it.each([
    {
      case: 'a Ready node without taints needs none',
      n: node([cond('Ready', 'True')]),
      observed: 'True',
      want: undefined,
    },
    {
      case: 'Ready False: not-ready NoSchedule and NoExecute',
      n: node([cond('Ready', 'False')]),
      observed: 'False',
      want: [t('not-ready', 'NoSchedule', STAMP), t('not-ready', 'NoExecute', STAMP)],
    },
    {
      case: 'Ready Unknown: unreachable NoSchedule and NoExecute',
      n: node([cond('Ready', 'Unknown')]),
      observed: 'Unknown',
      want: [t('unreachable', 'NoSchedule', STAMP), t('unreachable', 'NoExecute', STAMP)],
    },
    {
      case: 'just gone Unknown this pass: NoSchedule now, NoExecute on the next pass',
      n: node([cond('Ready', 'Unknown')]),
      observed: 'True',
      want: [t('unreachable', 'NoSchedule', STAMP)],
    },
    {
      case: 'False then Unknown: not-ready swapped for unreachable',
      n: node(
        [cond('Ready', 'Unknown')],
        [t('not-ready', 'NoSchedule', OLD), t('not-ready', 'NoExecute', OLD)],
      ),
      observed: 'Unknown',
      want: [t('unreachable', 'NoSchedule', STAMP), t('unreachable', 'NoExecute', STAMP)],
    },
    {
      case: 'Ready again: the controller taints go, a foreign one stays',
      n: node(
        [cond('Ready', 'True')],
        [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, t('unreachable', 'NoExecute', OLD)],
      ),
      observed: 'True',
      want: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    },
    {
      case: 'taints already right: no change',
      n: node(
        [cond('Ready', 'Unknown')],
        [t('unreachable', 'NoExecute', OLD), t('unreachable', 'NoSchedule', OLD)],
      ),
      observed: 'Unknown',
      want: undefined,
    },
    {
      case: 'pressure conditions and unschedulable taint NoSchedule; an existing one keeps its timeAdded',
      n: node(
        [
          cond('Ready', 'True'),
          cond('MemoryPressure', 'True'),
          cond('DiskPressure', 'True'),
          cond('PIDPressure', 'True'),
          cond('NetworkUnavailable', 'True'),
        ],
        [t('memory-pressure', 'NoSchedule', OLD)],
        true,
      ),
      observed: 'True',
      want: [
        t('memory-pressure', 'NoSchedule', OLD),
        t('disk-pressure', 'NoSchedule', STAMP),
        t('network-unavailable', 'NoSchedule', STAMP),
        t('pid-pressure', 'NoSchedule', STAMP),
        t('unschedulable', 'NoSchedule', STAMP),
      ],
    },
    {
      case: 'a pressure condition that clears removes its taint',
      n: node(
        [cond('Ready', 'True'), cond('DiskPressure', 'False')],
        [t('disk-pressure', 'NoSchedule', OLD)],
      ),
      observed: 'True',
      want: [],
    },
  ])('$case', ({ n, observed, want }) => {
    expect(nodeControllerTaints(n, cond('Ready', observed as NodeCondition['status']), NOW)).toEqual(want);
  });
});

describe("nodeControllerTaints with NoExecute left to the tainter ('keep')", () => {
  it.each([
    {
      case: 'Unknown, not tainted yet: only the NoSchedule taint now',
      n: node([cond('Ready', 'Unknown')]),
      want: [t('unreachable', 'NoSchedule', STAMP)],
    },
    {
      case: 'a NoExecute taint already there stays, even on a Ready node',
      n: node([cond('Ready', 'True')], [t('unreachable', 'NoExecute', OLD)]),
      want: undefined,
    },
    {
      case: 'NoSchedule still follows the conditions',
      n: node(
        [cond('Ready', 'False')],
        [t('unreachable', 'NoExecute', OLD), t('unreachable', 'NoSchedule', OLD)],
      ),
      want: [t('unreachable', 'NoExecute', OLD), t('not-ready', 'NoSchedule', STAMP)],
    },
  ])('$case', ({ n, want }) => {
    const observed = n.status?.conditions?.[0];
    expect(nodeControllerTaints(n, observed, NOW, 'keep')).toEqual(want);
  });
});

describe('swapNoExecuteTaint', () => {
  it.each([
    {
      case: 'adds unreachable',
      taints: [],
      key: TAINT_NODE_UNREACHABLE,
      want: [t('unreachable', 'NoExecute', STAMP)],
    },
    {
      case: 'swaps not-ready for unreachable, keeping the others in place',
      taints: [
        { key: 'dedicated', effect: 'NoExecute' },
        t('not-ready', 'NoExecute', OLD),
        t('not-ready', 'NoSchedule', OLD),
      ],
      key: TAINT_NODE_UNREACHABLE,
      want: [
        { key: 'dedicated', effect: 'NoExecute' },
        t('not-ready', 'NoSchedule', OLD),
        t('unreachable', 'NoExecute', STAMP),
      ],
    },
    {
      case: 'already there: no change',
      taints: [t('not-ready', 'NoExecute', OLD)],
      key: TAINT_NODE_NOT_READY,
      want: undefined,
    },
    {
      case: 'removes both when the node is reachable',
      taints: [t('unreachable', 'NoExecute', OLD), t('unreachable', 'NoSchedule', OLD)],
      key: undefined,
      want: [t('unreachable', 'NoSchedule', OLD)],
    },
    {
      case: 'nothing to remove: no change',
      taints: [t('unreachable', 'NoSchedule', OLD)],
      key: undefined,
      want: undefined,
    },
  ])('$case', ({ taints, key, want }) => {
    expect(swapNoExecuteTaint(taints, key, NOW)).toEqual(want);
  });

  it.each([
    { status: 'False' as const, want: TAINT_NODE_NOT_READY },
    { status: 'Unknown' as const, want: TAINT_NODE_UNREACHABLE },
    { status: 'True' as const, want: undefined },
    { status: undefined, want: undefined },
  ])('Ready $status calls for $want', ({ status, want }) => {
    expect(noExecuteTaintKey(status)).toBe(want);
  });
});
